/**
 * The rules of the house (docs/architecture.md), checked over the source tree: a rule broken by a later change fails
 * here with the file and line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/shared-data.ts';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

const SRC = join(PROJECT_ROOT, 'src');
const all = files(SRC).map((f) => ({
  file: relative(PROJECT_ROOT, f),
  lines: readFileSync(f, 'utf8').split('\n'),
}));

function offenders(pattern: RegExp, allowed: (file: string) => boolean): string[] {
  const found: string[] = [];
  for (const { file, lines } of all) {
    if (allowed(file)) continue;
    lines.forEach((l, i) => {
      if (pattern.test(l) && !/^\s*(\*|\/\/)/.test(l)) found.push(`${file}:${i + 1}: ${l.trim()}`);
    });
  }
  return found;
}

describe('architecture rules', () => {
  it('pure modules never read the clock or Math.random()', () => {
    const pure = (f: string) => /^src\/(rating|aggregate|eval\/metrics|text)\//.test(f);
    expect(
      offenders(/Math\.random\(|Date\.now\(|new Date\(\)|performance\.now\(/, (f) => !pure(f)),
    ).toEqual([]);
  });

  it('outside core/, randomness comes from the seeded Rng', () => {
    expect(offenders(/Math\.random\(/, (f) => f.startsWith('src/core/'))).toEqual([]);
  });

  it('only config/ reads the environment', () => {
    expect(offenders(/process\.env/, (f) => f.startsWith('src/config/'))).toEqual([]);
  });

  it('only storage/ writes SQL', () => {
    expect(
      offenders(/from 'kysely'.*\bsql\b|\bsql`|from 'pg'/, (f) => f.startsWith('src/storage/')),
    ).toEqual([]);
  });

  it('only chat/<platform>/ imports a chat SDK', () => {
    expect(
      offenders(/from 'discord\.js'|from '@discordjs\//, (f) => f.startsWith('src/chat/discord/')),
    ).toEqual([]);
    expect(offenders(/from '@slack\//, (f) => f.startsWith('src/chat/slack/'))).toEqual([]);
  });

  it('chat/ is the platform layer only: it imports no arena, bot, eval, board or storage', () => {
    expect(
      offenders(
        /from '\.\.\/(\.\.\/)?(arena|bot|eval|leaderboard|storage|aggregate|jobs|llm)\//,
        (f) => !f.startsWith('src/chat/'),
      ),
    ).toEqual([]);
  });

  it('only llm/ imports openai; only jobs/ imports pg-boss', () => {
    expect(offenders(/from 'openai'|from 'openai\//, (f) => f.startsWith('src/llm/'))).toEqual([]);
    expect(offenders(/from 'pg-boss'/, (f) => f.startsWith('src/jobs/'))).toEqual([]);
  });

  it('parsers of outside formats live under import/formats/ and do no I/O', () => {
    expect(
      offenders(
        /from 'node:fs'|from 'node:fs\/promises'/,
        (f) => !f.startsWith('src/import/formats/'),
      ),
    ).toEqual([]);
  });
});
