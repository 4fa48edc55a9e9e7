/**
 * The command line's bundle (cli/bundle-build): every module started as a worker thread is an entry point (so it
 * sits beside the chunks that start it), only the plain-JavaScript packages it names are bundled, and a new bundle
 * is moved in without taking a file from a process that runs the old one; Node's compile cache is filled with the new
 * bundle's modules, not running the worker threads' entry points, past a module that fails to load.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BUNDLED,
  externals,
  installBundle,
  WORKER_MODULES,
  warmCompileCache,
} from '../../../src/cli/bundle-build.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';
import { tsFilesUnder } from '../../helpers/source-files.ts';

/** `src/` files, recursively, as paths relative to `src/`. */
const sources = (): string[] =>
  tsFilesUnder(join(PROJECT_ROOT, 'src')).map((f) =>
    relative(join(PROJECT_ROOT, 'src'), f).split(sep).join('/'),
  );

describe('cli/bundle-build', () => {
  it('has every module started with startWorkerBeside as an entry point', () => {
    const started = sources().flatMap((file) => {
      const text = readFileSync(join(PROJECT_ROOT, 'src', file), 'utf8');
      const dir = file.split('/').slice(0, -1).join('/');
      // The module named in the call, or its default there (`o.module ?? 'rounds-worker'`).
      return [
        ...text.matchAll(
          /startWorkerBeside\(\s*import\.meta\.url,\s*(?:[\w.#]+ \?\? )?'([\w-]+)'/g,
        ),
      ].map((m) => `${dir}/${m[1]}`);
    });
    expect(started.length).toBeGreaterThan(0);
    expect([...started].sort()).toEqual([...WORKER_MODULES].sort());
  });

  it('bundles only the packages it names, each a dependency; every other dependency stays external', () => {
    const pkg = JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    for (const name of BUNDLED) expect(Object.keys(pkg.dependencies)).toContain(name);
    const ext = externals(pkg.dependencies);
    for (const name of BUNDLED) expect(ext).not.toContain(name);
    expect(ext).toContain('@electric-sql/pglite');
    expect(ext).toContain('@electric-sql/pglite/*');
    expect(ext).toContain('pino');
    expect(ext.length).toBe(2 * (Object.keys(pkg.dependencies).length - BUNDLED.length));
  });

  it('moves a new bundle in beside the old one: old chunks stay (a running process imports them), stale ones go', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bundle-'));
    try {
      const target = join(dir, 'cli');
      const work = join(dir, 'work');
      mkdirSync(target);
      mkdirSync(work);
      writeFileSync(join(target, 'index.js'), 'old entry');
      writeFileSync(join(target, 'chunk-OLD.js'), 'old chunk');
      writeFileSync(join(target, 'chunk-ANCIENT.js'), 'ancient chunk');
      const now = Date.now();
      const eightDaysAgo = (now - 8 * 24 * 3600 * 1000) / 1000;
      utimesSync(join(target, 'chunk-ANCIENT.js'), eightDaysAgo, eightDaysAgo);
      writeFileSync(join(work, 'index.js'), 'new entry');
      writeFileSync(join(work, 'chunk-NEW.js'), 'new chunk');
      installBundle(work, target, now);
      expect(readdirSync(target).sort()).toEqual(['chunk-NEW.js', 'chunk-OLD.js', 'index.js']);
      expect(readFileSync(join(target, 'index.js'), 'utf8')).toBe('new entry');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fills Node's compile cache with the bundle's modules, skipping worker entry points and failing modules", () => {
    const root = mkdtempSync(join(tmpdir(), 'zhujiu-warm-'));
    try {
      const dir = join(root, 'cli');
      mkdirSync(dir);
      const marker = (name: string) =>
        `import { writeFileSync } from 'node:fs'; writeFileSync(${JSON.stringify(join(root, name))}, '');`;
      writeFileSync(join(dir, 'a-fails.js'), 'throw new Error("fails as it loads");');
      writeFileSync(join(dir, 'b.js'), `${marker('b-ran')}\nexport const b = 1;`);
      writeFileSync(join(dir, 'template-fill-worker.js'), marker('worker-ran'));
      const cache = join(root, 'cache');
      const files = ['a-fails.js', 'b.js', 'template-fill-worker.js'];
      expect(warmCompileCache(dir, files, { ...process.env, NODE_COMPILE_CACHE: cache })).toBe(
        true,
      );
      expect(readdirSync(root).sort()).toEqual(['b-ran', 'cache', 'cli']); // b loaded after a failed; no worker
      const entries = readdirSync(cache, { recursive: true, withFileTypes: true });
      expect(entries.filter((e) => e.isFile()).length).toBeGreaterThan(0);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
