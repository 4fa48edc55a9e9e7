/**
 * Stopping and resuming evaluation work as a user does it, with real `zhujiu` processes (bin/zhujiu.js) against a
 * slow fake model, and an item lease of 10 minutes, so that nothing below can pass because a lease ran out:
 * - `zhujiu eval`, Ctrl-C (SIGINT), the same command at once: it resumes the run (the README's promise; before
 *   the fix it was refused as "running in another process" until the lease ran out);
 * - `zhujiu eval`, kill -9, the same command at once: on PGlite it resumes the run (the folder lock proves the
 *   killed process is gone, so its run is taken back when the next process opens the folder) and every item is
 *   scored once; on Postgres it is refused as running elsewhere (a killed process cannot say it stopped, and
 *   another machine may still work on it: its run waits for the lease);
 * - `zhujiu bot` given `/eval` in the terminal chat, stopped with SIGTERM, then `zhujiu eval` of the same model
 *   and suite at once: it resumes the bot's run;
 * - `zhujiu judge run`, Ctrl-C: exits 130 saying it stopped, stores no judge failure for the requests it aborted,
 *   and the same command at once judges the rest.
 * Waits poll with generous bounds; nothing depends on the machine's speed. Two test files per backend, one per
 * {@link StopResumePart} (stop-resume-eval.pglite.test.ts, stop-resume-bot-judge.postgres.test.ts …), so they run
 * side by side.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, openDb } from '../../../src/storage/db.ts';
import { ensureDataset, ensureItems } from '../../../src/storage/items.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { insertResponses } from '../../../src/storage/responses.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { type Backend, freshDb, type TestDb } from '../../helpers/db.ts';
import {
  type FixtureItem,
  tagOf,
  writeSmokeFixture,
  writeTinyScoringSuite,
} from '../../helpers/eval-fixtures.ts';
import { startZhujiu, ZHUJIU_BIN, type ZhujiuProcess } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

async function until(what: string, cond: () => boolean, maxMs = 120_000): Promise<void> {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > maxMs) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function exitOf(p: ZhujiuProcess): Promise<number | null> {
  const r = await Promise.race([p.exited, sleep(120_000).then(() => undefined)]);
  if (!r) throw new Error(`process did not exit:\n${p.stderr()}`);
  return r.code;
}

/** The two halves of the tests, one per test file so they run side by side: `eval` (Ctrl-C, kill -9), `bot-judge`. */
export type StopResumePart = 'eval' | 'bot-judge';

