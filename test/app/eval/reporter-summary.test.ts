/**
 * The summary of a finished run is posted even when the chat platform refuses the first try (an outage, a 5xx
 * after the adapter's retries): the mark that makes the summary posted once is given back when the post fails, so
 * the next report posts it, once.
 */
import { describe, expect, it } from 'vitest';
import { EvalReporter } from '../../../src/bot/eval-reporter.ts';
import { DISCORD_CAPABILITIES } from '../../../src/chat/discord/adapter.ts';
import type { ChatPlatform, MessageContent } from '../../../src/chat/port.ts';
import { systemClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { createRun, finishRun, getRun } from '../../../src/storage/eval-runs.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { flowBackends, freshDb } from '../../helpers/db.ts';

describe.each(flowBackends())('the summary of a finished run (%s)', (backend) => {
  it('a refused post is tried again at the next report and posted once', async () => {
    const d = await freshDb(backend);
    try {
      const ids = await ensureModels(d.db, ['m'], 'openai');
      const created = await createRun(d.db, {
        modelId: ids.get('m') as number,
        suite: 'mini',
        reportPlatform: 'discord',
        reportChannel: 'c1',
      });
      if (!created.created) throw new Error('run not created');
      const runId = created.run.id;
      await finishRun(d.db, runId, 'succeeded');
      const posted: string[] = [];
      let refused = 0;
      const platform = {
        name: 'discord',
        capabilities: DISCORD_CAPABILITIES,
        botUserId: 'bot',
        start: async () => {},
        stop: async () => {},
        post: async (_channel: string, content: MessageContent) => {
          if (content.text.includes('finished') && refused === 0) {
            refused += 1;
            throw new Error('Discord answered 503 after 3 attempts');
          }
          posted.push(content.text);
          return {
            platform: 'discord',
            channelId: 'c1',
            messageId: `m${posted.length}`,
            partIds: [],
          };
        },
        edit: async () => {},
        addReactions: async () => {},
        listReactions: async () => [],
      } satisfies ChatPlatform;
      const reporter = new EvalReporter({
        db: d.db,
        platforms: [platform],
        logger: silentLogger,
        clock: systemClock,
        editEveryMs: 600_000,
      });
      await reporter.tick();
      expect(refused).toBe(1);
      expect((await getRun(d.db, runId))?.summaryPostedAt).toBeNull();
      await reporter.tick();
      await reporter.tick();
      const summaries = posted.filter((t) => t.startsWith(`Evaluation run #${runId} finished`));
      expect(summaries).toEqual([`Evaluation run #${runId} finished: m on mini`]);
    } finally {
      await d.destroy();
    }
  });
});
