/**
 * `zhujiu config check` runs exactly the validation `bot` / `worker` run at start (one code
 * path: config/loader.ts + config/start-checks.ts), plus a database connection check that `--no-connect` skips.
 * Each case below is refused by `config check` and by the start of the bot with the same message. (A model whose
 * `api_key_env` is unset is not refused but disabled: test/app/cli/disabled-model.test.ts.) A database migrated by
 * a newer version is refused by both. And the start of `worker` on a PostgreSQL server that is not up yet tries
 * again until it is (`database.start_retry_seconds`).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../../../src/cli/serve.ts';
import { openDb } from '../../../src/storage/db.ts';
import { startFakeOpenAi } from '../../fakes/openai.ts';
import { freshDb, pgliteDataDir } from '../../helpers/db.ts';
import { inProcess } from '../../helpers/run-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-cc-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** The environment of the last {@link setup}: `check` runs with it. */
let current: Record<string, string> = {};
/** A config folder with these files, and the environment for it. */
function setup(files: Record<string, string>, env: Record<string, string> = {}) {
  const dir = join(root, `c${++n}`);
  mkdirSync(dir);
  for (const [f, body] of Object.entries(files)) writeFileSync(join(dir, f), body);
  current = {
    ZHUJIU_CONFIG_DIR: dir,
    ZHUJIU_DATA_DIR: join(dir, 'data', 'pg'),
    LOG_LEVEL: 'silent',
    ...env,
  };
  return { dir, env: current };
}

/** `zhujiu config check FLAGS…` in-process, with the environment of the last {@link setup}. */
const check = (...flags: string[]) => inProcess(['config', 'check', ...flags], { env: current });

/** What starting the bot with this environment says (it must refuse before opening anything). */
async function start(env: Record<string, string>): Promise<string> {
  const e = await startService('bot', { worker: false, env, httpPort: 0 }).then(
    async (s) => {
      await s.stop();
      return new Error('started');
    },
    (x: unknown) => x as Error,
  );
  return e.message;
}

