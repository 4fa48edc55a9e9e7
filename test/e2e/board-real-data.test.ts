/**
 * The board on real data: GAOKAO-Bench GPT-4-0314 objective answers scored per item (Metrics, stored as a finished
 * run), the recorded GPT-4-1106-preview grades of its subjective answers (Scoring, imported judge scores), and the
 * AlpacaEval GPT-4-turbo preferences of five models against gpt4_1106_preview as arena votes (Comparative).
 * The board shows every method, a final score with an interval, and empty cells where data is missing.
 * Skipped (with a message) when ../shared/data is absent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { importJudgments } from '../../src/import/judgments.ts';
import { LeaderboardService } from '../../src/leaderboard/service.ts';
import { boardJson } from '../../src/leaderboard/views.ts';
import { addBattles, addRun } from '../helpers/board-data.ts';
import { freshDb, type TestDb } from '../helpers/db.ts';
import { hasSharedData, sharedData } from '../helpers/shared-data.ts';

const OBJ = ['outputs', 'gaokao_bench', 'gpt-4-0314_objective'];
const SUBJ = ['outputs', 'gaokao_bench', 'gpt-4-0314_subjective_judged_by_gpt-4-1106-preview'];
const AE = ['outputs', 'alpaca_eval', 'annotations_weighted_alpaca_eval_gpt4_turbo'];
const present = hasSharedData(...OBJ) && hasSharedData(...SUBJ) && hasSharedData(...AE);

describe.skipIf(!present)('the board on real data', () => {
  let db: TestDb;
  let svc: LeaderboardService;
  let earned = 0;
  let possible = 0;
  beforeAll(async () => {
    db = await freshDb('pglite');
    // Metrics: GAOKAO-Bench's objective rule per item (each equal sub-answer earns the item's score; Physics
    // multi-select: exact full, strict subset half).
    const scores: { key: string; raw: number; max: number }[] = [];
    for (const f of readdirSync(sharedData(...OBJ)).filter((x) => x.endsWith('.json'))) {
      const j = JSON.parse(readFileSync(join(sharedData(...OBJ), f), 'utf8')) as {
        keyword: string;
        example: {
          index: number;
          score: number;
          standard_answer: string[];
          model_answer: string[];
        }[];
      };
      for (const e of j.example) {
        const std = e.standard_answer;
        const ans = e.model_answer ?? [];
        const max = std.length * e.score;
        let raw = 0;
        if (j.keyword.includes('Physics')) {
          const a = new Set(ans.join('').split(''));
          const s = new Set(std.join('').split(''));
          const subset = [...a].every((x) => s.has(x));
          raw = a.size === s.size && subset ? max : subset && a.size > 0 ? max / 2 : 0;
        } else if (ans.length === std.length) {
          raw = std.reduce((n, x, i) => n + (ans[i] === x ? e.score : 0), 0);
        }
        earned += raw;
        possible += max;
        scores.push({ key: `${j.keyword}#${e.index}`, raw, max });
      }
    }
    await addRun(db.db, {
      model: 'gpt-4-0314',
      suite: 'gaokao-objective',
      dataset: 'gaokao_objective',
      ability: 'knowledge',
      method: 'metrics',
      scores,
    });
    // Scoring: the recorded judge grades.
    await importJudgments(db.db, {
      path: sharedData(...SUBJ),
      format: 'gaokao',
      judge: 'gpt-4-1106-preview',
    });
    // Comparative: preference 1 = baseline better, 2 = model better (ties near 1.5).
    const battles: { a: string; b: string; choice: 'left' | 'right' | 'equal' }[] = [];
    for (const f of readdirSync(sharedData(...AE))) {
      for (const line of readFileSync(join(sharedData(...AE), f), 'utf8').split('\n')) {
        if (!line.trim()) continue;
        const r = JSON.parse(line) as {
          generator_1: string;
          generator_2: string;
          preference: number | null;
        };
        const p = r.preference ?? 1.5;
        battles.push({
          a: r.generator_1,
          b: r.generator_2,
          choice: p < 1.4 ? 'left' : p > 1.6 ? 'right' : 'equal',
        });
      }
    }
    await addBattles(db.db, 'arena', 'language', battles);
    svc = new LeaderboardService({
      db: db.db,
      clock: systemClock,
      logger: silentLogger,
      aggregation: { min_votes: 20, bootstrap: 300, seed: 0 },
      compute: 'inline',
      inlineChart: false,
    });
  });
  afterAll(async () => {
    await svc?.close();
    await db?.destroy();
  });

  it('shows every method, final scores with intervals, and empty cells where data is missing', async () => {
    expect(earned / possible).toBeGreaterThan(0.7);
    expect(earned / possible).toBeLessThan(0.75);
    const snap = await svc.refresh();
    const json = boardJson(snap.board);
    const gpt4 = json.models.find((m) => m.model === 'gpt-4-0314')!;
    expect(gpt4.methods.metrics).toBeGreaterThan(6);
    expect(gpt4.methods.scoring).toBeGreaterThan(5); // 0.648 of the points; per-item mean on the 10-point scale
    expect(gpt4.methods.comparative).toBeNull();
    expect(gpt4.abilities.knowledge).not.toBeNull();
    expect(gpt4.abilities.language).toBeNull();
    expect(gpt4.incomplete).toBe(true);
    const claude = json.models.find((m) => m.model === 'claude-2')!;
    expect(claude.methods.comparative).not.toBeNull();
    expect(claude.methods.metrics).toBeNull();
    expect(claude.votes).toBe(805);
    for (const m of json.models) {
      expect(m.final).not.toBeNull();
      expect(m.final_lo!).toBeLessThanOrEqual(m.final!);
      expect(m.final_hi!).toBeGreaterThanOrEqual(m.final!);
    }
    // Every method is on the board; with one model, metrics and scoring cannot be min–max normalised.
    expect(json.models.some((m) => m.methods.metrics !== null)).toBe(true);
    expect(json.models.some((m) => m.methods.scoring !== null)).toBe(true);
    expect(json.models.some((m) => m.methods.comparative !== null)).toBe(true);
    expect(snap.board.unnormalized).toEqual(['metrics', 'scoring']);
    // The baseline beats every model in AlpacaEval's judgements: first among the arena models.
    const arena = json.models.filter((m) => m.methods.comparative !== null);
    expect(arena[0]?.model).toBe('gpt4_1106_preview');
  });
});