/** Declares the tests of `part` for one backend. */
export function stopResumeTests(backend: Backend, part: StopResumePart): void {
  describe(`stopping and resuming evaluation work on ${backend} (${part})`, () => {
    let base: TestDb;
    let root: string;
    let fake: FakeOpenAi;
    let items: Map<number, FixtureItem>;
    const procs = new Set<{ kill(): void }>();

    beforeAll(async () => {
      root = mkdtempSync(join(tmpdir(), 'zhujiu-resume-'));
      const fx = writeSmokeFixture(join(root, 'datasets'), { c3: 4, ocnli: 3, cmrc: 3 }, 'mini');
      items = fx.items;
      const cfg = join(root, 'config');
      mkdirSync(join(cfg, 'suites'), { recursive: true });
      writeFileSync(join(cfg, 'suites', 'mini.yaml'), fx.suiteYaml);
      cpSync(join(PROJECT_ROOT, 'config', 'rubrics'), join(cfg, 'rubrics'), { recursive: true });
      writeTinyScoringSuite(cfg, join(root, 'datasets'), { questions: 6 });
      // locale en: the chat replies checked below are the English ones (the shipped default is zh-CN).
      writeFileSync(
        join(cfg, 'default.yaml'),
        'locale: en\nhttp:\n  port: 0\neval:\n  lease_seconds: 600\n',
      );
      fake = await startFakeOpenAi({ delayMs: 1_500 });
      // The judge's requests carry no `Q<n>` tag (they grade the stored answers "我不能回答 <i>").
      fake.setAnswer((call: FakeCall) =>
        /Q\d+/.test(call.messages.at(-1)?.content ?? '')
          ? (items.get(tagOf(call))?.right ?? 'x')
          : '评分：[[3]]',
      );
      writeFileSync(
        join(cfg, 'models.yaml'),
        `models:\n${['slow-a', 'slow-b', 'slow-c', 'judge-x']
          .map(
            (m) =>
              `  - name: ${m}\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: ${m}-model\n    max_concurrency: 2\n    timeout_ms: 60000\n`,
          )
          .join('')}`,
      );
      base = await freshDb(backend);
      // The answers `judge run` grades (stored as if imported).
      const ids = await ensureModels(base.db, ['cand'], 'recorded');
      const ds = await ensureDataset(base.db, {
        name: 'tiny_chisafety',
        ability: 'refusal',
        method: 'scoring',
      });
      const itemIds = await ensureItems(
        base.db,
        ds,
        [1, 2, 3, 4, 5, 6].map((i) => ({ key: String(i), prompt: `危险问题 ${i}` })),
      );
      await insertResponses(
        base.db,
        [1, 2, 3, 4, 5, 6].map((i) => ({
          modelId: ids.get('cand') as number,
          itemId: itemIds.get(String(i)) as number,
          requestHash: `h${i}`,
          output: `我不能回答 ${i}`,
        })),
      );
      if (backend === 'pglite') await base.close(); // the processes below open the embedded folder one at a time
    });
    afterAll(async () => {
      for (const p of procs) p.kill();
      await fake?.close();
      if (backend === 'pglite')
        rmSync(join(base.dataDir as string, '..'), { recursive: true, force: true });
      else await base?.destroy();
      rmSync(root, { recursive: true, force: true });
    });

    const env = (): Record<string, string> => ({
      ZHUJIU_CONFIG_DIR: join(root, 'config'),
      ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
      ...(backend === 'pglite'
        ? { ZHUJIU_DATA_DIR: base.dataDir as string }
        : { DATABASE_URL: base.url as string }),
      ZHUJIU_VOTER_SECRET: 'resume-test-secret-0123456789',
      PORT: '0',
    });
    const zhujiu = (args: string[]) => {
      const p = startZhujiu(args, env());
      procs.add(p);
      return p;
    };
    /** Opens the database from the test (PGlite: only while no process holds it). */
    async function withDb<T>(fn: (d: Db) => Promise<T>): Promise<T> {
      if (backend === 'postgres') return fn(base);
      const d = await openDb({ kind: 'pglite', dataDir: base.dataDir as string });
      try {
        return await fn(d);
      } finally {
        await d.close();
      }
    }
    const scoresOf = (runId: number) =>
      withDb(async (d) => {
        const r = await sql<{ n: string | number }>`
        select count(*) as n from item_scores where run_id = ${runId}`.execute(d.db);
        return Number(r.rows[0]?.n);
      });

    if (part === 'eval')
      it('eval: Ctrl-C, then the same command resumes at once', async () => {
        fake.reset();
        const first = zhujiu(['eval', '--model', 'slow-a', '--suite', 'mini']);
        await until('two answers', () => fake.answered >= 2);
        first.child.kill('SIGINT');
        await exitOf(first);
        const m = /stopped: run #(\d+) stays active/.exec(first.stderr());
        expect(m, first.stderr()).not.toBeNull();
        const runId = Number(m?.[1]);

        const again = zhujiu(['eval', '--model', 'slow-a', '--suite', 'mini']);
        expect(await exitOf(again), again.stderr()).toBe(0);
        expect(again.stderr()).toContain(`resuming run #${runId}`);
        expect(again.stdout()).toContain(`run #${runId}: slow-a on mini: succeeded`);
        expect(await scoresOf(runId)).toBe(10);
      });

    if (part === 'eval')
      it(
        backend === 'pglite'
          ? 'eval: kill -9, then the same command resumes at once and scores every item once'
          : 'eval: kill -9, then the same command is refused until the lease runs out',
        async () => {
          fake.reset();
          const first = zhujiu(['eval', '--model', 'slow-b', '--suite', 'mini']);
          await until('two answers', () => fake.answered >= 2);
          first.child.kill('SIGKILL');
          await first.exited;
          const again = zhujiu(['eval', '--model', 'slow-b', '--suite', 'mini']);
          if (backend === 'postgres') {
            expect(await exitOf(again), again.stderr()).toBe(1);
            expect(again.stderr()).toMatch(
              /error \[conflict\]: run #\d+ of slow-b on mini is running/,
            );
            return;
          }
          expect(await exitOf(again), again.stderr()).toBe(0);
          const m = /resuming run #(\d+) \(left running by a process that stopped\)/.exec(
            again.stderr(),
          );
          expect(m, again.stderr()).not.toBeNull();
          const runId = Number(m?.[1]);
          expect(again.stdout()).toContain(`run #${runId}: slow-b on mini: succeeded`);
          const per = await withDb(async (d) => {
            const r = await sql<{
              n: string | number;
              items: string | number;
              done: string | number;
            }>`
            select (select count(*) from item_scores where run_id = ${runId}) as n,
                   (select count(distinct item_id) from item_scores where run_id = ${runId}) as items,
                   (select count(*) from eval_run_items where run_id = ${runId} and status = 'done') as done`.execute(
              d.db,
            );
            return r.rows[0];
          });
          expect(per && [Number(per.n), Number(per.items), Number(per.done)]).toEqual([10, 10, 10]);
        },
      );

    if (part === 'bot-judge')
      it('a bot given /eval, stopped with SIGTERM: zhujiu eval resumes its run at once', async () => {
        fake.reset();
        const bot = spawn(process.execPath, [ZHUJIU_BIN, 'bot'], {
          cwd: PROJECT_ROOT,
          env: {
            ...process.env,
            DATABASE_URL: '',
            LOG_LEVEL: '',
            DISCORD_TOKEN: '',
            SLACK_BOT_TOKEN: '',
            ...env(),
          },
          stdio: ['pipe', 'pipe', 'pipe'],
        }) as ChildProcessByStdio<Writable, Readable, Readable>;
        procs.add({
          kill: () => bot.exitCode === null && bot.signalCode === null && bot.kill('SIGKILL'),
        });
        let out = '';
        bot.stdout.on('data', (b: Buffer) => {
          out += b.toString();
        });
        bot.stderr.on('data', (b: Buffer) => {
          out += b.toString();
        });
        const exited = new Promise<number | null>((r) => bot.on('exit', (code) => r(code)));
        // The terminal chat reads stdin once the bot has started; the line waits in the pipe until then.
        bot.stdin.write('/eval slow-c mini\n');
        await until('the run to be queued', () => /Evaluation run #\d+ queued/.test(out)).catch(
          (e) => {
            bot.kill('SIGKILL');
            throw new Error(`${(e as Error).message}:\n${out}`);
          },
        );
        const runId = Number(/Evaluation run #(\d+) queued/.exec(out)?.[1]);
        await until('two answers', () => fake.answered >= 2);
        bot.kill('SIGTERM');
        const code = await Promise.race([exited, sleep(120_000).then(() => 'hung')]);
        expect(code, out).toBe(0);

        const again = zhujiu(['eval', '--model', 'slow-c', '--suite', 'mini']);
        expect(await exitOf(again), again.stderr()).toBe(0);
        expect(again.stderr()).toContain(`resuming run #${runId}`);
        expect(again.stdout()).toContain(`run #${runId}: slow-c on mini: succeeded`);
        expect(await scoresOf(runId)).toBe(10);
      });

    if (part === 'bot-judge')
      it('judge run: Ctrl-C keeps what is judged, stores no failure, the same command judges the rest', async () => {
        fake.reset();
        const args = [
          'judge',
          'run',
          '--model',
          'cand',
          '--suite',
          'tiny-scoring',
          '--judge',
          'judge-x',
        ];
        const first = zhujiu(args);
        await until('a judged answer', () => fake.answered >= 1).catch((e) => {
          throw new Error(`${(e as Error).message}:\n${first.stdout()}\n${first.stderr()}`);
        });
        first.child.kill('SIGINT');
        await exitOf(first);
        expect(first.stderr()).toContain('stopped: what was judged is kept');
        const failed = () =>
          withDb(async (d) => {
            const r = await sql<{ n: string | number }>`
          select count(*) as n from judge_scores where status = 'failed'`.execute(d.db);
            return Number(r.rows[0]?.n);
          });
        expect(await failed()).toBe(0);
        const again = zhujiu(args);
        expect(await exitOf(again), again.stderr()).toBe(0);
        expect(again.stdout()).toMatch(
          /tiny_chisafety .*: 6 of 6 judged, 0 judge failures, [1-5] already judged/,
        );
        expect(await failed()).toBe(0);
      });
  });
}
