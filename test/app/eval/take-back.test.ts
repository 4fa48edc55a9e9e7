/**
 * On the embedded database (one process holds its folder: storage/data-dir-lock.ts), a run a killed process left
 * active, with its item claims, is taken back when the next process opens the folder (main.ts `openRuntime`): the
 * claims go back to pending and the run reads as nobody's at once, though its heartbeat and leases (10 minutes
 * here) are fresh. Runs this process then starts are its own: a second service in the same process does not
 * take them. On a shared Postgres nothing is taken back (another machine may work on the run).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/core/logger.ts';
import { openRuntime } from '../../../src/main.ts';
import { openDb } from '../../../src/storage/db.ts';
import {
  claimRunItems,
  createRun,
  isRunUnattended,
  planRunItems,
  startRun,
} from '../../../src/storage/eval-runs.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import type { Database } from '../../../src/storage/schema.ts';
import { backends, freshDb, pgliteDataDir } from '../../helpers/db.ts';

const LEASE_MS = 600_000;

/** Leaves, as a killed `zhujiu eval` does, a started run of `suite` with 2 of its 3 items claimed. */
async function leaveClaimedRun(db: import('kysely').Kysely<Database>, suite: string) {
  const ids = await ensureModels(db, ['m'], 'openai');
  const created = await createRun(db, { modelId: ids.get('m') as number, suite });
  if (!created.created) throw new Error('run not created');
  const runId = created.run.id;
  await startRun(db, runId, { suite });
  const ds = await ensureDataset(db, {
    name: `d-${suite}`,
    ability: 'language',
    method: 'metrics',
  });
  const items = await ensureItems(
    db,
    ds,
    ['1', '2', '3'].map((key) => ({ key, prompt: `问题 ${key}` })),
  );
  await planRunItems(
    db,
    runId,
    [...items.values()].map((itemId, seq) => ({ itemId, dataset: `d-${suite}`, seq })),
  );
  expect(await claimRunItems(db, runId, 'killed-owner', 2, LEASE_MS)).toHaveLength(2);
  return runId;
}

async function claimsOf(db: import('kysely').Kysely<Database>, runId: number) {
  const r = await sql<{ n: string | number }>`
    SELECT count(*) AS n FROM eval_run_items WHERE run_id = ${runId} AND status = 'claimed'`.execute(
    db,
  );
  return Number(r.rows[0]?.n);
}

describe.each(backends())('runs left by a killed process (%s)', (backend) => {
  let root: string;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let runId: number;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'zhujiu-take-back-'));
    mkdirSync(join(root, 'config'), { recursive: true });
    writeFileSync(join(root, 'config', 'default.yaml'), 'http:\n  port: 0\n');
    writeFileSync(join(root, 'config', 'models.yaml'), 'models: []\n');
    if (backend === 'postgres') {
      const d = await freshDb('postgres');
      runId = await leaveClaimedRun(d.db, 'left');
      await d.close();
      env = { DATABASE_URL: d.url as string, ZHUJIU_VOTER_SECRET: 'take-back-secret-0123456789' };
      cleanup = () => d.destroy();
    } else {
      const dir = pgliteDataDir();
      const d = await openDb({ kind: 'pglite', dataDir: dir.dataDir });
      runId = await leaveClaimedRun(d.db, 'left');
      await d.close();
      env = { DATABASE_URL: '', ZHUJIU_DATA_DIR: dir.dataDir };
      cleanup = async () => dir.remove();
    }
  });
  afterAll(async () => {
    await cleanup?.();
    rmSync(root, { recursive: true, force: true });
  });

  it(
    backend === 'pglite'
      ? 'the next process to open the folder takes the run and its claims back at once, and only those'
      : 'a shared Postgres keeps the run and its claims until the lease runs out',
    async () => {
      const open = () =>
        openRuntime({ configDir: join(root, 'config'), env, logger: createLogger('silent') });
      const rt = await open();
      try {
        const { db } = rt.db;
        if (backend === 'postgres') {
          expect(await claimsOf(db, runId)).toBe(2);
          expect(await isRunUnattended(db, runId, LEASE_MS)).toBe(false);
          return;
        }
        expect(await claimsOf(db, runId)).toBe(0);
        expect(await isRunUnattended(db, runId, LEASE_MS)).toBe(true);
        // A run this process starts after opening the folder is its own: nothing else in it takes it back.
        const mine = await leaveClaimedRun(db, 'mine');
        const { createEvalRuntime } = await import('../../../src/main.ts');
        const evr = await createEvalRuntime(rt, { queue: true, worker: true });
        await evr.stop();
        expect(await claimsOf(db, mine)).toBe(2);
        expect(await isRunUnattended(db, mine, LEASE_MS)).toBe(false);
      } finally {
        await rt.close();
      }
    },
  );
});
