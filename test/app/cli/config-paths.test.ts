/**
 * Errors about a model, the judge or a suite name the config file actually read (config/files.ts): with
 * `ZHUJIU_CONFIG_DIR` pointing at another folder, `zhujiu eval` and `zhujiu config check` name that folder's
 * `models.yaml` / `default.yaml` / `suites/`, not `config/models.yaml` (before, every such message named
 * `config/models.yaml` whatever was read). Without the variable, the path is shown relative to the working
 * directory, as `config/models.yaml`.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { configFilesIn } from '../../../src/config/files.ts';
import { pgliteDataDir } from '../../helpers/db.ts';
import { inProcess } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-config-paths-'));
const data = pgliteDataDir();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  data.remove();
});

/** A config folder outside the checkout: two models, one on a port nothing listens on, one without its key. */
function configFolder(): string {
  const cfg = join(dir, 'elsewhere');
  cpSync(join(PROJECT_ROOT, 'config'), cfg, { recursive: true });
  writeFileSync(
    join(cfg, 'models.yaml'),
    'models:\n' +
      '  - name: far\n    provider: openai\n    base_url: http://127.0.0.1:9/v1\n    model: f\n    max_retries: 0\n' +
      '  - name: keyed\n    provider: openai\n    base_url: http://127.0.0.1:9/v1\n    model: k\n' +
      '    api_key_env: ZHUJIU_TEST_UNSET_KEY\n',
  );
  return cfg;
}

describe('config errors name the file read', () => {
  const cfg = configFolder();
  const models = join(cfg, 'models.yaml');
  const env = { ZHUJIU_CONFIG_DIR: cfg, ZHUJIU_DATA_DIR: data.dataDir, DATABASE_URL: '' };

  it('eval: an unknown model and a model without its key name ZHUJIU_CONFIG_DIR/models.yaml', async () => {
    // A model neither models.yaml nor the stored answers know is a usage mistake (exit 2), like an unknown --suite.
    const unknown = await inProcess(['eval', '--model', 'nosuch', '--suite', 'smoke'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /^error \[input_invalid\]: Unknown model "nosuch"\. Valid models: /,
    );
    expect(unknown.stderr).not.toContain('Did you mean');
    const typo = await inProcess(['eval', '--model', 'fra', '--suite', 'smoke'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Unknown model "fra". Valid models: far, keyed.');
    expect(typo.stderr).toContain('Did you mean "far"?');
    const zh = await inProcess(['eval', '--model', 'fra', '--suite', 'smoke'], {
      env: { ...env, LANG: 'zh_CN.UTF-8' },
    });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('你是不是想输入“far”？');
    expect(unknown.stderr).toContain(`To add it: ${models} (name, provider, base_url, model)`);
    expect(unknown.stderr).not.toContain('config/models.yaml');
    const keyless = await inProcess(['eval', '--model', 'keyed', '--suite', 'smoke'], { env });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain(
      `its API key variable ZHUJIU_TEST_UNSET_KEY (${models} api_key_env) is not set`,
    );
  });

  it('eval and judge run: a --suite the configuration lacks is a usage mistake (exit 2) listing the suites', async () => {
    const e = await inProcess(['eval', '--model', 'far', '--suite', 'smok'], { env });
    expect(e.code).toBe(2);
    expect(e.stderr).toMatch(
      /^error \[input_invalid\]: Unknown suite "smok"\. Valid suites: smoke, /,
    );
    const j = await inProcess(
      ['judge', 'run', '--model', 'far', '--suite', 'smok', '--judge', 'far'],
      {
        env,
      },
    );
    expect(j.code).toBe(2);
    expect(j.stderr).toMatch(
      /^error \[input_invalid\]: --suite smok: no such suite; the suites are /,
    );
    // Both list every suite `config check` counts (alpaca-eval too, which eval cannot run but a typo may mean).
    const check = await inProcess(['config', 'check', '--no-connect', '--no-endpoints'], { env });
    const counted = /^ {2}suites: (\d+) \((.*)\)$/mu.exec(check.stdout);
    const names = (counted?.[2] ?? '').split(', ').sort();
    expect(names).toHaveLength(Number(counted?.[1]));
    expect(names).toContain('alpaca-eval');
    const listed = (stderr: string, re: RegExp) => (re.exec(stderr)?.[1] ?? '').split(', ').sort();
    expect(listed(e.stderr, /Valid suites: (.*?)\./u)).toEqual(names);
    expect(listed(j.stderr, /the suites are (.*?)( \(did|\n)/u)).toEqual(names);
    const alpaca = await inProcess(['eval', '--model', 'far', '--suite', 'alpaca-evl'], { env });
    expect(alpaca.code).toBe(2);
    expect(alpaca.stderr).toContain('Did you mean "alpaca-eval"?');
  });

  it('config check: a failing endpoint names ZHUJIU_CONFIG_DIR/models.yaml', async () => {
    const r = await inProcess(['config', 'check'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `model far: cannot reach 127.0.0.1:9 (Connection error.); check its base_url in ${models} and that the server is up`,
    );
    expect(r.stderr).not.toContain('config/models.yaml');
  });

  it('without ZHUJIU_CONFIG_DIR the files are named relative to the working directory', () => {
    expect(configFilesIn(join(PROJECT_ROOT, 'config'), PROJECT_ROOT)).toEqual({
      default: 'config/default.yaml',
      models: 'config/models.yaml',
      suites: 'config/suites/',
    });
    expect(configFilesIn('/etc/zhujiu', PROJECT_ROOT).models).toBe('/etc/zhujiu/models.yaml');
  });
});
