/**
 * storage/template-fill and cli/early-fill: the prepared database unpacked ahead of need, beside an empty or
 * missing data folder, for the commands that open it; never for a folder that holds anything, a command that does
 * not open the database, or a PostgreSQL server; a fill nobody took is removed with the folders made for it; a
 * damaged archive leaves nothing behind. Asked to, the fill's thread compiles PGlite's WebAssembly too (for one-shot
 * commands, not `bot` / `worker`), and a file that is not WebAssembly only means none. (storage/pglite-template's
 * tests show a fill being taken.)
 */
import { spawnSync } from 'node:child_process';
import {
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { packTar } from 'modern-tar/fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEarlyFill } from '../../../src/cli/early-fill.ts';
import { pgliteWasmFile } from '../../../src/storage/pglite-load.ts';
import {
  fillWasm,
  removeStaleFills,
  removeUntakenFills,
  startTemplateFill,
  takeTemplateFill,
} from '../../../src/storage/template-fill.ts';

let root: string;
let archive: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'zhujiu-template-fill-'));
  const src = join(root, 'src');
  mkdirSync(join(src, 'base', '5'), { recursive: true });
  writeFileSync(join(src, 'PG_VERSION'), '18\n');
  writeFileSync(join(src, 'base', '5', '1255'), Buffer.alloc(8192, 1));
  archive = join(root, 'template.tar');
  await pipeline(packTar(src), createWriteStream(archive));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

/** True for a compiled WebAssembly module (the project's `lib` setting declares its types, not the global). */
const isWasmModule = (m: unknown): boolean =>
  m instanceof
  (globalThis as unknown as { WebAssembly: { Module: new () => object } }).WebAssembly.Module;

/** The private fill folders beside `dataDir`. */
const fillsBeside = (parent: string) =>
  existsSync(parent) ? readdirSync(parent).filter((f) => f.includes('.unpacking-')) : [];

describe('storage/template-fill', () => {
  it('unpacks beside a missing folder, and the taker gets the whole archive', async () => {
    const dataDir = join(root, 'a', 'pg');
    expect(await startTemplateFill(dataDir, archive)).toBe(true);
    expect(fillsBeside(join(root, 'a'))).toHaveLength(1);
    const folder = await takeTemplateFill(dataDir);
    expect(folder).toBeDefined();
    expect(readdirSync(folder as string).sort()).toEqual(['PG_VERSION', 'base']);
    expect(await takeTemplateFill(dataDir)).toBeUndefined(); // taken once
  });

  it('starts nothing for a folder that holds anything', async () => {
    const dataDir = join(root, 'full', 'pg');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'note.txt'), 'mine');
    expect(await startTemplateFill(dataDir, archive)).toBe(false);
    expect(fillsBeside(join(root, 'full'))).toEqual([]);
    expect(await takeTemplateFill(dataDir)).toBeUndefined();
  });

  it('removes a fill nobody took, with the parent folders made for it', async () => {
    const dataDir = join(root, 'untaken', 'x', 'y', 'pg');
    expect(await startTemplateFill(dataDir, archive)).toBe(true);
    removeUntakenFills();
    expect(existsSync(join(root, 'untaken'))).toBe(false);
    expect(await takeTemplateFill(dataDir)).toBeUndefined();
  });

  it('leaves nothing behind for a damaged archive', async () => {
    const bad = join(root, 'bad.tar');
    writeFileSync(bad, Buffer.alloc(1024, 7));
    const dataDir = join(root, 'bad', 'pg');
    expect(await startTemplateFill(dataDir, bad)).toBe(false);
    expect(fillsBeside(join(root, 'bad'))).toEqual([]);
    expect(await takeTemplateFill(dataDir)).toBeUndefined();
    removeUntakenFills();
  });

  it('removes the fill folders a killed process left (unchanged for 10 minutes), not one being written', () => {
    const parent = join(root, 'stale');
    const old = join(parent, '.pg.unpacking-OLD123');
    const fresh = join(parent, '.pg.unpacking-NEW456');
    const other = join(parent, '.other.unpacking-OLD789');
    for (const dir of [old, fresh, other]) mkdirSync(join(dir, 'base'), { recursive: true });
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(old, hourAgo, hourAgo);
    utimesSync(other, hourAgo, hourAgo);
    expect(removeStaleFills(join(parent, 'pg'))).toBe(1);
    expect(readdirSync(parent).sort()).toEqual(['.other.unpacking-OLD789', '.pg.unpacking-NEW456']);
  });

  it('removes at once the fill folder of a process that is gone (stopped by a signal mid-fill), not a live one', () => {
    const parent = join(root, 'gone');
    const dead = spawnSync(process.execPath, ['-e', '']).pid as number; // exited: its id names no process
    const goneFill = join(parent, `.pg.unpacking-${dead}-abc123`);
    const liveFill = join(parent, `.pg.unpacking-${process.ppid}-def456`);
    for (const dir of [goneFill, liveFill]) mkdirSync(join(dir, 'base'), { recursive: true });
    expect(removeStaleFills(join(parent, 'pg'))).toBe(1);
    expect(readdirSync(parent)).toEqual([`.pg.unpacking-${process.ppid}-def456`]);
  });

  it('names its fill folder after this process', async () => {
    const dataDir = join(root, 'named', 'pg');
    expect(await startTemplateFill(dataDir, archive)).toBe(true);
    expect(fillsBeside(join(root, 'named'))[0]).toMatch(
      new RegExp(`^\\.pg\\.unpacking-${process.pid}-`, 'u'),
    );
    removeUntakenFills();
  });

  it.each([
    ["PGlite's WebAssembly file", () => pgliteWasmFile(), true],
    ['a file that is not WebAssembly', () => archive, false],
    ['no file', () => undefined, false],
  ])('compiles %s beside the fill: a module = %s', async (_, wasm, compiled) => {
    const dataDir = join(
      root,
      `wasm-${String(compiled)}-${String(wasm())}`.replace(/\W+/gu, '-'),
      'pg',
    );
    expect(await startTemplateFill(dataDir, archive, wasm())).toBe(true);
    const module = await fillWasm(dataDir);
    expect(isWasmModule(module)).toBe(compiled);
    expect(await takeTemplateFill(dataDir)).toBeDefined();
  });

  it('starts nothing when the archive is missing', async () => {
    const dataDir = join(root, 'none', 'pg');
    expect(await startTemplateFill(dataDir, join(root, 'missing.tar'))).toBe(false);
    expect(existsSync(join(root, 'none'))).toBe(false);
  });
});

