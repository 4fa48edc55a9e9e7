/**
 * `/judge agree` through the platform-neutral command handler (terminal platform, maintainer role).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaService } from '../../../src/arena/service.ts';
import { createCommandHandler } from '../../../src/bot/commands/handlers.ts';
import type { CommandContext, MessageContent } from '../../../src/chat/port.ts';
import { SHELL_MAINTAINER_ROLE } from '../../../src/chat/port.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import type { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { testConfig } from '../arena/helpers.ts';

describe.each(flowBackends())('/judge agree on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());

  it('answers maintainers, refuses others', async () => {
    const handler = createCommandHandler({
      db: d.db,
      arena: {} as ArenaService,
      config: testConfig(),
      logger: silentLogger,
      leaderboard: {} as LeaderboardService,
    });
    const run = async (roles: string[]) => {
      const replies: MessageContent[] = [];
      const ctx: CommandContext = {
        platform: 'shell',
        eventId: 'e1',
        name: 'judge',
        args: { action: 'agree' },
        text: 'agree',
        user: { id: 'u1', roles },
        channelId: 'terminal',
        reply: async (c) => {
          replies.push(c);
        },
      };
      await handler(ctx);
      return replies[0]?.text ?? '';
    };
    expect(await run([SHELL_MAINTAINER_ROLE])).toContain('No judge has judged arena battles yet');
    expect(await run([])).toContain('only arena maintainers');
  });
});
