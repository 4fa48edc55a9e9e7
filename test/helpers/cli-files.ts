/**
 * The set-up of a test file that runs commands in-process on one runtime against files it writes: a runtime
 * opened before the file's tests (run-cli.ts `openTestRuntime`), a private folder for its input files, both removed
 * after them. Call it inside a `describe` (it registers that block's `beforeAll` / `afterAll`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { type CliResult, inProcess, openTestRuntime, type TestRuntime } from './run-cli.ts';

/** What {@link useCliFiles} gives a test file. */
export interface CliFiles {
  /** `zhujiu ARGS…` in-process on the runtime, with `env` (e.g. `LANG`) for the command's language. */
  zhujiu(args: string[], env?: Record<string, string>): Promise<CliResult>;
  /** Writes `text` to `name` in the private folder; returns its path. */
  file(name: string, text: string): string;
  /** The open runtime: read it inside a test (it opens in `beforeAll`), not while the `describe` block runs. */
  readonly runtime: TestRuntime;
}

/**
 * Opens the runtime and the folder (named `prefix…` in the temporary folder) for the enclosing `describe`.
 */
export function useCliFiles(prefix: string): CliFiles {
  const tmp = mkdtempSync(join(tmpdir(), prefix));
  let t: TestRuntime | undefined;
  beforeAll(async () => {
    t = await openTestRuntime();
  });
  afterAll(async () => {
    await t?.close();
    rmSync(tmp, { recursive: true, force: true });
  });
  const runtime = (): TestRuntime => {
    if (!t) throw new Error('useCliFiles: the runtime opens in beforeAll; use it inside a test');
    return t;
  };
  return {
    zhujiu: (args, env) => inProcess(args, { rt: runtime().rt, ...(env ? { env } : {}) }),
    file: (name, text) => {
      const p = join(tmp, name);
      writeFileSync(p, text);
      return p;
    },
    get runtime() {
      return runtime();
    },
  };
}
