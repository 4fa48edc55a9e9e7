/**
 * Config that does nothing: every leaf key of the config schema is read somewhere in `src/`
 * outside `src/config/`, so a key can't silently stop doing what its comment says. A key `a.b.c` counts as read
 * when a source file that names its parent `b` also reads `.c` or destructures `{ …c… }`. Keys read generically
 * (by iterating an object) are listed in ALLOWED with the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { appConfigSchema } from '../../../src/config/schema.ts';

/** Key prefixes read without naming each key (each with where and how). */
const ALLOWED: Readonly<Record<string, string>> = {
  // src/arena/emoji.ts: `new EmojiMap(config.arena.emoji)` reads sets[platform][choice] for every platform and
  // every choice of CHOICES (left, equal, right).
  'arena.emoji.': 'read by EmojiMap for each platform and choice',
  // src/arena/service.ts `#view` and src/arena/ask.ts: `max_messages[platform]` for the battle's platform.
  'arena.max_messages.': 'read by platform name where a battle or a turn is posted',
};

const WRAPPERS = new Set(['default', 'prefault', 'optional', 'nullable', 'readonly', 'catch']);

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
};

/** Every leaf key path of a zod object schema (objects are walked through defaults, optionals and pipes). */
function leafPaths(schema: z.ZodType, prefix: string[] = []): string[][] {
  let s = schema;
  for (;;) {
    const def = (s as unknown as { _zod: { def: Def } })._zod.def;
    if (WRAPPERS.has(def.type) && def.innerType) s = def.innerType;
    else if (def.type === 'pipe' && def.in) s = def.in;
    else break;
  }
  const def = (s as unknown as { _zod: { def: Def } })._zod.def;
  if (def.type !== 'object' || !def.shape) return [prefix];
  return Object.entries(def.shape).flatMap(([k, v]) => leafPaths(v, [...prefix, k]));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return p.endsWith(join('src', 'config')) ? [] : sourceFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether a file that names the key's parent reads the key (`.leaf`, `['leaf']` or a destructuring). */
function isRead(path: readonly string[], texts: readonly string[]): boolean {
  const leaf = path[path.length - 1] as string;
  const parent = path[path.length - 2];
  const reads = new RegExp(
    `(\\.${esc(leaf)}\\b|\\[['"]${esc(leaf)}['"]\\]|\\{[^}]*\\b${esc(leaf)}\\b[^}]*\\}\\s*=)`,
  );
  const names = parent === undefined ? /./ : new RegExp(`\\b${esc(parent)}\\b`);
  return texts.some((t) => names.test(t) && reads.test(t));
}

describe('config keys', () => {
  it('the walk finds the known leaves', () => {
    const paths = leafPaths(appConfigSchema).map((p) => p.join('.'));
    expect(paths).toContain('aggregation.seed');
    expect(paths).toContain('ratings.include_sources');
    expect(paths.length).toBeGreaterThan(20);
  });

  it('every schema key is read outside src/config/ (or allowlisted with a reason)', () => {
    const texts = sourceFiles('src').map((f) => readFileSync(f, 'utf8'));
    const unread = leafPaths(appConfigSchema)
      .filter((path) => !Object.keys(ALLOWED).some((a) => path.join('.').startsWith(a)))
      .filter((path) => !isRead(path, texts))
      .map((p) => p.join('.'));
    expect(unread).toEqual([]);
  });

  it('the check reports a key that nothing reads', () => {
    const texts = [
      'const r = cfg.ratings.bootstrap;',
      'const { seed } = aggregation;',
      "x['ratings'];",
    ];
    expect(isRead(['ratings', 'bootstrap'], texts)).toBe(true);
    expect(isRead(['aggregation', 'seed'], texts)).toBe(true);
    expect(isRead(['ratings', 'never_read_key'], texts)).toBe(false);
    // The leaf read under another parent does not count.
    expect(isRead(['judge', 'bootstrap'], texts)).toBe(false);
  });
});
