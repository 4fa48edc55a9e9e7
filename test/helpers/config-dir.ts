/**
 * Config folders of the tests' own. The checkout's `config/default.yaml` and `config/models.yaml` are the user's
 * own settings (README "Configuration" and "Models" tell them to edit those files), so a test never reads them: a
 * model added there would show up in a test's output as a warning, and a typo there would fail tests that are not
 * about it. A `zhujiu` command a test runs gets a folder made here, through `ZHUJIU_CONFIG_DIR`:
 * {@link ownConfigDir} with the files the test needs, or {@link shippedDefinitionsDir} (the default of the helpers
 * that run commands, test/helpers/run-cli.ts and pty.ts): the shipped suites and rubrics (`config/suites/`,
 * `config/rubrics/`, definitions the code under test ships with) and no settings file, so every setting has its
 * default (the settings of the shipped `default.yaml` but its identity-guard word lists, which a test of those
 * names itself).
 *
 * The folders are made under the run's scratch folder (test/helpers/global-scratch.ts), which is removed after
 * the run.
 */
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PROJECT_ROOT } from './shared-data.ts';

/** The checkout's config folder: read only by a test of the shipped files themselves. */
export const CHECKOUT_CONFIG_DIR = join(PROJECT_ROOT, 'config');

/**
 * A new config folder holding `files` (paths relative to it, e.g. `models.yaml`, `suites/mini.yaml`, and their
 * text); with `shipped`, the checkout's `suites/` and `rubrics/` too (a file of `files` replaces one of them).
 * @returns its absolute path.
 */
export function ownConfigDir(
  files: Readonly<Record<string, string>> = {},
  o: { shipped?: boolean } = {},
): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'zhujiu-config-')), 'config');
  mkdirSync(dir);
  if (o.shipped) {
    for (const sub of ['suites', 'rubrics'])
      cpSync(join(CHECKOUT_CONFIG_DIR, sub), join(dir, sub), { recursive: true });
  }
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

let shipped: string | undefined;

/**
 * One folder per test worker with the shipped suites and rubrics and no settings file ({@link ownConfigDir} with
 * `shipped`); commands only read it.
 */
export function shippedDefinitionsDir(): string {
  shipped ??= ownConfigDir({}, { shipped: true });
  return shipped;
}

let datasetsCache: string | undefined;

/**
 * `env` with `ZHUJIU_CONFIG_DIR` set to {@link shippedDefinitionsDir} when it names no config folder itself and
 * the command runs in the checkout (no `cwd` of its own, where a relative `config/` is what a test looks at); and
 * `ZHUJIU_DATASETS_CACHE` to one scratch folder per test worker when it names none, so that sets a command builds
 * or downloads (the knowledge sets of `zhujiu suites`) never land in the checkout's `data/`.
 */
export function withOwnConfig<E extends Readonly<Record<string, string | undefined>>>(
  env: E,
  cwd?: string,
): E & { ZHUJIU_CONFIG_DIR?: string } {
  if (cwd !== undefined) return env;
  datasetsCache ??= mkdtempSync(join(tmpdir(), 'zhujiu-datasets-cache-'));
  return {
    ...('ZHUJIU_DATASETS_CACHE' in env ? {} : { ZHUJIU_DATASETS_CACHE: datasetsCache }),
    ...('ZHUJIU_CONFIG_DIR' in env ? {} : { ZHUJIU_CONFIG_DIR: shippedDefinitionsDir() }),
    ...env,
  };
}
