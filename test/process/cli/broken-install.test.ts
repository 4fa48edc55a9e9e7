/**
 * An incomplete installation (a file of the bundle `npm run build` wrote is missing: deleted, or a build or an
 * `npm ci` interrupted) is said as such, `install_broken` with the fix (`npm run build`, or `npm ci`), wherever the
 * missing file is loaded: by the embedded database's worker thread (before, `db_unavailable`: "cannot open the
 * embedded database …; move the damaged one away", which would not help), by a command's modules loaded on demand
 * (before, "unexpected error" and a stack), and by the command line's first modules (bin/zhujiu.js). Each case runs
 * the real `bin/zhujiu.js` on a copy of the installation (bin/, package.json, dist/bundle) with one file removed;
 * the worker threads of the board: test/unit/leaderboard/broken-threads.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ownConfigDir } from '../../helpers/config-dir.ts';
import { CLEAN_ENV } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const BUNDLE = join(PROJECT_ROOT, 'dist', 'bundle', 'cli');

/** The chunks a bundle file imports statically (`from "./chunk-….js"`, `import "./chunk-….js"`). */
function staticChunks(file: string): string[] {
  const text = readFileSync(join(BUNDLE, file), 'utf8');
  return [...text.matchAll(/(?:from|import) "\.\/(chunk-[A-Z0-9]+\.js)"/gu)].map((m) => m[1]!);
}

/** Every chunk `file` loads before it runs (its static imports, and theirs). */
function loadedFirst(file: string): Set<string> {
  const seen = new Set<string>();
  const todo = staticChunks(file);
  while (todo.length > 0) {
    const c = todo.pop()!;
    if (seen.has(c)) continue;
    seen.add(c);
    todo.push(...staticChunks(c));
  }
  return seen;
}

/** A copy of the installation without `missing` (a file of dist/bundle/cli); returns its folder. */
function installationWithout(missing: string): string {
  const root = join(mkdtempSync(join(tmpdir(), 'zhujiu-broken-')), 'zhujiu');
  mkdirSync(join(root, 'dist'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(PROJECT_ROOT, 'package.json'), join(root, 'package.json'));
  // bin/zhujiu.js runs the bundle when it is newer than tsc's last build: the times are kept.
  for (const f of ['bundle', '.tsbuildinfo'])
    cpSync(join(PROJECT_ROOT, 'dist', f), join(root, 'dist', f), {
      recursive: true,
      preserveTimestamps: true,
    });
  symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
  rmSync(join(root, 'dist', 'bundle', 'cli', missing));
  return root;
}

/** Runs `zhujiu ARGS…` of the installation in `root` to its end. */
function zhujiu(root: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [join(root, 'bin', 'zhujiu.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: {
      ...process.env,
      ...CLEAN_ENV,
      ZHUJIU_CONFIG_DIR: ownConfigDir(),
      ZHUJIU_DATA_DIR: join(root, 'data', 'pg'),
      PORT: '0',
      ...env,
    },
  });
  return { code: r.status, stderr: r.stderr };
}

const FIX_EN =
  'cannot be loaded. Run `npm run build` in the zhujiu folder (or `npm ci`, which also installs its dependencies again), then run the command again.';

describe.concurrent('an incomplete installation', () => {
  it("the embedded database's thread module missing: install_broken, not db_unavailable", () => {
    const root = installationWithout('pglite-worker.js');
    try {
      const r = zhujiu(root, ['worker']);
      expect(r.code, r.stderr).toBe(1);
      const missing = join(root, 'dist', 'bundle', 'cli', 'pglite-worker.js');
      expect(r.stderr).toContain(
        `error [install_broken]: zhujiu's installation is incomplete: ${missing} ${FIX_EN}`,
      );
      expect(r.stderr).not.toContain('db_unavailable');
      const zh = zhujiu(root, ['worker'], { LANG: 'zh_CN.UTF-8' });
      expect(zh.code).toBe(1);
      expect(zh.stderr).toContain(
        `错误 [install_broken]：zhujiu 的安装不完整：无法加载 ${missing}。请在 zhujiu 目录中运行 \`npm run build\``,
      );
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });

  it('a chunk a command loads on demand missing: install_broken naming it, no stack', () => {
    // A chunk of the database's modules that the command line does not load at its start.
    const first = loadedFirst('index.js');
    const chunk = staticChunks('pglite-worker.js').find((c) => !first.has(c));
    expect(chunk, 'a chunk of pglite-worker.js that index.js loads on demand').toBeDefined();
    const root = installationWithout(chunk!);
    try {
      const r = zhujiu(root, ['migrate']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error \\[install_broken\\]: zhujiu's installation is incomplete: \\S+/${chunk} cannot be loaded\\. `,
          'u',
        ),
      );
      expect(r.stderr).not.toContain('unexpected error');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });

  it("a chunk of the command line's first modules missing: bin/zhujiu.js says install_broken", () => {
    const chunk = staticChunks('index.js')[0]!;
    const root = installationWithout(chunk);
    try {
      const r = zhujiu(root, ['--version']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toBe(
        `error [install_broken]: zhujiu's installation is incomplete: ${join(root, 'dist', 'bundle', 'cli', chunk)} ${FIX_EN}\n`,
      );
    } finally {
      rmSync(join(root, '..'), { recursive: true, force: true });
    }
  });
});
