/**
 * The `zhujiu` command as a user runs it: a real child process through bin/zhujiu.js (the compiled JavaScript),
 * on a fresh copy of the migrated template data folder (a first start on an empty folder is tested in start.test.ts).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHECKOUT_CONFIG_DIR } from '../../helpers/config-dir.ts';
import { pgliteDataDir } from '../../helpers/db.ts';
import { asProcess } from '../../helpers/run-cli.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../../helpers/shared-data.ts';

const zhujiu = (args: string[], env: Record<string, string> = {}) => asProcess(args, { env });

describe('zhujiu CLI', () => {
  const { dataDir, remove } = pgliteDataDir();
  afterAll(remove);

  it('--version and -V print the package version and exit 0', async () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      version: string;
    };
    for (const flag of ['--version', '-V']) {
      const r = await zhujiu([flag]);
      expect(r).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
    }
    expect((await zhujiu(['--help'])).stdout).toContain('-V, --version');
  });

  it('config check passes on the shipped config and fails clearly on a bad one', async () => {
    // The checkout's own config/ on purpose: this is the check of the shipped files.
    const ok = await zhujiu(['config', 'check'], { ZHUJIU_CONFIG_DIR: CHECKOUT_CONFIG_DIR });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('config OK');
    const bad = mkdtempSync(join(tmpdir(), 'zhujiu-badcfg-'));
    writeFileSync(join(bad, 'default.yaml'), 'arena:\n  vote_cap: many\n');
    const r = await zhujiu(['config', 'check'], { ZHUJIU_CONFIG_DIR: bad });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error \[config_invalid\]: .*default\.yaml:2:13 arena\.vote_cap: /);
  });

  it('usage errors exit 2 and name the fix', async () => {
    const r = await zhujiu(['import', 'outputs', 'x.json']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("required option '--model <name>' not specified");
    const r2 = await zhujiu(['ratings', '--battles', 'x', '--bootstrap', 'lots']);
    expect(r2.code).toBe(2);
    expect(r2.stderr).toContain(
      '--bootstrap must be an integer ≥ 0 in plain decimal digits, got "lots"',
    );
  });

  it('imports outputs into a fresh data folder, once', async () => {
    const f = join(mkdtempSync(join(tmpdir(), 'zhujiu-out-')), 'outs.jsonl');
    writeFileSync(
      f,
      '{"item":"a","prompt":"p1","output":"o1"}\n{"item":"b","prompt":"p2","output":"o2"}\n',
    );
    const env = { ZHUJIU_DATA_DIR: dataDir };
    const r1 = await zhujiu(['import', 'outputs', f, '--model', 'm1', '--format', 'jsonl'], env);
    expect(r1.code, r1.stderr).toBe(0);
    expect(r1.stdout).toMatch(
      /^imported 2 responses for m1 into dataset outs \(2 rows, 0 already present\)/,
    );
    expect(r1.stderr).toBe(''); // one-shot commands log nothing below warnings
    const r2 = await zhujiu(['import', 'outputs', f, '--model', 'm1', '--format', 'jsonl'], env);
    expect(r2.stdout).toMatch(/^imported 0 responses for m1 .*2 already present/);
    const r3 = await zhujiu(['import', 'battles', join(dataDir, 'nope.jsonl')], env);
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(
      /error \[import_invalid\]: .*nope\.jsonl: cannot read \(no such file\); check the path/,
    );
  });

  it.skipIf(!hasSharedData('arena', 'battles.jsonl'))(
    'rates the real battles file as JSON',
    async () => {
      const r = await zhujiu([
        'ratings',
        '--battles',
        sharedData('arena', 'battles.jsonl'),
        '--bootstrap',
        '20',
        '--anchor',
        'mixtral-8x7b-instruct-v0.1=1114',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as { models: Record<string, unknown>[] };
      expect(out.models.length).toBe(129);
      expect(Object.keys(out.models[0] as object)).toEqual([
        'model',
        'rating',
        'rating_lo',
        'rating_hi',
        'elo',
        'rank',
        'num_battles',
        'avg_win_rate',
      ]);
      const mixtral = out.models.find((m) => m.model === 'mixtral-8x7b-instruct-v0.1');
      expect(mixtral?.rating).toBeCloseTo(1114, 9);
    },
  );
});

describe('zhujiu CLI safety checks', () => {
  it('migrate --down needs --yes; config check flags DATABASE_URL without a voter secret', async () => {
    const r = await zhujiu(['migrate', '--down']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('zhujiu migrate --down --yes');
    const c = await zhujiu(['config', 'check'], {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test',
    });
    expect(c.code).toBe(1);
    expect(c.stderr).toContain('environment ZHUJIU_VOTER_SECRET: not set, but DATABASE_URL is');
    const d = await zhujiu(['config', 'check'], {
      ZHUJIU_CONFIG_DIR: '/nonexistent/zhujiu-config',
    });
    expect(d.code).toBe(1);
    expect(d.stderr).toContain(
      'config folder /nonexistent/zhujiu-config does not exist (from ZHUJIU_CONFIG_DIR)',
    );
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'bot with DATABASE_URL but no voter secret exits at once with the fix',
    async () => {
      // It exits by itself (the test would hit its timeout otherwise), before serving anything.
      const r = await zhujiu(['bot'], {
        DATABASE_URL: process.env.TEST_DATABASE_URL as string,
        PORT: '0',
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(
        'error [config_invalid]: environment ZHUJIU_VOTER_SECRET: not set',
      );
    },
  );
});
