/** Battles marked `"anony": false` in a ratings file: left out (and said so) unless `--include-named`. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRatings } from '../../../src/cli/ratings.ts';
import { parseArenaLines } from '../../../src/import/formats/arena-battles.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-named-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (a: string, b: string, winner: string, anony?: unknown) =>
  JSON.stringify({ model_a: a, model_b: b, winner, ...(anony === undefined ? {} : { anony }) });

describe('named battles in a ratings file', () => {
  it('are left out by default and counted with includeNamed', () => {
    const lines = [
      line('x', 'y', 'model_a', true),
      line('x', 'y', 'model_b', false),
      line('y', 'x', 'tie'),
    ];
    expect(parseArenaLines(lines).totalVotes).toBe(2);
    expect(parseArenaLines(lines, 'f', { includeNamed: true }).totalVotes).toBe(3);
  });

  it('a file of named battles only says how to rate them; a bad "anony" names the line', () => {
    expect(() => parseArenaLines([line('x', 'y', 'model_a', false)], 'f.jsonl')).toThrow(
      /f\.jsonl: its 1 battle is marked "anony": false .*--include-named/,
    );
    expect(() => parseArenaLines([line('x', 'y', 'model_a', 'no')], 'f.jsonl')).toThrow(
      /f\.jsonl:1: "anony" must be true or false/,
    );
  });

  it('the table says how many were left out', async () => {
    const file = join(dir, 'b.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) lines.push(line('x', 'y', i % 3 === 0 ? 'model_b' : 'model_a'));
    lines.push(line('x', 'y', 'model_b', false), line('x', 'y', 'model_b', false));
    writeFileSync(file, `${lines.join('\n')}\n`);
    let out = '';
    await runRatings({ battles: file, bootstrap: 0 }, { out: (s) => (out += s) });
    expect(out).toContain('Left out: 2 battles marked "anony": false');
    out = '';
    await runRatings(
      { battles: file, bootstrap: 0, includeNamed: true },
      { out: (s) => (out += s) },
    );
    expect(out).not.toContain('Left out');
  });
});
