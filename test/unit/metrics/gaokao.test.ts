import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  extractGaokaoAnswer,
  GAOKAO_SUBJECTS,
  type GaokaoSubject,
  scoreGaokaoAnswer,
  scoreGaokaoOutput,
} from '../../../src/eval/metrics/index.ts';
import { parseGaokaoFile } from '../../../src/import/formats/gaokao.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

describe('GAOKAO-Bench answer extraction (by question type)', () => {
  it('single_choice: the last letter A–D', () => {
    expect(
      extractGaokaoAnswer('【解析】A错，B错 <eoe>\n【答案】C <eoa>', 'single_choice', 1),
    ).toEqual(['C']);
    expect(extractGaokaoAnswer('no letters here', 'single_choice', 1)).toEqual([]);
  });
  it('multi_question_choice: 【答案】 markers when there are exactly n, else the first n capitals', () => {
    expect(
      extractGaokaoAnswer(
        '（1）【答案】：B <eoa>\n（2）【答案】 D <eoa>',
        'multi_question_choice',
        2,
      ),
    ).toEqual(['B', 'D']);
    expect(extractGaokaoAnswer('A C D', 'multi_question_choice', 2)).toEqual(['A', 'C']);
    expect(extractGaokaoAnswer('【答案】B', 'multi_question_choice', 2)).toEqual(['B']);
  });
  it('multi_choice: letters after 【答案】, else in the last 10 characters', () => {
    expect(extractGaokaoAnswer('【解析】A对 <eoe>\n【答案】 B D <eoa>', 'multi_choice', 1)).toEqual(
      ['BD'],
    );
    expect(extractGaokaoAnswer('选项甲乙丙丁都正确，故最终应选 AC', 'multi_choice', 1)).toEqual([
      'AC',
    ]);
    // The scorer's quirk: without 【答案】 every A–D of the last 10 characters counts.
    expect(extractGaokaoAnswer('A和C都对，选AC', 'multi_choice', 1)).toEqual(['ACAC']);
    expect(extractGaokaoAnswer('【答案】', 'multi_choice', 1)).toEqual([]);
  });
  it('five_out_of_seven: the first five letters A–G', () => {
    expect(extractGaokaoAnswer('【答案】 E A G C D B', 'five_out_of_seven', 5)).toEqual([
      'E',
      'A',
      'G',
      'C',
      'D',
    ]);
  });
});

describe('GAOKAO-Bench objective scoring rules', () => {
  it('a length mismatch scores the whole item 0', () => {
    expect(scoreGaokaoAnswer(['A', 'B', 'C'], ['A', 'B'], 3, 'multi_question_choice')).toEqual({
      earned: 0,
      possible: 9,
      extracted: ['A', 'B'],
    });
  });
  it('each equal sub-answer earns the item score', () => {
    expect(
      scoreGaokaoAnswer(['A', 'B', 'C'], ['A', 'D', 'C'], 3, 'multi_question_choice').earned,
    ).toBe(6);
  });
  it('Physics multi-select: exact 6, a subset of the right letters 3 (repeats too, as the scorer checks), a wrong letter 0', () => {
    expect(scoreGaokaoOutput('【答案】BD', ['BD'], 6, 'multi_choice').earned).toBe(6);
    expect(scoreGaokaoOutput('【答案】B', ['BD'], 6, 'multi_choice').earned).toBe(3);
    expect(scoreGaokaoOutput('【答案】BB', ['BD'], 6, 'multi_choice').earned).toBe(3);
    expect(scoreGaokaoOutput('【答案】BC', ['BD'], 6, 'multi_choice').earned).toBe(0);
    expect(scoreGaokaoOutput('【答案】ABCD', ['BD'], 6, 'multi_choice').earned).toBe(0);
    // No partial credit outside multi-select.
    expect(scoreGaokaoAnswer(['BD'], ['B'], 6, 'single_choice').earned).toBe(0);
  });
});

const DIR = 'outputs/gaokao_bench/gpt-4-0314_objective';
/** GAOKAO-Bench README "Scoring Rate" table, GPT-4-0314 objective, per subject (%). */
const PUBLISHED: Record<GaokaoSubject, number> = {
  chinese: 53.9,
  english: 93.1,
  math_sci: 53.7,
  math_hum: 63.3,
  physics: 55.5,
  chemistry: 44.4,
  biology: 80.7,
  politics: 75.9,
  history: 75.6,
  geography: 80.0,
};

describe.runIf(hasSharedData(DIR))(
  'GAOKAO-Bench GPT-4-0314 objective reproduction (from raw model_output)',
  () => {
    it('gives Σ earned / Σ possible = 7000 / 9702 = 0.7215 and the ten published subject rates', () => {
      const dir = sharedData(DIR);
      const bySubject = new Map<GaokaoSubject, { earned: number; possible: number }>();
      let items = 0;
      for (const f of readdirSync(dir)
        .filter((x) => x.endsWith('.json'))
        .sort()) {
        const parsed = parseGaokaoFile(readFileSync(join(dir, f), 'utf8'), f, true);
        if (!parsed.ok) throw new Error(parsed.reason.join('\n'));
        const { subject, type, rows } = parsed.value;
        const acc = bySubject.get(subject) ?? { earned: 0, possible: 0 };
        for (const r of rows) {
          const s = scoreGaokaoOutput(r.output as string, r.standardAnswer, r.score, type);
          acc.earned += s.earned;
          acc.possible += s.possible;
          items++;
        }
        bySubject.set(subject, acc);
      }
      expect(items).toBe(1781);
      let earned = 0;
      let possible = 0;
      for (const v of bySubject.values()) {
        earned += v.earned;
        possible += v.possible;
      }
      expect({ earned, possible }).toEqual({ earned: 7000, possible: 9702 });
      expect(Math.round((earned / possible) * 10000) / 10000).toBe(0.7215);
      const rates = Object.fromEntries(
        Object.keys(GAOKAO_SUBJECTS).map((s) => {
          const v = bySubject.get(s as GaokaoSubject) as { earned: number; possible: number };
          return [s, Math.round((v.earned / v.possible) * 1000) / 10];
        }),
      );
      expect(rates).toEqual(PUBLISHED);
      // The scorer's own per-subject totals (result/correction_score.json), Math = Math_I + Math_II.
      expect(bySubject.get('physics')).toEqual({ earned: 213, possible: 384 });
      expect(bySubject.get('english')).toEqual({ earned: 2052, possible: 2205 });
    });
  },
);
