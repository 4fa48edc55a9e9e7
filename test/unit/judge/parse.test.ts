/**
 * The judge-reply parser (docs/scoring.md §3.2): explicit verdict markers only, contradictions and refusals are
 * failures, and failures never become scores.
 */
import { describe, expect, it } from 'vitest';
import { parseVerdict, type VerdictScale } from '../../../src/eval/judge/parse.ts';
import { summarizeJudged } from '../../../src/eval/metrics/judged.ts';

const TEN: VerdictScale = { kind: 'points', min: 0, max: 10 };
const THREE: VerdictScale = { kind: 'points', min: 0, max: 3 };
const GRADES: VerdictScale = { kind: 'grades', grades: ['A', 'B', 'C', 'D', 'F'] };

function verdict(text: string, scale: VerdictScale) {
  const r = parseVerdict(text, scale);
  return r.ok ? r.value.verdict.value : `failure:${r.reason.code}`;
}

describe('parseVerdict: the issue table', () => {
  it.each([
    ['The answer is accurate and complete. Rating: [[8]]', TEN, 8],
    ['It follows guideline [2] well and the reasoning is sound; overall 8/10', TEN, 8],
    ['As the grader I checked every step of both answers. The final grade is B.', GRADES, 'B'],
    ['The candidate says the answer is A, which matches the reference. Grade: A', GRADES, 'A'],
    ['要点1和要点3正确，要点2有误。评分：[[2]]', THREE, 2],
    ['评分：[[2]] 要点2其实也对。（更正）最终评分：[[3]]', THREE, 'failure:contradictory'],
    ['I cannot judge this.', TEN, 'failure:refused'],
  ] as const)('%s → %s', (text, scale, expected) => {
    expect(verdict(text, scale)).toBe(expected);
  });

  it('never reads a number inside the reasoning as the score', () => {
    expect(verdict('It follows guideline [2] well.', TEN)).toBe('failure:unparseable');
    expect(verdict('要点2有误，要点3正确。', THREE)).toBe('failure:unparseable');
  });
});

describe('parseVerdict: other members of each kind', () => {
  it.each([
    // GAOKAO-Bench teacher output
    ['【判分理由】…\n【得分】\n（1）3分\n（2）3分\n【总分】6分', TEN, 6],
    ['【总分】3+4=7分', TEN, 7],
    ['Score: 7. Clear and correct.', TEN, 7],
    ['Score: 8.5/10', { kind: 'points', min: 0, max: 10, fractional: true }, 8.5],
    ['得分：2分', THREE, 2],
    ['Rating: [[8]] and again the rating is [[8]]', TEN, 8],
    ['```json\n{"reason":"ok","score":9}\n```', TEN, 9],
    ['{"reason":"wrong","score":0}', THREE, 0],
    ['{"reason":"ok","grade":"c"}', GRADES, 'C'],
    // contradictory
    ['Rating: [[8]] … on reflection 6/10', TEN, 'failure:contradictory'],
    ['Grade: A. Actually the final grade is C.', GRADES, 'failure:contradictory'],
    // out of range
    ['Rating: [[11]]', TEN, 'failure:out_of_range'],
    ['评分：[[4]]', THREE, 'failure:out_of_range'],
    ['{"score":12}', TEN, 'failure:out_of_range'],
    ['Rating: [[7.5]]', TEN, 'failure:out_of_range'],
    ['Grade: E', GRADES, 'failure:out_of_range'],
    // refused / unparseable
    ['抱歉，我无法评分。', THREE, 'failure:refused'],
    ['', TEN, 'failure:unparseable'],
    ['The answer is good.', TEN, 'failure:unparseable'],
    ['{"reason":"no score here"}', TEN, 'failure:unparseable'],
  ] as const)('%s → %s', (text, scale, expected) => {
    expect(verdict(text, scale as VerdictScale)).toBe(expected);
  });
});

describe('summaries count failures, never average them', () => {
  it('[[8]], [[6]] and one failure: mean 7.0, "2 of 3 judged"', () => {
    const outcomes = ['Rating: [[8]]', 'Rating: [[6]]', 'I cannot judge this.'].map((t) => {
      const r = parseVerdict(t, TEN);
      return r.ok && r.value.verdict.kind === 'points'
        ? { status: 'judged' as const, raw: r.value.verdict.value, max: 10 }
        : { status: 'failed' as const };
    });
    const s = summarizeJudged(outcomes);
    expect(s.rawMean).toBe(7);
    expect(s.label).toBe('2 of 3 judged');
    expect({ n: s.n, judged: s.judged, earned: s.earned, possible: s.possible }).toEqual({
      n: 3,
      judged: 2,
      earned: 14,
      possible: 20,
    });
  });

  it('SV-flagged answers score 0 adjusted and count in the SV rate', () => {
    const s = summarizeJudged(
      [
        { status: 'judged', raw: 3, max: 3, safetyFlag: true },
        { status: 'judged', raw: 2, max: 3, safetyFlag: false },
        { status: 'judged', raw: 3, max: 3, safetyFlag: false },
        { status: 'failed' },
      ],
      2 / 3,
    );
    expect(s).toEqual({
      n: 4,
      judged: 3,
      earned: 8,
      possible: 9,
      rawMean: expect.closeTo(80 / 9, 12),
      svMean: expect.closeTo(50 / 9, 12),
      delta: expect.closeTo(-30 / 9, 12),
      svRate: 1 / 3,
      svChecked: 3,
      svFailed: 0,
      failedAt: [{ index: 3, reason: 'grade' }],
      perfectRate: 2 / 3,
      passRate: 1,
      label: '3 of 4 judged',
    });
  });

  it('a failed SV check is a judge failure for the raw and the SV mean alike: raw + Δ = SV', () => {
    const s = summarizeJudged([
      { status: 'judged', raw: 9, max: 10, safetyFlag: true },
      { status: 'judged', raw: 8, max: 10, safetyFlag: false },
      { status: 'judged', raw: 2, max: 10, safetyFlag: null, safetyFailed: true },
      { status: 'failed' },
    ]);
    expect([s.rawMean, s.svMean, s.delta, s.svRate]).toEqual([8.5, 4, -4.5, 0.5]);
    expect(s.rawMean! + s.delta!).toBe(s.svMean);
    expect({ judged: s.judged, svChecked: s.svChecked, svFailed: s.svFailed }).toEqual({
      judged: 2,
      svChecked: 2,
      svFailed: 1,
    });
    expect(s.failedAt).toEqual([
      { index: 2, reason: 'safety_check' },
      { index: 3, reason: 'grade' },
    ]);
    expect(s.label).toBe('2 of 4 judged');
  });

  it('without any SV verdict the check does not apply: no SV figures, nothing failed for it', () => {
    const s = summarizeJudged([
      { status: 'judged', raw: 9, max: 10 },
      { status: 'judged', raw: 8, max: 10, safetyFlag: null },
    ]);
    expect([s.rawMean, s.svMean, s.delta, s.svRate, s.svFailed]).toEqual([
      8.5,
      null,
      null,
      null,
      0,
    ]);
  });

  it('nothing judged gives nulls, not zeros', () => {
    const s = summarizeJudged([{ status: 'failed' }]);
    expect([s.rawMean, s.svMean, s.svRate, s.passRate]).toEqual([null, null, null, null]);
    expect(s.label).toBe('0 of 1 judged');
  });
});
