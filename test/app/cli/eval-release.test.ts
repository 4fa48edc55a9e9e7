/**
 * An unexpected error in the middle of `zhujiu eval` (here a real one: the database refuses the results, because
 * the table they go to has been renamed under it) leaves the run as Ctrl-C does: nobody's at once, so the same
 * command resumes it instead of refusing it as "running in another process" until the lease (10 minutes here)
 * runs out. In-process, on each backend of the run (test/helpers/db.ts `backends()`).
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEval } from '../../../src/cli/eval.ts';
import { takeRequestedExit } from '../../../src/cli/io.ts';
import { createLogger } from '../../../src/core/logger.ts';
import { openRuntime, type Runtime } from '../../../src/main.ts';
import { isRunUnattended } from '../../../src/storage/eval-runs.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { flowBackends, freshDb, pgliteDataDir } from '../../helpers/db.ts';
import { type FixtureItem, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

describe.each(flowBackends())('an unexpected error during zhujiu eval (%s)', (backend) => {
  let root: string;
  let fake: FakeOpenAi;
  let items: Map<number, FixtureItem>;
  let rt: Runtime;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'zhujiu-eval-release-'));
    const fx = writeSmokeFixture(join(root, 'datasets'), { c3: 4, ocnli: 3, cmrc: 3 }, 'mini');
    items = fx.items;
    const cfg = join(root, 'config');
    mkdirSync(join(cfg, 'suites'), { recursive: true });
    writeFileSync(join(cfg, 'suites', 'mini.yaml'), fx.suiteYaml);
    writeFileSync(
      join(cfg, 'suites', 'crash.yaml'),
      fx.suiteYaml.replace('name: mini', 'name: crash'),
    );
    cpSync(join(PROJECT_ROOT, 'config', 'rubrics'), join(cfg, 'rubrics'), { recursive: true });
    writeFileSync(join(cfg, 'default.yaml'), 'http:\n  port: 0\neval:\n  lease_seconds: 600\n');
    fake = await startFakeOpenAi();
    writeFileSync(
      join(cfg, 'models.yaml'),
      `models:\n${['m', 'n']
        .map(
          (m) =>
            `  - name: ${m}\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: ${m}-model\n    max_concurrency: 1\n    timeout_ms: 60000\n`,
        )
        .join('')}`,
    );
    let env: Record<string, string>;
    if (backend === 'postgres') {
      const d = await freshDb('postgres');
      await d.close();
      env = { DATABASE_URL: d.url as string };
      cleanup = () => d.destroy();
    } else {
      const d = pgliteDataDir();
      env = { DATABASE_URL: '', ZHUJIU_DATA_DIR: d.dataDir };
      cleanup = async () => d.remove();
    }
    rt = await openRuntime({
      configDir: cfg,
      datasetsDir: join(root, 'datasets'),
      env: { ...env, ZHUJIU_VOTER_SECRET: 'eval-release-test-secret-0123456789' },
      logger: createLogger('silent'),
    });
  });
  afterAll(async () => {
    await rt?.close();
    await cleanup?.();
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('an exception nothing caught (from a timer) stops the run, releases it, and is raised', async () => {
    const { db } = rt.db;
    // The event is emitted to the command's listener alone: the test runner's own listeners would count it as
    // an error of the test file.
    const others = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    const boom = new Error('thrown from a timer');
    try {
      fake.setAnswer((call: FakeCall) => {
        if (call.n === 2) process.emit('uncaughtException', boom);
        return items.get(tagOf(call))?.right ?? 'x';
      });
      fake.reset();
      const io = { out: () => {}, err: () => {} };
      await expect(runEval(io, { model: 'n', suite: 'crash' }, { rt, tty: false })).rejects.toBe(
        boom,
      );
    } finally {
      for (const l of others) process.on('uncaughtException', l);
    }
    takeRequestedExit();
    const run = await sql<{ id: number }>`SELECT id FROM eval_runs WHERE suite = 'crash'`.execute(
      db,
    );
    const id = Number(run.rows[0]?.id);
    expect(await isRunUnattended(db, id, 600_000)).toBe(true);
    const out: string[] = [];
    const err: string[] = [];
    fake.setAnswer((call: FakeCall) => items.get(tagOf(call))?.right ?? 'x');
    await runEval(
      { out: (s) => out.push(s), err: (s) => err.push(s) },
      { model: 'n', suite: 'crash' },
      { rt, tty: false },
    );
    expect(err).toContain(`resuming run #${id} (left running by a process that stopped)`);
    expect(out[0]).toBe(`run #${id}: n on crash: succeeded`);
  });

  it('the run is released, and the same command resumes it at once', async () => {
    const { db } = rt.db;
    fake.reset();
    fake.setAnswer(async (call: FakeCall) => {
      // After three answers the results table goes away: the next batch of results cannot be written.
      if (call.n === 3) await sql`ALTER TABLE item_scores RENAME TO item_scores_away`.execute(db);
      return items.get(tagOf(call))?.right ?? 'x';
    });
    const err: string[] = [];
    const io = { out: () => {}, err: (s: string) => err.push(s) };
    await expect(runEval(io, { model: 'm', suite: 'mini' }, { rt, tty: false })).rejects.toThrow(
      /item_scores/,
    );
    takeRequestedExit();
    const run = await sql<{ id: number }>`SELECT id FROM eval_runs WHERE suite = 'mini'`.execute(
      db,
    );
    const id = Number(run.rows[0]?.id);
    expect(await isRunUnattended(db, id, 600_000)).toBe(true);

    await sql`ALTER TABLE item_scores_away RENAME TO item_scores`.execute(db);
    fake.setAnswer((call: FakeCall) => items.get(tagOf(call))?.right ?? 'x');
    const out: string[] = [];
    err.length = 0;
    // Asked again with a --limit: the run keeps its own (none), and says so.
    await runEval(
      { out: (s) => out.push(s), err: (s) => err.push(s) },
      { model: 'm', suite: 'mini', limit: 2 },
      { rt, tty: false },
    );
    expect(takeRequestedExit()).toBeUndefined();
    expect(err).toContain(`resuming run #${id} (left running by a process that stopped)`);
    expect(err).toContain(
      `note: run #${id} keeps its own limit (none), not --limit 2; to run with that limit instead, cancel it first (zhujiu eval --cancel ${id})`,
    );
    expect(out[0]).toBe(`run #${id}: m on mini: succeeded`);
  });
});
