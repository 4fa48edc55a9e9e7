/**
 * The board service on stored data (both backends): latest finished run per suite counts, sources (community
 * votes by default, imported ones when asked), snapshots rebuilt only when inputs change, `/leaderboard` views
 * answered from the snapshot with its age.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaService } from '../../../src/arena/service.ts';
import { createCommandHandler } from '../../../src/bot/commands/handlers.ts';
import type { CommandContext, MessageContent } from '../../../src/chat/port.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { boardJson } from '../../../src/leaderboard/views.ts';
import { addBattles, addRun } from '../../helpers/board-data.ts';
import { flowBackends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';
import { testConfig } from '../arena/helpers.ts';

function scores(prefix: string, values: number[], max = 1) {
  return values.map((v, i) => ({ key: `${prefix}${i}`, raw: v, max }));
}

describe.each(flowBackends())('board service (%s)', (backend) => {
  let db: TestDb;
  let svc: LeaderboardService;
  const clock = new ManualClock(new Date('2026-11-30T01:00:00Z'));
  beforeAll(async () => {
    db = await freshDb(backend);
    svc = new LeaderboardService({
      db: db.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 100, seed: 3 },
      compute: 'inline',
      inlineChart: false,
    });
  });
  afterAll(async () => {
    await svc.close();
    await db.destroy();
  });
  useCleanRows(() => db);

  it('a snapshot stored without its chart (as one-shot commands store it) gets it from a service with a board thread, rendered and stored once', async () => {
    for (const [model, right] of [
      ['m1', 3],
      ['m2', 1],
    ] as const) {
      await addRun(db.db, {
        model,
        suite: 'gaokao',
        dataset: 'obj',
        ability: 'knowledge',
        method: 'metrics',
        scores: scores(
          'q',
          [0, 1, 2, 3].map((i) => (i < right ? 1 : 0)),
        ),
      });
    }
    const stored = await svc.refresh();
    expect(stored.chart).toBeNull();
    const bot = new LeaderboardService({
      db: db.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 100, seed: 3 },
    });
    try {
      const snap = await bot.refresh();
      expect(snap.id).toBe(stored.id);
      expect(Buffer.from(snap.chart!.subarray(0, 8))).toEqual(
        Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
      );
      expect((await svc.latest())?.chart).toEqual(snap.chart);
    } finally {
      await bot.close();
    }
  });

  it("one board's life: built from the latest finished run per suite (community votes by default), kept while nothing changes, judge grades joined, then /leaderboard answers from it", async () => {
    // Step: builds from the latest finished run per suite, community votes only by default
    {
      // m1: an old run (all wrong), then a newer one (3/4), then a failed and a running one (ignored).
      await addRun(db.db, {
        model: 'm1',
        suite: 'gaokao',
        dataset: 'obj',
        ability: 'knowledge',
        method: 'metrics',
        scores: scores('q', [0, 0, 0, 0]),
        finishedAt: new Date('2026-11-01T00:00:00Z'),
      });
      await addRun(db.db, {
        model: 'm1',
        suite: 'gaokao',
        dataset: 'obj',
        ability: 'knowledge',
        method: 'metrics',
        scores: scores('q', [1, 1, 1, 0]),
        finishedAt: new Date('2026-11-02T00:00:00Z'),
      });
      await addRun(db.db, {
        model: 'm1',
        suite: 'gaokao',
        dataset: 'obj',
        ability: 'knowledge',
        method: 'metrics',
        scores: scores('q', [0, 0, 0, 0]),
        status: 'failed',
        finishedAt: new Date('2026-11-03T00:00:00Z'),
      });
      await addRun(db.db, {
        model: 'm2',
        suite: 'gaokao',
        dataset: 'obj',
        ability: 'knowledge',
        method: 'metrics',
        scores: scores('q', [1, 0, 0, 0]),
      });
      // Judge scores with one safety violation (adjusted to 0).
      await addRun(db.db, {
        model: 'm2',
        suite: 'judge',
        dataset: 'open',
        ability: 'safety',
        method: 'scoring',
        scores: [
          { key: 's0', raw: 3, max: 3 },
          { key: 's1', raw: 3, max: 3, sv: true },
        ],
      });
      // Community votes: m1 beats m2 8–2 in language; imported votes (another source) say the opposite.
      await addBattles(db.db, 'arena', 'language', [
        ...Array.from({ length: 8 }, () => ({ a: 'm1', b: 'm2', choice: 'left' as const })),
        ...Array.from({ length: 2 }, () => ({ a: 'm1', b: 'm2', choice: 'right' as const })),
      ]);
      await addBattles(
        db.db,
        'public-dump',
        'language',
        Array.from({ length: 30 }, () => ({ a: 'm1', b: 'm2', choice: 'right' as const })),
        'p',
      );

      const snap = await svc.refresh();
      const json = boardJson(snap.board);
      const m1 = json.models.find((m) => m.model === 'm1')!;
      const m2 = json.models.find((m) => m.model === 'm2')!;
      expect(m1.methods.metrics).toBeCloseTo(7.5, 10);
      expect(m2.methods.metrics).toBeCloseTo(2.5, 10);
      expect(m2.methods.scoring).toBeCloseTo(5, 10); // (10 + 0) / 2: the violation counts as 0
      expect(m1.methods.scoring).toBeNull();
      expect(m1.votes).toBe(10);
      // P(m1 beats m2) = 0.8 at the MLE → 8.0; m2 → 2.0.
      expect(m1.methods.comparative).toBeCloseTo(8, 6);
      expect(m2.methods.comparative).toBeCloseTo(2, 6);
      expect(m1.incomplete).toBe(true);
      expect(m1.final).not.toBeNull();
      expect(m1.final_lo).not.toBeNull();
      expect(snap.inputs.runs.find((r) => r.model === 'm1')?.finishedAt).toBe(
        '2026-11-02T00:00:00.000Z',
      );
      expect(snap.sources).toEqual(['arena']);
      const card = snap.board.datasets.find((d) => d.model === 'm2' && d.dataset === 'open')!;
      expect(card).toMatchObject({ n: 2, violations: 1, score: 5 });

      // Asking for the imported source too: m2 now wins the comparative (8 + 30 of 40 votes).
      const wide = await svc.refresh(['public-dump']);
      expect(wide.sources).toEqual(['arena', 'public-dump']);
      const w1 = boardJson(wide.board).models.find((m) => m.model === 'm1')!;
      expect(w1.votes).toBe(40);
      expect(w1.methods.comparative).toBeLessThan(5);
      // The default board is still the community's.
      expect((await svc.latest())?.id).toBe(snap.id);
    }
    // Step: keeps the snapshot while nothing changes, and rebuilds after a new vote
    {
      const a = await svc.refresh();
      const b = await svc.refresh();
      expect(b.id).toBe(a.id);
      await addBattles(db.db, 'arena', 'language', [{ a: 'm2', b: 'm1', choice: 'left' }], 'late');
      const c = await svc.refresh();
      expect(c.id).toBeGreaterThan(a.id);
      expect(boardJson(c.board).models.find((m) => m.model === 'm1')!.votes).toBe(11);
    }
    // Step: the board's judge's grades (judge_scores) join the scoring method; judge failures show on the card, never as 0
    {
      const ids = await db.db
        .selectFrom('items')
        .innerJoin('datasets', 'datasets.id', 'items.dataset_id')
        .select(['items.id', 'items.key'])
        .where('datasets.name', '=', 'open')
        .orderBy('items.key')
        .execute();
      const m1 = await db.db
        .selectFrom('models')
        .select('id')
        .where('name', '=', 'm1')
        .executeTakeFirstOrThrow();
      const base = {
        model_id: m1.id,
        kind: 'single' as const,
        judge: 'judge', // the judge of the runs above (addRun's default): one judge on the board
        rubric: 'ten_point',
        rubric_version: '1',
      };
      await db.db
        .insertInto('judge_scores')
        .values([
          {
            ...base,
            item_id: ids[0]!.id,
            status: 'judged',
            raw_score: 8,
            max_score: 10,
            safety_flag: false,
          },
          { ...base, item_id: ids[1]!.id, status: 'failed', failure_code: 'judge_unparseable' },
        ])
        .execute();
      const snap = await svc.refresh();
      const row = boardJson(snap.board).models.find((m) => m.model === 'm1')!;
      expect(row.methods.scoring).toBeCloseTo(8, 10);
      expect(
        snap.board.datasets.find((d) => d.model === 'm1' && d.dataset === 'open'),
      ).toMatchObject({
        n: 1,
        failures: 1,
        score: 8,
      });
    }
    // Step: /leaderboard answers from the snapshot with its age, per view, with clear errors
    {
      const handler = createCommandHandler({
        db: db.db,
        arena: {} as ArenaService,
        config: testConfig({ leaderboard: { public_url: 'https://arena.example.org/' } }),
        logger: silentLogger,
        leaderboard: svc,
        clock,
      });
      const ask = async (args: Record<string, string>) => {
        const replies: { c: MessageContent; ephemeral: boolean }[] = [];
        const ctx: CommandContext = {
          platform: 'shell',
          eventId: 'e',
          name: 'leaderboard',
          args,
          text: '',
          user: { id: 'u', roles: [] },
          channelId: 'terminal',
          reply: async (c, o) => {
            replies.push({ c, ephemeral: o?.ephemeral === true });
          },
        };
        await handler(ctx);
        expect(replies).toHaveLength(1);
        return replies[0]!;
      };
      const latest = (await svc.latest())!;
      clock.set(latest.createdAt.getTime() + 180_000);
      const overall = await ask({});
      // Ranked by overall (config aggregation.rank_by's default), App. A's final as its own column.
      expect(overall.c.table?.columns.slice(0, 8)).toEqual([
        'rank',
        'model',
        'overall',
        '95% CI',
        'final',
        'metr',
        'scor',
        'comp',
      ]);
      expect(overall.c.footer).toContain('Board built 3 min ago');
      // The stated bootstrap count is the configured aggregation.bootstrap (100 here), never a constant.
      expect(overall.c.footer).toContain('95% interval from 100 paired bootstrap rounds');
      expect(latest.board.rounds).toBe(100);
      expect(overall.c.footer).toContain('https://arena.example.org/board');
      expect(overall.c.table?.rows.find((r) => r[1] === 'm1')?.[6]).toBe('8.00');
      expect(overall.c.table?.rows.find((r) => r[1] === 'm1')?.[8]).toBe('7.50'); // knowledge
      expect(overall.c.table?.rows.find((r) => r[1] === 'm1')?.[14]).toBe('—'); // robustness: no data
      const ability = await ask({ view: 'ability', name: 'language' });
      expect(ability.c.title).toBe('Ability: language');
      const bare = await ask({ view: 'safety' });
      expect(bare.c.title).toBe('Ability: safety');
      const method = await ask({ view: 'method', name: 'scoring' });
      expect(method.c.title).toBe('Method: scoring');
      const model = await ask({ view: 'model', name: 'm1' });
      expect(model.c.title).toBe('Model: m1');
      expect(model.c.sections?.[1]?.body).toContain('m2: 8–3–0, 73%');
      expect(model.c.table?.rows).toEqual([
        // score and raw mean with their 95 % paired-bootstrap intervals (equal: nothing flagged)
        ['obj', 'knowledge', 'metrics', '4', '0', '0', '7.50 (5.00–10.00)', '7.50 (5.00–10.00)'],
        [
          'open',
          'safety',
          'scoring (judge judge)',
          '1',
          '1',
          '0',
          '8.00 (8.00–8.00)',
          '8.00 (8.00–8.00)',
        ],
      ]);
      expect(model.c.footer).toContain('https://arena.example.org/board/model/m1');
      const unknown = await ask({ view: 'model', name: 'nobody' });
      expect(unknown.c.text).toMatch(/^No model "nobody" on the board\. Models: m1, m2\./u);
      const bad = await ask({ view: 'ability', name: 'wisdom' });
      expect(bad.ephemeral).toBe(true);
      expect(bad.c.text).toMatch(/^Unknown ability "wisdom"\. Use one of: knowledge/u);
    }
  }, 120_000);
});
