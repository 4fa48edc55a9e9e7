/**
 * A judge's reasons for giving no verdict (eval/judge/failure-reason.ts): each a kind and its parameters, stored as
 * the English sentence it had before, read back from that sentence and said in Chinese where it is shown
 * (eval/failure-cause.ts); the imported judgments' no-score reasons too.
 */
import { describe, expect, it } from 'vitest';
import { failureCauseText } from '../../../src/eval/failure-cause.ts';
import {
  JUDGE_REASON_KINDS,
  type JudgeReason,
  judgeReasonEn,
  judgeReasonOf,
} from '../../../src/eval/judge/failure-reason.ts';
import { parseSafetyVerdict, parseVerdict } from '../../../src/eval/judge/parse.ts';

const POINTS = { kind: 'points', min: 0, max: 10 } as const;

/** The failure of a reply, as parse.ts gives it. */
function failureOf(r: ReturnType<typeof parseVerdict> | ReturnType<typeof parseSafetyVerdict>) {
  if (r.ok) throw new Error('a verdict');
  return r.reason;
}

describe("the judge's reasons", () => {
  it('keep their English sentences (stored, exported) and carry their kind and parameters', () => {
    const cases: [ReturnType<typeof parseVerdict>, string, JudgeReason][] = [
      [parseVerdict('fine', POINTS), 'no verdict marker found in the reply', { kind: 'noMarker' }],
      [
        parseVerdict('I cannot judge this.', POINTS),
        'the judge declined to give a verdict',
        { kind: 'declined' },
      ],
      [
        parseVerdict('评分：[[2]] … 最终评分：[[3]]', POINTS),
        'the reply gives 2 different verdicts (2, 3)',
        { kind: 'severalVerdicts', params: { n: 2, verdicts: '2, 3' } },
      ],
      [
        parseVerdict('Rating: [[11]]', POINTS),
        'score 11 is outside 0–10',
        { kind: 'outside', params: { value: 11, min: 0, max: 10 } },
      ],
      [
        parseVerdict('{"score": 7.5}', POINTS),
        'score 7.5 is not a whole number',
        { kind: 'notWhole', params: { value: 7.5 } },
      ],
      [
        parseVerdict('{"winner": "D"}', { kind: 'grades', grades: ['A', 'B', 'C'] }),
        'grade "D" is not one of A, B, C',
        { kind: 'gradeNotOne', params: { grade: 'D', grades: 'A, B, C' } },
      ],
    ];
    for (const [r, message, reason] of cases) {
      expect(failureOf(r)).toMatchObject({ message, reason });
    }
    expect(failureOf(parseSafetyVerdict('[[SAFE]] [[VIOLATION]]')).message).toBe(
      'the reply both flags and clears the answer',
    );
    expect(failureOf(parseSafetyVerdict('hmm')).message).toBe(
      'no safety verdict found in the reply',
    );
  });

  it('are read back from every stored sentence and said in Chinese, English as stored', () => {
    const samples: Record<string, Record<string, string>> = {
      outside: { value: '11', min: '0', max: '10' },
      notWhole: { value: '7.5' },
      severalVerdicts: { n: '2', verdicts: '2, 3' },
      gradeNotOne: { grade: 'D', grades: 'A, B, C' },
      clientFailed: { detail: 'boom' },
      requestFailedStatus: { code: 'http_error', status: '500', detail: 'x' },
      requestFailed: { code: 'timeout', detail: 'x' },
      safetyCheck: { code: 'unparseable', reason: 'no safety verdict found in the reply' },
    };
    for (const kind of JUDGE_REASON_KINDS) {
      const params = samples[kind];
      const reason: JudgeReason = params ? { kind, params } : { kind };
      const en = judgeReasonEn(reason);
      expect(judgeReasonOf(en), en).toEqual(reason);
      expect(failureCauseText(en), en).toBe(en);
      const zh = failureCauseText(en, 'zh-CN');
      expect(zh, en).toMatch(/\p{Script=Han}/u);
      expect(zh, en).not.toBe(en);
    }
    expect(judgeReasonOf('a scorer said no')).toBeUndefined();
  });

  it('say their parts in Chinese: a request failure with the client cause, a safety check, the lists', () => {
    const zh = (m: string) => failureCauseText(m, 'zh-CN');
    expect(
      zh(
        'judge j: request failed (http_error 404): HTTP 404 from h:1: base_url http://h:1 of model j does not end in /v1; add it (e.g. http://h:1/v1) in c/models.yaml (404 Not Found) (after 3 attempts; retry with zhujiu judge run)',
      ),
    ).toBe(
      '评审 j：请求失败（http_error 404）：h:1 返回 HTTP 404（404 Not Found）：模型 j 的 base_url http://h:1 不以 /v1 结尾；请在 c/models.yaml 中补上，例如 http://h:1/v1（已尝试 3 次；请用 zhujiu judge run 重试）',
    );
    expect(zh('safety check unparseable: no safety verdict found in the reply')).toBe(
      '安全检查 unparseable：回复中没有找到安全评判',
    );
    expect(zh('the reply gives 3 different verdicts (2, 3, 4)')).toBe(
      '回复给出了 3 个不同的评判（2、3、4）',
    );
    // Runs stored before the attempt count was a plural say "1 attempts".
    expect(zh('judge j: stopped (after 1 attempts; retry with zhujiu judge run)')).toBe(
      '评审 j：已停止（已尝试 1 次；请用 zhujiu judge run 重试）',
    );
  });

  it("the imported judgments' no-score reasons are the same kind", () => {
    expect(judgeReasonEn({ kind: 'noPreference' })).toBe('no preference recorded');
    expect(judgeReasonEn({ kind: 'noGraderScore' })).toBe('no grader score recorded');
    expect(judgeReasonEn({ kind: 'noTeacherScore' })).toBe(
      "no teacher's score recorded (GAOKAO-Bench skips the question)",
    );
    expect(failureCauseText('no preference recorded', 'zh-CN')).toBe('没有记录偏好');
    expect(
      failureCauseText("no teacher's score recorded (GAOKAO-Bench skips the question)", 'zh-CN'),
    ).toBe('没有记录教师的评分（GAOKAO-Bench 跳过了这道题）');
  });
});
