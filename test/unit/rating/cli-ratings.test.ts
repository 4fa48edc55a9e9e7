/** runRatings: JSON shape, text table, options and errors, on small inline fixtures in a temp folder. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runRatings } from '../../../src/cli/ratings.ts';
import { createRng } from '../../../src/core/rng.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-ratings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const strengths: Record<string, number> = {
  'model-a': 1150,
  'model-b': 1050,
  'model-c': 1000,
  'model-d': 900,
};
function battlesFile(): string {
  const rng = createRng(9);
  const names = Object.keys(strengths);
  const lines: string[] = [];
  for (let n = 0; n < 600; n++) {
    const i = rng.int(4);
    let j = rng.int(3);
    if (j >= i) j++;
    const p = 1 / (1 + 10 ** ((strengths[names[j]!]! - strengths[names[i]!]!) / 400));
    const u = rng.next();
    const winner = u < 0.1 ? 'tie' : u < 0.1 + 0.9 * p ? 'model_a' : 'model_b';
    lines.push(JSON.stringify({ model_a: names[i], model_b: names[j], winner }));
  }
  const f = join(dir, 'battles.jsonl');
  writeFileSync(f, `${lines.join('\n')}\n`);
  return f;
}
const file = battlesFile();

async function run(
  opts: Parameters<typeof runRatings>[0],
  io: Partial<Parameters<typeof runRatings>[1]> = {},
) {
  let text = '';
  await runRatings(opts, { out: (s) => (text += s), ...io });
  return text;
}

const KEYS = [
  'model',
  'rating',
  'rating_lo',
  'rating_hi',
  'elo',
  'rank',
  'num_battles',
  'avg_win_rate',
];

describe('runRatings', () => {
  it('--json prints exactly {"models":[…]} with the documented keys, sorted by rating', async () => {
    const out = await run({ battles: file, bootstrap: 50, seed: 3, json: true });
    const parsed = JSON.parse(out) as { models: Record<string, unknown>[] };
    expect(Object.keys(parsed)).toEqual(['models']);
    expect(parsed.models).toHaveLength(4);
    for (const m of parsed.models) {
      expect(Object.keys(m)).toEqual(KEYS);
      expect(typeof m.rating).toBe('number');
      expect(typeof m.elo).toBe('number');
      expect(m.rating_lo as number).toBeLessThanOrEqual(m.rating as number);
      expect(m.rating_hi as number).toBeGreaterThanOrEqual(m.rating as number);
      expect(Number.isInteger(m.rank)).toBe(true);
    }
    const ratings = parsed.models.map((m) => m.rating as number);
    expect([...ratings].sort((a, b) => b - a)).toEqual(ratings);
    expect(parsed.models[0]!.model).toBe('model-a');
    expect(parsed.models.reduce((s, m) => s + (m.num_battles as number), 0)).toBe(1200);
    // same seed → same output
    expect(await run({ battles: file, bootstrap: 50, seed: 3, json: true })).toBe(out);
  });

  it('anchors, and pair-count input has elo null', async () => {
    const f = join(dir, 'pairs.jsonl');
    writeFileSync(
      f,
      [
        { model_a: 'p', model_b: 'q', model_a_wins: 30, model_b_wins: 20, tie: 5, tie_bothbad: 5 },
        { model_a: 'q', model_b: 'r', model_a_wins: 25, model_b_wins: 25, tie: 0, tie_bothbad: 10 },
        { model_a: 'r', model_b: 'p', model_a_wins: 10, model_b_wins: 40, tie: 3, tie_bothbad: 0 },
      ]
        .map((o) => JSON.stringify(o))
        .join('\n'),
    );
    const parsed = JSON.parse(
      await run({ battles: f, bootstrap: 20, json: true, anchor: 'q=1200' }),
    ) as {
      models: { model: string; rating: number; rating_lo: number; rating_hi: number; elo: null }[];
    };
    const q = parsed.models.find((m) => m.model === 'q')!;
    expect(q.rating).toBe(1200);
    expect(q.rating_lo).toBe(1200);
    expect(q.rating_hi).toBe(1200);
    for (const m of parsed.models) expect(m.elo).toBeNull();
  });

  it('prints an aligned text table by default', async () => {
    const out = await run({ battles: file, bootstrap: 20 });
    const lines = out.split('\n');
    expect(lines[0]).toMatch(/^rank\s+model\s+rating\s+95% CI\s+elo\s+votes\s+avg win$/);
    expect(lines[2]).toMatch(/^\s+1\s+model-a\s+\d+\.\d/);
    expect(out).toMatch(/95% CI from 20 bootstrap rounds, seed 0/);
  });

  it('says "votes" for the count the board calls votes, singular and plural (not "battles")', async () => {
    const f = join(dir, 'one-win.jsonl');
    const rows = [
      { model_a: 'p', model_b: 'q', winner: 'model_a' },
      { model_a: 'q', model_b: 'p', winner: 'model_a' },
      { model_a: 'winner', model_b: 'p', winner: 'model_a' },
    ];
    writeFileSync(f, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const out = await run({ battles: f, bootstrap: 0 });
    expect(out).toMatch(/^\s+winner: unbounded above \(1 vote\): /m);
    expect(out).not.toMatch(/\bbattles\b/);
  });

  it('--bootstrap 0 gives null intervals', async () => {
    const parsed = JSON.parse(await run({ battles: file, bootstrap: 0, json: true })) as {
      models: { rating_lo: null; rank: number }[];
    };
    expect(parsed.models[0]!.rating_lo).toBeNull();
    expect(parsed.models.map((m) => m.rank)).toEqual([1, 2, 3, 4]);
  });

  it('uses the stored-battles loader without --battles, and errors clearly without one', async () => {
    let asked: string | undefined = 'unset';
    const out = await run(
      { bootstrap: 10, json: true, ability: 'reasoning' },
      {
        loadStoredBattles: async (ability) => {
          asked = ability;
          return {
            pairs: [
              {
                model_a: 'x',
                model_b: 'y',
                model_a_wins: 3,
                model_b_wins: 2,
                tie: 1,
                tie_bothbad: 0,
              },
            ],
          };
        },
      },
    );
    expect(asked).toBe('reasoning');
    expect(JSON.parse(out).models).toHaveLength(2);
    await expect(run({ json: true })).rejects.toThrow(/pass --battles FILE/);
  });

  it('rejects a malformed anchor, an unknown anchor model, bad numbers and bad lines', async () => {
    await expect(run({ battles: file, anchor: 'model-a' })).rejects.toThrow(
      '--anchor must be MODEL=RATING, e.g. mixtral-8x7b-instruct-v0.1=1114',
    );
    await expect(run({ battles: file, anchor: 'model-a=high' })).rejects.toThrow(
      /--anchor must be MODEL=RATING/,
    );
    await expect(run({ battles: file, anchor: 'gpt-9=1000' })).rejects.toThrow(
      /--anchor model "gpt-9" is not in the data/,
    );
    await expect(run({ battles: file, bootstrap: -1 })).rejects.toThrow(
      /--bootstrap must be an integer/,
    );
    await expect(run({ battles: join(dir, 'missing.jsonl') })).rejects.toThrow(/no such file/);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(
      bad,
      '{"model_a":"x","model_b":"y","winner":"model_a"}\n{"model_a":"x","model_b":"y","winner":"left"}\n',
    );
    await expect(run({ battles: bad })).rejects.toThrow(/bad\.jsonl:2: unknown winner "left"/);
  });

  it('lists models without a finite rating after the rated ones', async () => {
    const f = join(dir, 'degenerate.jsonl');
    const lines = [
      ...Array.from({ length: 5 }, () => '{"model_a":"x","model_b":"y","winner":"model_a"}'),
      ...Array.from({ length: 5 }, () => '{"model_a":"x","model_b":"y","winner":"model_b"}'),
      '{"model_a":"champ","model_b":"x","winner":"model_a"}',
    ];
    writeFileSync(f, lines.join('\n'));
    const parsed = JSON.parse(await run({ battles: f, bootstrap: 10, json: true })) as {
      models: { model: string; rating: number | null; rank: number | null }[];
    };
    expect(parsed.models.map((m) => m.model)).toEqual(['x', 'y', 'champ']);
    expect(parsed.models[2]).toMatchObject({ rating: null, rank: null });
    const text = await run({ battles: f, bootstrap: 10 });
    expect(text).toMatch(/champ: unbounded above \(1 vote\)/);
  });

  it('after the first vote (two models, one vote) lists both unrated with reasons, exit 0, table and JSON', async () => {
    const one = {
      pairs: [
        {
          model_a: 'claude-2',
          model_b: 'alpaca-7b',
          model_a_wins: 1,
          model_b_wins: 0,
          tie: 0,
          tie_bothbad: 0,
        },
      ],
    };
    const stored = { loadStoredBattles: async () => one };
    const parsed = JSON.parse(await run({ bootstrap: 10, json: true }, stored)) as {
      models: Record<string, unknown>[];
    };
    expect(Object.keys(parsed)).toEqual(['models']);
    expect(parsed.models.map((m) => [m.model, m.rating, m.rank, m.num_battles])).toEqual([
      ['claude-2', null, null, 1],
      ['alpaca-7b', null, null, 1],
    ]);
    expect(parsed.models.every((m) => /^not rated: /.test(String(m.note)))).toBe(true);
    const text = await run({ bootstrap: 10 }, stored);
    expect(text).toMatch(/No model has a rating yet/);
    expect(text).toMatch(/alpaca-7b: unbounded below \(1 vote\)/);
    expect(text).toMatch(/claude-2: unbounded above \(1 vote\)/);
    expect(text).toMatch(/elo needs ordered battles/); // stored votes are counts
    // The same from a file.
    const f = join(dir, 'first-vote.jsonl');
    writeFileSync(f, '{"model_a":"claude-2","model_b":"alpaca-7b","winner":"model_a"}\n');
    const fromFile = JSON.parse(await run({ battles: f, bootstrap: 10, json: true })) as {
      models: { rating: null }[];
    };
    expect(fromFile.models.map((m) => m.rating)).toEqual([null, null]);
  });

  it('caps --bootstrap with a clear message', async () => {
    await expect(run({ battles: file, bootstrap: 99_999_999_999 })).rejects.toThrow(
      /--bootstrap must be an integer from 0 to 100000, got 99999999999/,
    );
  });

  it('shows an unbounded bound as ∞ with a note, and as null with a "note" in JSON', async () => {
    const f = join(dir, 'tiny.jsonl');
    writeFileSync(
      f,
      '{"model_a":"a","model_b":"b","model_a_wins":3,"model_b_wins":1,"tie":0,"tie_bothbad":0}\n',
    );
    const text = await run({ battles: f, bootstrap: 200 });
    expect(text).toMatch(/\d – ∞/u);
    expect(text).not.toMatch(/Infinity/u);
    expect(text).toMatch(/∞: in more than 2.5 % of the bootstrap rounds the model had only wins/u);
    const parsed = JSON.parse(await run({ battles: f, bootstrap: 200, json: true })) as {
      models: Record<string, unknown>[];
    };
    const a = parsed.models.find((m) => m.model === 'a');
    expect(a).toMatchObject({ rating_hi: null });
    expect(String(a?.note)).toMatch(/rating_hi unbounded/u);
    for (const m of parsed.models) {
      const nulls = m.rating === null || m.rating_lo === null || m.rating_hi === null;
      expect('note' in m).toBe(nulls);
    }
  });
});

describe('a zero-width bootstrap interval', () => {
  it('a>b plus one b=c tie: b and c show "too few votes", never 1000.0 – 1000.0; JSON bounds null with a note', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-ratings-nospread-'));
    const f = join(dir, 'blank_b.jsonl');
    writeFileSync(
      f,
      '{"model_a":"a","model_b":"b","winner":"model_a"}\n{"model_a":"b","model_b":"c","winner":"tie"}\n',
    );
    const chunks: string[] = [];
    const io = { out: (s: string) => chunks.push(s) };
    await runRatings({ battles: f, bootstrap: 200 }, io);
    const text = chunks.join('');
    expect(text).not.toMatch(/1000\.0 – 1000\.0/u);
    expect(text).toMatch(/^\s+1\s+b\s+1000\.0\s+too few votes/mu);
    expect(text).toMatch(/^\s+1\s+c\s+1000\.0\s+too few votes/mu);
    expect(text).toMatch(/too few votes: every bootstrap round gave the model the same rating/u);
    chunks.length = 0;
    await runRatings({ battles: f, bootstrap: 200, json: true }, io);
    const parsed = JSON.parse(chunks.join('')) as { models: Record<string, unknown>[] };
    for (const m of ['b', 'c']) {
      const row = parsed.models.find((x) => x.model === m);
      expect(row).toMatchObject({ rating: 1000, rating_lo: null, rating_hi: null });
      expect(String(row?.note)).toMatch(
        /not shown: every bootstrap round gave the model the same rating/u,
      );
    }
  });
});