describe('config check = the start-up validation', () => {
  const cases: [string, Record<string, string>, Record<string, string>, RegExp][] = [
    [
      'a Slack bot token without an app token (Socket Mode)',
      {},
      { SLACK_BOT_TOKEN: 'xoxb-test' },
      /\(defaults\) platforms\.slack\.mode: Socket Mode \(the default\) needs SLACK_APP_TOKEN/,
    ],
    [
      'a Slack bot token in HTTP mode without a signing secret',
      { 'default.yaml': 'platforms:\n  slack:\n    mode: http\n' },
      { SLACK_BOT_TOKEN: 'xoxb-test' },
      /default\.yaml:3:11 platforms\.slack\.mode: HTTP mode needs SLACK_SIGNING_SECRET/,
    ],
    [
      'the same emoji for Left and Equal',
      {
        'default.yaml': 'arena:\n  emoji:\n    discord: { left: "⬅️", equal: "⬅️", right: "➡️" }\n',
      },
      {},
      /default\.yaml:3:35 arena\.emoji\.discord\.equal: "⬅️" is already the emoji for left: each choice needs its own emoji/,
    ],
    [
      'a duplicate model name',
      {
        'models.yaml':
          'models:\n  - name: claude-2\n    provider: recorded\n  - name: claude-2\n    provider: recorded\n',
      },
      {},
      /models\.yaml:4:11 models\[2\]\.name: model "claude-2" is listed twice \(first at .*models\.yaml:2:11\)/,
    ],
    [
      'judge.model naming no model of models.yaml',
      { 'default.yaml': 'judge:\n  model: nosuchjudge\n' },
      {},
      /default\.yaml:2:10 judge\.model: "nosuchjudge" is not a model of \/.*\/models\.yaml, so scoring datasets .* cannot be judged\. Name an OpenAI-compatible model of models\.yaml \(configured: none\), or set it to null\./,
    ],
    [
      'arena.ask.classifier_model naming a recorded model',
      {
        'default.yaml': 'arena:\n  ask:\n    classifier_model: claude-2\n',
        'models.yaml': 'models:\n  - name: claude-2\n    provider: recorded\n',
      },
      {},
      /default\.yaml:3:23 arena\.ask\.classifier_model: "claude-2" is a recorded model, which cannot be called/,
    ],
    [
      'DATABASE_URL without ZHUJIU_VOTER_SECRET',
      {},
      { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' },
      /environment ZHUJIU_VOTER_SECRET: not set, but DATABASE_URL is/,
    ],
  ];
  it.each(cases)('%s', async (_name, files, extra, re) => {
    const { env } = setup(files, extra);
    const r = await check('--no-connect');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error \[config_invalid\]: /);
    expect(r.stderr).toMatch(re);
    // The bot's start refuses it with the same message.
    const msg = await start(env);
    expect(msg).toMatch(re);
    expect(r.stderr).toContain(msg);
  });

  it.runIf(existsSync('/proc/self'))(
    'a LOG_FILE the start could not open fails the check as it fails the start',
    async () => {
      setup({}, { LOG_FILE: '/proc/zhujiu-no/zhujiu.log' });
      const r = await check('--no-connect');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /^error \[env_invalid\]: LOG_FILE: cannot open the log file \/proc\/zhujiu-no\/zhujiu\.log/,
      );
    },
  );

  it('an embedded database migrated by a newer version is refused by config check and the start, naming the upgrade', async () => {
    const d = pgliteDataDir();
    try {
      const db = await openDb({ kind: 'pglite', dataDir: d.dataDir });
      await sql`insert into kysely_migration (name, timestamp) values ('9999_future', '2030-01-01T00:00:00Z')`.execute(
        db.db,
      );
      await db.close();
      const { env } = setup({}, { ZHUJIU_DATA_DIR: d.dataDir });
      const newer =
        /the database was migrated by a newer version \(it has migration 9999_future; this zhujiu knows up to \d{4}_\w+\); upgrade zhujiu/;
      const r = await check('--no-endpoints');
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error \[db_newer\]: /);
      expect(r.stderr).toMatch(newer);
      expect(await start(env)).toMatch(newer);
      // Without the unknown migration the same folder checks out, and says its migrations are up to date.
      const db2 = await openDb({ kind: 'pglite', dataDir: d.dataDir });
      await sql`delete from kysely_migration where name = '9999_future'`.execute(db2.db);
      await db2.close();
      const ok = await check('--no-endpoints');
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(
        /database: embedded PGlite in .*, free .*; migrations up to date \(\d+\)/,
      );
    } finally {
      d.remove();
    }
  });

  it('an unreachable DATABASE_URL fails the connection check; --no-connect skips it', async () => {
    setup(
      {},
      {
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        ZHUJIU_VOTER_SECRET: 'a-long-enough-secret-0123',
      },
    );
    const r = await check();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error \[db_unavailable\]: cannot connect to Postgres at 127\.0\.0\.1:1\/none/,
    );
    const skipped = await check('--no-connect');
    expect(skipped.code, skipped.stderr).toBe(0);
    expect(skipped.stdout).toContain('database: Postgres (DATABASE_URL), connection not checked');
  });

  it('asks each endpoint GET /models once and names a wrong base URL or key; --no-endpoints skips it', async () => {
    const fake = await startFakeOpenAi({ requireKey: 'right-key-0123' });
    try {
      const base = fake.baseUrl;
      const yaml = (models: string[][]) =>
        `models:\n${models
          .map(
            ([name, url, env]) =>
              `  - name: ${name}\n    provider: openai\n    base_url: ${url}\n    model: fake-model\n    api_key_env: ${env}\n`,
          )
          .join('')}`;
      setup(
        {
          'models.yaml': yaml([
            ['good', base, 'GOOD_KEY'],
            ['same', base, 'GOOD_KEY'],
          ]),
        },
        { GOOD_KEY: 'right-key-0123' },
      );
      const ok = await check();
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toContain(
        `endpoint: model good: 127.0.0.1:${fake.port} answers, 1 model listed`,
      );
      // `same` shares the endpoint and key of `good`: asked once.
      expect(ok.stdout).not.toContain('model same');
      setup(
        {
          'models.yaml': yaml([
            ['nov1', base.replace(/\/v1$/u, ''), 'GOOD_KEY'],
            ['badkey', base, 'BAD_KEY'],
          ]),
        },
        { GOOD_KEY: 'right-key-0123', BAD_KEY: 'wrong-key-0123' },
      );
      const bad = await check();
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('error [llm_failed]: 2 endpoints failed the connection check');
      // What was checked still prints, without calling it OK.
      expect(bad.stdout).toMatch(
        /^config read: .* \(an endpoint failed: see below\)\n {2}models: /u,
      );
      expect(bad.stdout).toContain('database: ');
      expect(bad.stderr).toContain(
        `model nov1: HTTP 404 from 127.0.0.1:${fake.port}: base_url http://127.0.0.1:${fake.port} does not end in /v1; add it`,
      );
      expect(bad.stderr).toContain(
        `model badkey: 127.0.0.1:${fake.port} refused the API key (HTTP 401); check BAD_KEY`,
      );
      expect(bad.stderr).not.toContain('wrong-key-0123');
      const skipped = await check('--no-endpoints');
      expect(skipped.code, skipped.stderr).toBe(0);
      expect(skipped.stdout).not.toContain('endpoint:');
    } finally {
      await fake.close();
    }
  });

  it('the shipped config passes', async () => {
    setup({});
    const r = await check();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^config OK: /);
  });

  it('speaks Chinese under LANG=zh_CN.UTF-8 (the command line language, docs/architecture.md "Languages")', async () => {
    const { env } = setup({});
    const r = await inProcess(['config', 'check', '--no-connect'], {
      env: { ...env, LANG: 'zh_CN.UTF-8' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^配置正确：/u);
    expect(r.stdout).toContain('未检查目录锁（--no-connect）');
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)(
  'worker start on a PostgreSQL that is not up yet',
  () => {
    it('tries again with backoff until the server answers; gives up after database.start_retry_seconds', async () => {
      const d = await freshDb('postgres', { poolSize: 1 });
      await d.close();
      // A port that refuses connections until the "server" comes up, then forwards to the real one.
      const probe = createServer();
      await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
      const port = (probe.address() as AddressInfo).port;
      await new Promise<void>((r) => probe.close(() => r()));
      const real = new URL(d.url as string);
      const late = new URL(d.url as string);
      late.port = String(port);
      const proxy = createServer((c) => {
        const up = connect(Number(real.port || 5432), real.hostname);
        c.pipe(up).pipe(c);
        c.on('error', () => up.destroy());
        up.on('error', () => c.destroy());
      });
      const { dir } = setup({ 'default.yaml': 'database:\n  start_retry_seconds: 120\n' });
      const env = {
        ZHUJIU_CONFIG_DIR: dir,
        DATABASE_URL: late.toString(),
        ZHUJIU_VOTER_SECRET: 'a-long-enough-secret-0123',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
      };
      const lines: string[] = [];
      const logger = pino({ level: 'warn' }, { write: (l: string) => lines.push(l) });
      try {
        const starting = startService('worker', { worker: true, env, httpPort: 0, logger });
        // The first attempt has failed (and is logged) before the server comes up.
        const t0 = Date.now();
        while (!lines.some((l) => l.includes('database not reachable; trying again'))) {
          if (Date.now() - t0 > 60_000) throw new Error('no retry logged');
          await new Promise((r) => setTimeout(r, 100));
        }
        await new Promise<void>((r) => proxy.listen(port, '127.0.0.1', r));
        const s = await starting;
        await s.stop();
        // With no time to retry, the start fails with the connection error.
        setup({ 'default.yaml': 'database:\n  start_retry_seconds: 0\n' });
        const refused = await startService('worker', {
          worker: true,
          env: {
            ...env,
            ZHUJIU_CONFIG_DIR: current.ZHUJIU_CONFIG_DIR as string,
            DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
          },
          httpPort: 0,
          logger,
        }).then(
          () => undefined,
          (e: unknown) => e as Error,
        );
        expect(refused?.message).toMatch(/^cannot connect to Postgres at 127\.0\.0\.1:1\/none/);
      } finally {
        await new Promise<void>((r) => proxy.close(() => r()));
        await d.destroy();
      }
    });
  },
);
