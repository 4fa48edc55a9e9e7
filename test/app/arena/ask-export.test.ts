/**
 * Export round trip: after 30 arena battles with votes, `zhujiu export battles` then
 * `zhujiu ratings --battles FILE` gives the same ratings as `zhujiu ratings` on the database; the same for an
 * imported source, and the file reads back through `zhujiu import battles`. Runs the real CLI in-process
 * (`runCli`) on the open PGlite database the battles were played on.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import { appConfigSchema } from '../../../src/config/schema.ts';
import { systemClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { createRng } from '../../../src/core/rng.ts';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import type { Runtime } from '../../../src/main.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { scriptedModels } from '../../helpers/live-models.ts';
import { inProcess, runtimeOn } from '../../helpers/run-cli.ts';
import { counterSeeds, SECRET, terminal, terminalShell } from './helpers.ts';

const zhujiu = (args: string[], rt: Runtime) => inProcess(args, { rt });

type Row = { model: string; rating: number | null; rank: number | null; num_battles: number };

function ratingsOf(stdout: string): Map<string, Row> {
  const j = JSON.parse(stdout) as { models: Row[] };
  return new Map(j.models.map((m) => [m.model, m]));
}

const STRENGTH: Record<string, number> = {
  'live-a': 1.2,
  'live-b': 0.6,
  'live-c': 0,
  'live-d': -0.5,
};

describe('export battles round trip', () => {
  let d: TestDb;
  let rt: Runtime;
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-export-'));

  beforeAll(async () => {
    d = await freshDb('pglite');
    // 30 live battles asked with /ask in the terminal (scripted models on the fake OpenAI-compatible server),
    // voted on by 1–4 people each; the stronger model wins more often; one follow-up makes a 2-turn battle.
    const names = Object.keys(STRENGTH);
    const models = await scriptedModels(
      d.db,
      (m, msgs) => `Answer ${msgs.length} from ${m.slice(-1)}.`,
    );
    const term = terminal();
    const config = appConfigSchema.parse({
      arena: {
        window_hours: 1,
        identity_guard: { words: [], patterns: [] },
        ask: { rate_limit: { max: 1000, window_minutes: 1 }, progress_every_ms: 0 },
      },
    });
    const shell = terminalShell(term, config, { sessionTag: 'x' });
    const bot = new BotService({
      db: d.db,
      config,
      platforms: [shell],
      logger: silentLogger,
      clock: systemClock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      seedSource: counterSeeds(),
      live: { models: await models.live(names) },
    });
    await bot.start();
    const rng = createRng(7);
    for (let i = 1; i <= 30; i++) {
      await shell.say(`/ask Question ${i}: explain tides.`);
      const b = await getBattle(d.db, i);
      if (!b) throw new Error(`battle ${i} was not posted`);
      const [l, r] = [STRENGTH[b.leftModel] as number, STRENGTH[b.rightModel] as number];
      const voters = 1 + rng.int(4);
      for (let v = 0; v < voters; v++) {
        const p = 1 / (1 + 10 ** (r - l));
        const u = rng.next();
        const choice = u < 0.15 ? 'equal' : u < 0.15 + 0.85 * p ? 'left' : 'right';
        await shell.say(`as user${v} vote ${i} ${choice}`);
      }
      // A vote taken back: never exported, never rated.
      await shell.say(`as fickle vote ${i} left`);
      await shell.say(`as fickle unvote ${i}`);
    }
    await shell.say('reply 1 And spring tides?');
    await bot.stop();
    await models.close();
    rt = await runtimeOn(d, { ZHUJIU_VOTER_SECRET: SECRET });
  });
  afterAll(async () => d?.destroy().catch(() => undefined));

  it('export battles → ratings --battles equals ratings on the database', async () => {
    const out = join(dir, 'arena.jsonl');
    const e = await zhujiu(['export', 'battles', '--out', out], rt);
    expect(e.code, e.stderr).toBe(0);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    expect(e.stdout).toContain(`exported ${lines.length} votes of 30 battles from source arena`);
    const first = JSON.parse(lines[0] as string) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual([
      'question_id',
      'model_a',
      'model_b',
      'winner',
      'judge',
      'turn',
      'anony',
      'language',
      'tstamp',
      'conv_metadata',
    ]);
    // The style fields FastChat's preprocess_for_style reads, from the stored answers (docs/scoring.md §4.6).
    expect(Object.keys(first.conv_metadata as object)).toEqual([
      'sum_assistant_a_tokens',
      'header_count_a',
      'list_count_a',
      'bold_count_a',
      'sum_assistant_b_tokens',
      'header_count_b',
      'list_count_b',
      'bold_count_b',
    ]);
    expect(first.judge).toMatch(/^arena_user_[0-9a-f]{16}$/);
    expect(readFileSync(out, 'utf8')).not.toContain(hashVoterId(SECRET, 'shell', 'user0'));
    expect(lines.map((l) => (JSON.parse(l) as { turn: number }).turn).sort()).toContain(2);
    const fromDb = await zhujiu(['ratings', '--json', '--bootstrap', '0'], rt);
    expect(fromDb.code, fromDb.stderr).toBe(0);
    const fromFile = await zhujiu(['ratings', '--json', '--bootstrap', '0', '--battles', out], rt);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    const a = ratingsOf(fromDb.stdout);
    const b = ratingsOf(fromFile.stdout);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    for (const [m, r] of a) {
      expect(b.get(m)?.rating, m).toBeCloseTo(r.rating as number, 9);
      expect(b.get(m)?.rank, m).toBe(r.rank);
    }
    // Style control (docs/scoring.md §4.6): the stored answers and the exported conv_metadata give one fit.
    const styleArgs = ['ratings', '--style-control', '--json', '--bootstrap', '0'];
    const sDb = await zhujiu(styleArgs, rt);
    expect(sDb.code, sDb.stderr).toBe(0);
    const sFile = await zhujiu([...styleArgs, '--battles', out], rt);
    expect(sFile.code, sFile.stderr).toBe(0);
    expect(JSON.parse(sFile.stdout)).toEqual(JSON.parse(sDb.stdout));
    expect((JSON.parse(sDb.stdout) as { battles: number }).battles).toBe(lines.length);
    // jsonl carries our fields and is read back the same way.
    const outJ = join(dir, 'arena-our.jsonl');
    const j = await zhujiu(
      ['export', 'battles', '--format', 'jsonl', '--out', outJ, '--since', '2026-11-01'],
      rt,
    );
    expect(j.code, j.stderr).toBe(0);
    const lj = JSON.parse(readFileSync(outJ, 'utf8').split('\n')[0] as string) as Record<
      string,
      unknown
    >;
    expect(lj).toMatchObject({ source: 'arena', kind: 'live', platform: 'shell' });
    const fromJ = ratingsOf(
      (await zhujiu(['ratings', '--json', '--bootstrap', '0', '--battles', outJ], rt)).stdout,
    );
    for (const [m, r] of a) expect(fromJ.get(m)?.rating, m).toBeCloseTo(r.rating as number, 9);
    // --since in the future: nothing; to stdout, the summary on stderr.
    const none = await zhujiu(['export', 'battles', '--since', '2030-01-01'], rt);
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('');
    expect(none.stderr).toContain('exported 0 votes of 0 battles from source arena');
    const bad = await zhujiu(['export', 'battles', '--since', 'yesterday'], rt);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--since must be a date like 2026-11-30');
    const typo = await zhujiu(['export', 'battles', '--source', 'lmsyss'], rt);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^error \[input_invalid\]: --source lmsyss: no battles of that source are stored in .*; stored sources: arena \(\d+ votes\)/,
    );
  });

  it('an imported source exports back to the same ratings, and re-imports', async () => {
    const src = join(dir, 'public.jsonl');
    const rng = createRng(11);
    const names = ['pub-x', 'pub-y', 'pub-z'];
    const W = ['model_a', 'model_b', 'tie', 'tie (bothbad)'];
    const rows: string[] = [];
    for (let i = 0; i < 200; i++) {
      const a = names[i % 3] as string;
      const b = names[(i + 1) % 3] as string;
      rows.push(JSON.stringify({ model_a: a, model_b: b, winner: W[rng.int(4)] }));
    }
    writeFileSync(src, `${rows.join('\n')}\n`);
    const imp = await zhujiu(['import', 'battles', src, '--source', 'public'], rt);
    expect(imp.code, imp.stderr).toBe(0);
    const out = join(dir, 'public-export.jsonl');
    const e = await zhujiu(['export', 'battles', '--source', 'public', '--out', out], rt);
    expect(e.code, e.stderr).toBe(0);
    expect(e.stdout).toContain('exported 200 votes of 200 battles from source public');
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('"winner":"tie (bothbad)"');
    const orig = ratingsOf(
      (await zhujiu(['ratings', '--json', '--bootstrap', '0', '--battles', src], rt)).stdout,
    );
    const back = ratingsOf(
      (await zhujiu(['ratings', '--json', '--bootstrap', '0', '--battles', out], rt)).stdout,
    );
    for (const [m, r] of orig) expect(back.get(m)?.rating, m).toBeCloseTo(r.rating as number, 9);
    // `ratings --source public` counts the community's votes and the source's: the two exports together.
    const arenaOut = join(dir, 'arena-again.jsonl');
    expect((await zhujiu(['export', 'battles', '--out', arenaOut], rt)).code).toBe(0);
    const both = join(dir, 'arena-and-public.jsonl');
    writeFileSync(both, readFileSync(arenaOut, 'utf8') + text);
    const stored = ratingsOf(
      (await zhujiu(['ratings', '--json', '--bootstrap', '0', '--source', 'public'], rt)).stdout,
    );
    const fromFiles = ratingsOf(
      (await zhujiu(['ratings', '--json', '--bootstrap', '0', '--battles', both], rt)).stdout,
    );
    expect([...fromFiles.keys()].sort()).toEqual([...stored.keys()].sort());
    for (const [m, r] of stored)
      expect(fromFiles.get(m)?.rating, m).toBeCloseTo(r.rating as number, 9);
    // Our own import reads the export back.
    const re = await zhujiu(['import', 'battles', out, '--source', 'public-again'], rt);
    expect(re.code, re.stderr).toBe(0);
    expect(re.stdout).toContain('imported 200 battles (200 votes) from source public-again');
  });
});
