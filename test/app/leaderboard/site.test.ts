/**
 * The results site on stored data: each stored board adds the day's standings to `board_history` and prunes the
 * older snapshots by `leaderboard.keep`, while the history outlives them; the HTTP handlers of the method pages,
 * the model card (details from config/models.yaml, history), the open-weights filter, `/board.json`'s provenance,
 * and the first board served at once from stored scores.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { createHttpApp } from '../../../src/http/server.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { pruneSnapshots } from '../../../src/storage/leaderboard.ts';
import { addBattles, addRun } from '../../helpers/board-data.ts';
import { flowBackends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';

function scores(right: number, n = 10) {
  return Array.from({ length: n }, (_, i) => ({ key: `q${i}`, raw: i < right ? 1 : 0, max: 1 }));
}

describe.each(flowBackends())('results site (%s)', (backend) => {
  let db: TestDb;
  const clock = new ManualClock(new Date('2026-11-01T08:00:00Z'));
  const service = (keep?: { last: number; days: number }) =>
    new LeaderboardService({
      db: db.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 50, seed: 7 },
      compute: 'inline',
      inlineChart: false,
      ...(keep ? { keep } : {}),
    });
  beforeAll(async () => {
    db = await freshDb(backend);
  });
  afterAll(async () => {
    await db.destroy();
  });
  useCleanRows(() => db);

  async function day(n: number, hour: number, right: Record<string, number>) {
    clock.set(new Date(Date.UTC(2026, 10, 1 + n, hour)));
    for (const [model, r] of Object.entries(right))
      await addRun(db.db, {
        model,
        suite: 'demo',
        dataset: 'obj',
        ability: 'knowledge',
        method: 'metrics',
        scores: scores(r),
        finishedAt: clock.now(),
      });
  }

  const snapshots = async () =>
    (
      await sql<{
        id: string;
        at: Date;
      }>`SELECT id::text, created_at AS at FROM leaderboard_snapshots ORDER BY id`.execute(db.db)
    ).rows.map((r) => ({ id: Number(r.id), day: new Date(r.at).toISOString().slice(0, 10) }));

  it('keeps the last N and the newest of each day in the window, and the history of every day survives', async () => {
    const svc = service({ last: 2, days: 5 });
    try {
      // Eight days, two boards a day; m1 improves every other day, m2 falls behind on day 5.
      for (let d = 0; d < 8; d++)
        for (const h of [8, 16]) {
          await day(d, h, {
            m1: Math.min(10, 3 + Math.floor(d / 2)),
            m2: d >= 5 ? 2 : 9 - (h % 5),
          });
          await svc.refresh();
        }
      const kept = await snapshots();
      // The newest two (2026-11-08 08:00 and 16:00), plus the newest of each day since five days before now
      // (2026-11-08T16:00Z − 5 days = 2026-11-03T16:00Z: days 03 (its 16:00 board), 04, 05, 06, 07, 08).
      const days = kept.map((k) => k.day);
      expect(new Set(days)).toEqual(
        new Set([
          '2026-11-03',
          '2026-11-04',
          '2026-11-05',
          '2026-11-06',
          '2026-11-07',
          '2026-11-08',
        ]),
      );
      expect(kept.length).toBe(7); // one per day, and the last day also keeps its two newest
      const h1 = await svc.history('m1');
      expect(h1.map((p) => p.day)).toEqual(
        Array.from({ length: 8 }, (_, i) => `2026-11-0${i + 1}`),
      );
      // Each day's point is that day's newest board (16:00), whose snapshot may be gone.
      expect(h1.every((p) => p.builtAt.getUTCHours() === 16)).toBe(true);
      expect(h1[0]!.score).not.toBeNull();
      expect(h1.at(-1)!.score!).toBeGreaterThan(h1[0]!.score!);
      const h2 = await svc.history('m2');
      expect(h2.at(-1)!.rank).toBe(2);
      expect(h1.at(-1)!.rank).toBe(1);
      // Pruning again changes nothing.
      expect(await pruneSnapshots(db.db, 'arena', { last: 2, days: 5 }, clock.now())).toBe(0);
      await expect(
        pruneSnapshots(db.db, 'arena', { last: 0, days: 5 }, clock.now()),
      ).rejects.toThrow(/leaderboard\.keep\.last/);
    } finally {
      await svc.close();
    }
    // Sixteen boards: the timeout only guards against a hang.
  }, 300_000);

  it('keeps the board a later daily post compares with, however old', async () => {
    const svc = service({ last: 1, days: 1 });
    try {
      await day(0, 8, { m1: 5, m2: 4 });
      const first = await svc.refresh();
      await db.db
        .insertInto('posts')
        .values({
          kind: 'daily',
          platform: 'shell',
          channel_id: 'c',
          message_id: 'm',
          posted_at: clock.now(),
          snapshot: '{}',
          idempotency_key: '2026-11-01',
          snapshot_id: first.id,
          status: 'posted',
        })
        .execute();
      for (const d of [3, 5, 7]) {
        await day(d, 8, { m1: 5 + d, m2: 4 });
        await svc.refresh();
      }
      const ids = (await snapshots()).map((k) => k.id);
      expect(ids).toContain(first.id);
      expect(ids.length).toBe(2);
    } finally {
      await svc.close();
    }
  });

  it('serves the method pages, the model card with details and history, the filter and /board.json provenance', async () => {
    const svc = service();
    try {
      await day(0, 8, { m1: 8, 'OpenHermes-2.5-Mistral-7B': 6 });
      await svc.refresh();
      await day(1, 8, { m1: 9 });
      await svc.refresh();
      await addBattles(
        db.db,
        'arena',
        'language',
        Array.from({ length: 12 }, (_, i) => ({
          a: 'm1',
          b: 'OpenHermes-2.5-Mistral-7B',
          choice: i % 3 === 0 ? ('right' as const) : ('left' as const),
        })),
      );
      await svc.refresh();
      const models = new Map([
        [
          'OpenHermes-2.5-Mistral-7B',
          {
            organisation: 'Teknium',
            licence: 'Apache-2.0',
            parameters: '7B',
            open_weights: true,
            link: 'https://huggingface.co/teknium/OpenHermes-2.5-Mistral-7B',
          },
        ],
        ['m1', { organisation: 'Closed Co', open_weights: false }],
      ]);
      const app = createHttpApp({
        checkDb: async () => {},
        registry: { contentType: 'text/plain', metrics: async () => '' } as never,
        board: {
          latest: () => svc.latest(),
          now: () => clock.now(),
          models,
          history: (m) => svc.history(m),
        },
      });
      const get = async (path: string) => {
        const r = await app.request(path);
        return { status: r.status, text: await r.text() };
      };
      for (const m of ['metrics', 'scoring', 'comparative']) {
        const r = await get(`/board/method/${m}`);
        expect(r.status, m).toBe(200);
        expect(r.text).toContain('id="method"');
        expect(r.text).toContain('id="provenance"');
      }
      expect((await get('/board/method/vibes')).status).toBe(404);
      const comp = await get('/board/method/comparative');
      expect(comp.text).toContain('id="heatmap"');
      // m1 won 8 of 12 against OpenHermes: 67 in m1's row, 33 in the other's.
      expect(comp.text).toMatch(/data-a="m1" data-b="OpenHermes-2.5-Mistral-7B"[^>]*>67</);
      expect(comp.text).toMatch(/data-a="OpenHermes-2.5-Mistral-7B" data-b="m1"[^>]*>33</);

      const card = await get(`/board/model/${encodeURIComponent('OpenHermes-2.5-Mistral-7B')}`);
      expect(card.status).toBe(200);
      expect(card.text).toContain('Teknium');
      expect(card.text).toContain('Apache-2.0');
      expect(card.text).toContain('id="history-chart"');
      expect(card.text).toContain('<td>2026-11-01</td>');
      expect(card.text).toContain('<td>2026-11-02</td>');
      expect(card.text).toContain('class="scroll"');

      const all = await get('/board');
      expect(all.text).toContain('data-model="m1"');
      expect(all.text).toContain('href="/board?open=1"');
      const open = await get('/board?open=1');
      expect(open.text).not.toContain('data-model="m1"');
      expect(open.text).toContain('data-model="OpenHermes-2.5-Mistral-7B"');

      const json = JSON.parse((await get('/board.json')).text) as {
        models: { model: string; info: Record<string, unknown> }[];
        provenance: {
          built_at: string;
          sources: string[];
          seed: number;
          bootstrap_rounds: number;
          runs: number;
          suites: { suite: string; runs: { run_id: number; seed: number | null }[] }[];
        };
      };
      expect(json.models.find((m) => m.model === 'OpenHermes-2.5-Mistral-7B')!.info).toMatchObject({
        open_weights: true,
        parameters: '7B',
      });
      expect(json.models.find((m) => m.model === 'm1')!.info).toEqual({
        organisation: 'Closed Co',
        open_weights: false,
      });
      expect(json.provenance).toMatchObject({
        built_at: clock.now().toISOString(),
        sources: ['arena'],
        seed: 7,
        bootstrap_rounds: 50,
        runs: 2,
      });
      expect(json.provenance.suites.map((s) => s.suite)).toEqual(['demo']);
      expect(json.provenance.suites[0]!.runs.every((r) => typeof r.seed === 'number')).toBe(true);
    } finally {
      await svc.close();
    }
  });

  it('serves the first board at once when scores exist but no snapshot yet', async () => {
    const svc = service();
    try {
      await day(0, 8, { m1: 8, m2: 3 });
      expect(await svc.latest()).toBeUndefined();
      const app = createHttpApp({
        checkDb: async () => {},
        registry: { contentType: 'text/plain', metrics: async () => '' } as never,
        board: {
          latest: () => svc.latest(),
          now: () => clock.now(),
          startFirstBuild: () => svc.startFirstBuild(),
          firstBuild: async () =>
            (await svc.startFirstBuild()) ? svc.refreshIfChanged() : undefined,
          // Generous: the wait only bounds a hang, the build is what answers.
          firstBuildWaitMs: 600_000,
        },
      });
      const html = await (await app.request('/board')).text();
      expect(html).not.toContain('id="empty"');
      expect(html).toContain('data-model="m1"');
      expect(html).toContain('id="provenance"');
    } finally {
      await svc.close();
    }
  });

  it('fills the history from snapshots stored before the table existed (migration 0015 backfill)', async () => {
    const svc = service();
    try {
      await day(0, 8, { m1: 8, m2: 3 });
      await svc.refresh();
      await day(0, 9, { m1: 7 });
      await svc.refresh();
      await sql`DELETE FROM board_history`.execute(db.db);
      const { up } = await import('../../../migrations/0015_board_history.ts');
      await sql`DROP TABLE board_history`.execute(db.db);
      await up(db.db as never);
      const h = await svc.history('m1');
      expect(h.length).toBe(1);
      expect(h[0]!.builtAt.toISOString()).toBe('2026-11-01T09:00:00.000Z');
      expect(h[0]!.rank).toBe(1);
    } finally {
      await svc.close();
    }
  });
});