describe('cli/early-fill', () => {
  it.each([
    ['eval', ['eval', '--model', 'm'], {}, true],
    ['migrate', ['migrate'], {}, true],
    ['config check (no database opened)', ['config', 'check'], {}, false],
    ['a help request', ['eval', '--help'], {}, false],
    ['no command', [], {}, false],
    ['a PostgreSQL server', ['eval'], { DATABASE_URL: 'postgres://127.0.0.1/x' }, false],
  ])('%s: fill started = %s', async (name, args, env, started) => {
    const cwd = join(root, `cli-${name.replace(/\W+/gu, '-')}`);
    mkdirSync(cwd, { recursive: true });
    const done = startEarlyFill(['node', 'zhujiu', ...args], env, cwd, archive);
    expect(await done).toBe(started);
    expect(fillsBeside(join(cwd, 'data'))).toHaveLength(started ? 1 : 0);
    removeUntakenFills();
    expect(existsSync(join(cwd, 'data'))).toBe(false);
  });

  it.each([
    ['a one-shot command', 'import', true],
    ['a long-lived one (PGlite on its own thread)', 'worker', false],
  ])('%s has the fill compile PGlite: %s', async (_, command, compiled) => {
    const cwd = join(root, `cli-wasm-${command}`);
    mkdirSync(cwd, { recursive: true });
    expect(await startEarlyFill(['node', 'zhujiu', command], {}, cwd, archive)).toBe(true);
    const module = await fillWasm(join(cwd, 'data', 'pg'));
    expect(isWasmModule(module)).toBe(compiled);
    removeUntakenFills();
  });

  it('follows ZHUJIU_DATA_DIR', async () => {
    const cwd = join(root, 'cli-env');
    const dataDir = join(root, 'elsewhere', 'pg');
    mkdirSync(cwd, { recursive: true });
    expect(
      await startEarlyFill(['node', 'zhujiu', 'eval'], { ZHUJIU_DATA_DIR: dataDir }, cwd, archive),
    ).toBe(true);
    expect(await takeTemplateFill(dataDir)).toBeDefined();
  });
});
