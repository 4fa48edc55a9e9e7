/**
 * @module eval/judge/failure-reason
 * Why a judge reply carries no usable verdict (eval/judge/parse.ts, judge.ts) and why an imported judgment has no
 * score (import/judgments.ts), as a kind and its parameters: the message `judgeReason.<kind>` of the catalogue.
 *
 * Stored as its English sentence: the `failure_message` columns of `judge_scores`, `battle_judgments` and
 * `eval_run_items` are data, read as they are by the CSV and JSON-lines exports (`zhujiu results`, `/runs/…csv`),
 * so their text does not change with a reader's language. {@link judgeReasonOf} reads the kind and its parameters
 * back from such a sentence (each kind's English template as a pattern), and eval/failure-cause.ts says it again in
 * the reader's language where it is shown (the summaries, chat, the results page, `zhujiu judge run`).
 */
import { CATALOGUE, type MessageKey, t } from '../../i18n/index.ts';

/**
 * Every kind, in the order {@link judgeReasonOf} tries their patterns (a kind whose sentence another kind's pattern
 * would also match comes first: `requestFailedStatus` before `requestFailed`).
 */
export const JUDGE_REASON_KINDS = [
  'outside',
  'notWhole',
  'declined',
  'noMarker',
  'severalVerdicts',
  'gradeNotOne',
  'flagsAndClears',
  'noSafetyVerdict',
  'notAsked',
  'clientFailed',
  'stopped',
  'requestFailedStatus',
  'requestFailed',
  'gradeNotPoints',
  'safetyCheck',
  'noPreference',
  'noGraderScore',
  'noTeacherScore',
] as const;

/** A member of {@link JUDGE_REASON_KINDS}. */
export type JudgeReasonKind = (typeof JUDGE_REASON_KINDS)[number];

/**
 * A reason as data. Parameters by kind: `outside` value, min, max; `notWhole` value; `severalVerdicts` n, verdicts
 * (joined by `, `); `gradeNotOne` grade, grades (joined by `, `); `clientFailed` detail (the error's own text);
 * `requestFailed` code, detail (the LLM client's failure text, llm/openai-client.ts); `requestFailedStatus` code,
 * status, detail; `safetyCheck` code (the check's failure code), reason (the check's reason, English). Others none.
 */
export interface JudgeReason {
  readonly kind: JudgeReasonKind;
  readonly params?: Readonly<Record<string, string | number>>;
}

/** The catalogue key of a kind. */
function keyOf(kind: JudgeReasonKind): MessageKey {
  return `judgeReason.${kind}` as MessageKey;
}

/** The reason's sentence in English: what is stored and logged. */
export function judgeReasonEn(reason: JudgeReason): string {
  return t('en', keyOf(reason.kind), reason.params ?? {});
}

/** Each kind's English template as an anchored pattern, with its placeholders' names in order. */
let patterns: { kind: JudgeReasonKind; re: RegExp; names: string[] }[] | undefined;

function reasonPatterns(): NonNullable<typeof patterns> {
  patterns ??= JUDGE_REASON_KINDS.map((kind) => {
    const template = CATALOGUE.en[keyOf(kind)];
    const names: string[] = [];
    const body = template
      .split(/(\{\w+\})/u)
      .map((part) => {
        const name = /^\{(\w+)\}$/u.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
        names.push(name);
        return '(.*?)';
      })
      .join('');
    return { kind, re: new RegExp(`^${body}$`, 'su'), names };
  });
  return patterns;
}

/**
 * The reason a stored English sentence says (as {@link judgeReasonEn} wrote it), its parameters as text; undefined
 * for any other text (a reason stored before its kind had a sentence, another layer's text).
 */
export function judgeReasonOf(text: string): JudgeReason | undefined {
  for (const p of reasonPatterns()) {
    const m = p.re.exec(text);
    if (!m) continue;
    const params: Record<string, string> = {};
    p.names.forEach((name, i) => {
      params[name] = m[i + 1] ?? '';
    });
    return p.names.length > 0 ? { kind: p.kind, params } : { kind: p.kind };
  }
  return undefined;
}
