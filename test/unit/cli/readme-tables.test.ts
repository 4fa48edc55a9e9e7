/**
 * The README's tables of commands and of suites say what the code has: every command of the program (src/cli/index.ts)
 * has a row of a command table, every row names a command that exists with flags it takes, and every flag of a
 * command is named in one of its rows; the suite table has each suite of config/suites/ once (a row listed twice,
 * `zhujiu-scoring`, went unnoticed).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliDeps } from '../../../src/cli/deps.ts';
import { buildProgram } from '../../../src/cli/index.ts';
import type { CliIo } from '../../../src/cli/io.ts';
import { loadConfig } from '../../../src/config/loader.ts';
import { envSchema } from '../../../src/config/schema.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');

/** The first cells (the text of their first code span) of every README table whose header row is `header`. */
function firstCells(header: string): string[] {
  const cells: string[] = [];
  const lines = readme.split('\n');
  lines.forEach((line, i) => {
    if (line.trim() !== header) return;
    for (let j = i + 2; j < lines.length && lines[j]?.startsWith('|'); j++)
      cells.push(/^\| `([^`]*)`/u.exec(lines[j] as string)?.[1] ?? (lines[j] as string));
  });
  return cells;
}

const program = buildProgram(
  { out: () => {}, err: () => {} } as unknown as CliIo,
  {
    env: {},
  } as unknown as CliDeps,
);

/** Every command without subcommands, by its path (`import outputs`). */
function leaves(cmd: Command, path: string[] = []): Map<string, Command> {
  const out = new Map<string, Command>();
  if (cmd.commands.length === 0 && path.length > 0) out.set(path.join(' '), cmd);
  for (const sub of cmd.commands)
    for (const [p, c] of leaves(sub, [...path, sub.name()])) out.set(p, c);
  return out;
}

/** The command a row's usage names (its leading words that are commands) and the flags it shows. */
function rowCommand(usage: string): { path: string; cmd: Command; flags: string[] } {
  let cmd = program;
  const path: string[] = [];
  for (const word of usage.split(' ')) {
    const sub = cmd.commands.find((c) => c.name() === word);
    if (!sub) break;
    cmd = sub;
    path.push(word);
  }
  return {
    path: path.join(' '),
    cmd,
    flags: [...usage.matchAll(/--[a-z][a-z-]*/gu)].map((m) => m[0]),
  };
}

describe("the README's command tables", () => {
  const rows = firstCells('| command | what it does |').map(rowCommand);
  const commands = leaves(program);

  it('every command has a row, and every row names a command', () => {
    expect(rows.length).toBeGreaterThan(20);
    const named = new Set(rows.map((r) => r.path));
    expect([...commands.keys()].filter((p) => !named.has(p))).toEqual([]);
    expect(rows.filter((r) => !commands.has(r.path)).map((r) => r.path)).toEqual([]);
  });

  it("a row's flags are its command's, and every flag of a command is in one of its rows", () => {
    const unknown = rows.flatMap((r) => {
      const known = new Set((r.cmd.options as Option[]).map((o) => o.long));
      return r.flags.filter((f) => !known.has(f)).map((f) => `${r.path} ${f}`);
    });
    expect(unknown).toEqual([]);
    const missing = [...commands].flatMap(([path, cmd]) => {
      const shown = new Set(rows.filter((r) => r.path === path).flatMap((r) => r.flags));
      return (cmd.options as Option[])
        .map((o) => o.long as string)
        .filter((f) => !shown.has(f))
        .map((f) => `${path} ${f}`);
    });
    expect(missing).toEqual([]);
  });

  it("a flag with a fixed list of values lists every value across its command's rows (`--view …\\|style`)", () => {
    const listed = new Map<string, Set<string>>();
    for (const usage of firstCells('| command | what it does |')) {
      const { path } = rowCommand(usage);
      for (const m of usage.matchAll(
        /(--[a-z][a-z-]*) ([a-z_][a-z0-9_-]*(?:\\?\|[a-z_][a-z0-9_-]*)*)/gu,
      )) {
        const key = `${path} ${m[1]}`;
        const values = listed.get(key) ?? new Set<string>();
        for (const v of (m[2] as string).split(/\\?\|/u)) values.add(v);
        listed.set(key, values);
      }
    }
    const wrong = [...listed].flatMap(([key, values]) => {
      const [path, flag] = [
        key.slice(0, key.lastIndexOf(' ')),
        key.slice(key.lastIndexOf(' ') + 1),
      ];
      const option = (commands.get(path)?.options as Option[] | undefined)?.find(
        (o) => o.long === flag,
      );
      const choices = option?.argChoices;
      if (!choices) return [];
      const shown = [...values].sort().join('|');
      const all = [...choices].sort().join('|');
      return shown === all ? [] : [`${key}: ${shown}, the command takes ${all}`];
    });
    expect(listed.size).toBeGreaterThan(3);
    expect(wrong).toEqual([]);
  });
});

describe("the README's suite table", () => {
  it('has each suite of config/suites/ exactly once', () => {
    const listed = firstCells('| suite | what | items on the public dev/test samples |');
    const shipped = [
      ...loadConfig({ configDir: join(PROJECT_ROOT, 'config'), env: {} }).suites.keys(),
    ];
    expect([...listed].sort()).toEqual([...shipped].sort());
  });
});

describe("the README's environment table", () => {
  it('names each variable the configuration reads, and no other', () => {
    const lines = readme.split('\n');
    const at = lines.findIndex((l) => l.trim() === '| variable | meaning |');
    const names: string[] = [];
    for (let j = at + 2; lines[j]?.startsWith('|'); j++) {
      const first = (lines[j] as string).split('|')[1] ?? '';
      names.push(...[...first.matchAll(/`([A-Z_]+)`/gu)].map((m) => m[1] as string));
    }
    expect(names.sort()).toEqual(Object.keys(envSchema.shape).sort());
  });
});
