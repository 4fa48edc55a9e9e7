/**
 * Public model names as they are: `import battles` stores names with spaces, parentheses, CJK and Markdown/HTML
 * characters; the results page escapes them as HTML, the chat as Markdown (Discord), mrkdwn (Slack) or plain text
 * (terminal), the chart as SVG text.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { revealContent } from '../../../src/arena/message.ts';
import { renderDiscordMessages } from '../../../src/chat/discord/render.ts';
import { renderPlain } from '../../../src/chat/shell/render.ts';
import { renderSlackMessages } from '../../../src/chat/slack/render.ts';
import { systemClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { renderBoardSvg } from '../../../src/leaderboard/chart.ts';
import { overallPage } from '../../../src/leaderboard/page.ts';
import type { Snapshot } from '../../../src/leaderboard/service.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { chartRows, overallContent } from '../../../src/leaderboard/views.ts';
import { findModel } from '../../../src/storage/models.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { testConfig } from '../arena/helpers.ts';

const NAMES = [
  'GPT 3.5 Turbo (16k)',
  '文心一言 4.0',
  'Code Llama Instruct (13B)',
  '<b>*Bold*</b> & "q"',
] as const;
const TRICKY = NAMES[3];

describe.each(flowBackends())('public model names on %s', (backend) => {
  let d: TestDb;
  let snap: Snapshot;
  beforeAll(async () => {
    d = await freshDb(backend);
    const f = join(mkdtempSync(join(tmpdir(), 'zhujiu-names-')), 'public.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 40; i++) {
      for (let a = 0; a < NAMES.length; a++) {
        for (let b = a + 1; b < NAMES.length; b++) {
          const winner = (i + a + b) % 3 === 0 ? 'model_b' : 'model_a';
          lines.push(JSON.stringify({ model_a: NAMES[a], model_b: NAMES[b], winner }));
        }
      }
    }
    writeFileSync(f, `${lines.join('\n')}\n`);
    await importBattles(d.db, { file: f, source: 'public', ability: 'language' });
    const config = testConfig();
    const svc = new LeaderboardService({
      db: d.db,
      clock: systemClock,
      logger: silentLogger,
      aggregation: { ...config.aggregation, bootstrap: 20 },
      includeSources: ['public'],
      compute: 'inline',
      inlineChart: false,
    });
    snap = await svc.refresh();
    await svc.close();
  });
  afterAll(async () => d?.destroy());

  it('import battles stores every name as written', async () => {
    for (const n of NAMES) expect((await findModel(d.db, n))?.name).toBe(n);
    expect(snap.board.rows.map((r) => r.model).sort()).toEqual([...NAMES].sort());
  });

  it('the results page shows the names HTML-escaped', () => {
    const html = overallPage(snap, new Date());
    expect(html).toContain('GPT 3.5 Turbo (16k)');
    expect(html).toContain('文心一言 4.0');
    expect(html).toContain('&lt;b&gt;*Bold*&lt;/b&gt; &amp; &quot;q&quot;');
    expect(html).not.toContain('<b>*Bold*</b>');
    expect(html).toContain(`/board/model/${encodeURIComponent(TRICKY)}`);
  });

  it('the chart writes the names as SVG text', async () => {
    const svg = await renderBoardSvg(chartRows(snap.board), { title: 'ZhuJiu board' });
    expect(svg).toContain('文心一言 4.0');
    expect(svg).toContain('&lt;b&gt;*Bold*&lt;/b&gt; &amp;');
    expect(svg).not.toContain('<b>*Bold*</b>');
  });

  it('chat shows the names as written on every platform (Markdown-escaped where it is Markdown)', () => {
    const reveal = revealContent({
      number: 7,
      prompt: 'Explain tides.',
      leftAnswer: 'The moon.',
      rightAnswer: 'Gravity.',
      emoji: ['1️⃣', '🤝', '2️⃣', '👎'],
      leftModel: TRICKY,
      rightModel: '文心一言 4.0',
      tally: { left: 3, equal: 1, right: 2, bothbad: 0 },
    });
    const discord = renderDiscordMessages(reveal);
    expect(discord[0]?.content).toContain(
      'Left: \\<b\\>\\*Bold\\*\\</b\\> & "q" · Right: 文心一言 4.0',
    );
    // The embed footer shows no Markdown: the name as written.
    expect(discord.flatMap((m) => m.embeds).at(-1)?.footer?.text).toContain(`Left: ${TRICKY} ·`);
    const slack = JSON.stringify(renderSlackMessages(reveal));
    expect(slack).toContain('Left: &lt;b&gt;*Bold*&lt;/b&gt; &amp; \\"q\\" · Right: 文心一言 4.0');
    expect(renderPlain(reveal)).toContain(`Left: ${TRICKY} · Right: 文心一言 4.0`);
    const board = overallContent(snap, { now: new Date() });
    expect(renderPlain(board)).not.toContain('\\*');
    for (const n of NAMES) expect(renderPlain(board)).toContain(n);
  });
});
