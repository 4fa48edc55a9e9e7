/** `zhujiu ratings --style-control --battles FILE` (runRatings in-process): JSON shape, table, errors. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRatings } from '../../../src/cli/ratings.ts';

const fixture = join(import.meta.dirname, 'fixtures', 'style-control');
const file = join(fixture, 'battles.fastchat.jsonl');
const expected = JSON.parse(readFileSync(join(fixture, 'expected.json'), 'utf8')) as {
  ratings: Record<string, number>;
  coefficients: number[];
};
const dir = mkdtempSync(join(tmpdir(), 'zhujiu-style-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(opts: Parameters<typeof runRatings>[0]): Promise<string> {
  let out = '';
  await runRatings(opts, { out: (s) => (out += s) });
  return out;
}

interface StyleJson {
  models: {
    model: string;
    rating: number;
    rating_lo: number | null;
    rank: number;
    num_battles: number;
  }[];
  style_coefficients: Record<string, { coefficient: number; lo: number | null; hi: number | null }>;
  battles: number;
  left_out: number;
}

describe('ratings --style-control --battles', () => {
  it('prints the fixture reference ratings and coefficients (JSON, no bootstrap)', async () => {
    const j = JSON.parse(
      await run({ battles: file, styleControl: true, bootstrap: 0, json: true }),
    ) as StyleJson;
    expect(j.battles).toBe(120);
    expect(j.left_out).toBe(0);
    for (const m of j.models) {
      expect(Math.abs(m.rating - expected.ratings[m.model]!)).toBeLessThan(1e-6);
      expect(m.rating_lo).toBeNull();
    }
    ['length', 'header', 'list', 'bold'].forEach((f, k) => {
      expect(
        Math.abs(j.style_coefficients[f]!.coefficient - expected.coefficients[k]!),
      ).toBeLessThan(1e-6);
    });
    expect(j.models.map((m) => m.rating)).toEqual(
      [...j.models.map((m) => m.rating)].sort((a, b) => b - a),
    );
  });

  it('prints a table with intervals and the coefficients', async () => {
    const t = await run({ battles: file, styleControl: true, bootstrap: 20, seed: 3 });
    expect(t).toContain('Style-controlled Bradley–Terry');
    expect(t).toContain('answer length: 0.6359 (95% CI');
    expect(t).toContain('20 bootstrap rounds, seed 3');
  });

  it('leaves out lines without conv_metadata and says how many', async () => {
    const f = join(dir, 'mixed.jsonl');
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    writeFileSync(f, [...lines, '{"model_a":"x","model_b":"y","winner":"tie"}'].join('\n'));
    const j = JSON.parse(
      await run({ battles: f, styleControl: true, bootstrap: 0, json: true }),
    ) as StyleJson;
    expect(j.left_out).toBe(1);
    expect(j.models.map((m) => m.model)).not.toContain('x');
  });

  it('refuses a file without style metadata, a malformed count, and --anchor', async () => {
    const none = join(dir, 'none.jsonl');
    writeFileSync(none, '{"model_a":"x","model_b":"y","winner":"tie"}\n');
    await expect(run({ battles: none, styleControl: true })).rejects.toThrow(
      /no battle line has conv_metadata.*export battles --format fastchat/,
    );
    const bad = join(dir, 'bad.jsonl');
    const first = JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as {
      conv_metadata: Record<string, unknown>;
    };
    first.conv_metadata.list_count_b = { ordered: -1 };
    writeFileSync(bad, `${JSON.stringify(first)}\n`);
    await expect(run({ battles: bad, styleControl: true })).rejects.toThrow(
      /bad\.jsonl:1: conv_metadata\.list_count_b must be an integer ≥ 0/,
    );
    await expect(
      run({ battles: file, styleControl: true, anchor: 'plain-7b=1000' }),
    ).rejects.toThrow(/--anchor is not supported with --style-control/);
  });
});
