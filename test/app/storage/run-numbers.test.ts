/**
 * Run numbers (`eval_runs.id`) and submission numbers (`submissions.id`) are what users type (`zhujiu results
 * --run N`, `zhujiu eval --cancel N`, `zhujiu submissions approve N`), so they go 1, 2, 3, … (migration 0019):
 * asking again for a model's active run of a suite (a resume) uses no number, nor does a crash (a sequence logs
 * its values 32 ahead, so a process killed with `kill -9` went from run 1 to run 33), a failed or rolled-back
 * insert, or several processes creating runs at once on one server.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUN_NUMBER_LOCK, SUBMISSION_NUMBER_LOCK } from '../../../src/core/advisory-locks.ts';
import { type Db, migrateToLatest, openDb } from '../../../src/storage/db.ts';
import { cancelRun, createRun } from '../../../src/storage/eval-runs.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertSubmission } from '../../../src/storage/submissions.ts';
import { backends, freshDb, type TestDb, useCleanRows } from '../../helpers/db.ts';

const sub = (name: string) => ({
  name,
  baseUrl: 'https://api.example/v1',
  model: 'm',
  description: '',
  organisation: '',
  licence: '',
  submitter: { platform: 'slack' as const, userId: 'U1', channelId: 'C1' },
});

async function newRun(db: Db['db'], modelId: number, suite = 'basic'): Promise<number> {
  const r = await createRun(db, { modelId, suite });
  if (!r.created) throw new Error('expected a new run');
  return r.run.id;
}

async function newSubmission(db: Db['db'], name: string): Promise<number> {
  const r = await insertSubmission(db, sub(name));
  if (!r.ok) throw new Error('expected a new submission');
  return r.row.id;
}

describe.each(backends())('eval run numbers on %s', (backend) => {
  let d: TestDb;
  beforeAll(async () => {
    d = await freshDb(backend);
  });
  afterAll(async () => d?.destroy());
  useCleanRows(() => d);

  it('stay consecutive when active runs are asked for again (resumed)', async () => {
    const ids = await ensureModels(d.db, ['m-a', 'm-b'], 'openai');
    const spec = (m: string) => ({ modelId: ids.get(m)!, suite: 'basic' });
    const numbers: number[] = [];
    for (const m of ['m-a', 'm-b', 'm-a']) {
      const first = await createRun(d.db, spec(m));
      if (!first.created) throw new Error('expected a new run');
      numbers.push(first.run.id);
      // Three resumes of the active run: the same run back, no number taken.
      for (let k = 0; k < 3; k++) {
        const again = await createRun(d.db, spec(m));
        expect(again).toMatchObject({ created: false, active: { id: first.run.id } });
      }
      await cancelRun(d.db, first.run.id);
    }
    expect(numbers).toEqual([1, 2, 3]);
  });

  it('take no number for a failed or rolled-back insert', async () => {
    const ids = await ensureModels(d.db, ['m-a', 'm-b'], 'openai');
    expect(await newRun(d.db, ids.get('m-a')!)).toBe(1);
    expect(await newSubmission(d.db, 'sub-a')).toBe(1);
    // A run of a model that does not exist fails on its foreign key; a run and a submission rolled back.
    await expect(createRun(d.db, { modelId: 999_999, suite: 'basic' })).rejects.toThrow();
    await expect(
      d.db.transaction().execute(async (tx) => {
        await tx
          .insertInto('eval_runs')
          .values({ model_id: ids.get('m-b')!, suite: 'x' })
          .execute();
        await tx
          .insertInto('submissions')
          .values({ name: 'gone', base_url: 'https://a.example', model: 'm', submitter_id: 'U1' })
          .execute();
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A submission whose name is held by one stored at the same moment (its insert does nothing).
    await sql`INSERT INTO submissions (name, base_url, model, submitter_id)
              VALUES ('sub-a', 'https://a.example', 'm', 'U1')
              ON CONFLICT (name) WHERE status <> 'rejected' DO NOTHING`.execute(d.db);
    expect(await newRun(d.db, ids.get('m-b')!)).toBe(2);
    expect(await newSubmission(d.db, 'sub-b')).toBe(2);
  });

  it('keep a number given explicitly, and go on after the largest', async () => {
    const ids = await ensureModels(d.db, ['m-a', 'm-b'], 'openai');
    await d.db
      .insertInto('eval_runs')
      .values({ id: 7, model_id: ids.get('m-a')!, suite: 'x' })
      .execute();
    expect(await newRun(d.db, ids.get('m-b')!)).toBe(8);
  });

  it('name the advisory locks that src/core/advisory-locks.ts declares', async () => {
    const r = await sql<{ table: string; args: string }>`
      SELECT c.relname AS table, encode(t.tgargs, 'escape') AS args
        FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
       WHERE t.tgname LIKE 'zj_%_number' AND c.relname IN ('eval_runs', 'submissions')
       ORDER BY c.relname`.execute(d.db);
    expect(r.rows).toEqual([
      { table: 'eval_runs', args: `${RUN_NUMBER_LOCK}\\000` },
      { table: 'submissions', args: `${SUBMISSION_NUMBER_LOCK}\\000` },
    ]);
  });
});

describe('eval run numbers after a crash (PGlite)', () => {
  it('go on from the last stored run, not from where the sequence log was ahead', async () => {
    const d = await freshDb('pglite');
    const copyDir = mkdtempSync(join(tmpdir(), 'zhujiu-crash-'));
    try {
      const ids = await ensureModels(d.db, ['m-a', 'm-b'], 'openai');
      expect(await newRun(d.db, ids.get('m-a')!)).toBe(1);
      expect(await newSubmission(d.db, 'sub-a')).toBe(1);
      // The data folder copied while the database is open is what a `kill -9` leaves: it is recovered from
      // the WAL when opened, with each sequence where its last WAL record put it.
      const crashed = join(copyDir, 'pg');
      cpSync(d.dataDir!, crashed, { recursive: true });
      const e = await openDb({ kind: 'pglite', dataDir: crashed });
      try {
        await migrateToLatest(e.db);
        expect(await newRun(e.db, ids.get('m-b')!)).toBe(2);
        expect(await newSubmission(e.db, 'sub-b')).toBe(2);
      } finally {
        await e.close();
      }
    } finally {
      await d.destroy();
      rmSync(copyDir, { recursive: true, force: true });
    }
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'eval run numbers on one PostgreSQL shared by processes',
  () => {
    let d: TestDb;
    beforeAll(async () => {
      d = await freshDb('postgres');
    });
    afterAll(async () => d?.destroy());

    it('are consecutive and distinct when four processes create runs and submissions at once', async () => {
      const names = Array.from({ length: 24 }, (_, i) => `m-${i}`);
      const ids = await ensureModels(d.db, names, 'openai');
      // One pool per process, as several workers on one server have.
      const pools = await Promise.all(
        [0, 1, 2, 3].map(() => openDb({ kind: 'postgres', url: d.url!, poolSize: 4 })),
      );
      try {
        const work = names.flatMap((name, i) => {
          const db = pools[i % pools.length]!.db;
          return [
            newRun(db, ids.get(name)!),
            newSubmission(db, `sub-${name}`),
            // A failing creator between them: a run of a model that does not exist.
            createRun(db, { modelId: 999_999 + i, suite: 'basic' }).then(
              () => 'created',
              () => 'failed',
            ),
          ];
        });
        const results = await Promise.all(work);
        const runs = results.filter((_, k) => k % 3 === 0) as number[];
        const subs = results.filter((_, k) => k % 3 === 1) as number[];
        const consecutive = names.map((_, i) => i + 1);
        expect([...runs].sort((a, b) => a - b)).toEqual(consecutive);
        expect([...subs].sort((a, b) => a - b)).toEqual(consecutive);
        expect(results.filter((r) => r === 'failed')).toHaveLength(names.length);
      } finally {
        await Promise.all(pools.map((p) => p.close()));
      }
    });
  },
);
