/**
 * @module eval/failure-cause
 * An item's recorded failure cause (`item_results.error_message`, written in English by llm/openai-client.ts
 * `#failure`: the stored text and the CSV column stay English, they are data) said again in the reader's language:
 * each known wording of the client is matched and its parts filled into a catalogue sentence
 * (`evalSummary.cause.*`); a judge failure of an item (`judge NAME: REASON (after N attempts; …)`) and a judge's
 * reason itself (`judge_scores.failure_message`, eval/judge/failure-reason.ts) too, their parts said in turn; any
 * other text (a scorer's, a dataset's, an older wording) is shown as recorded.
 */
import { causeText } from '../i18n/error-cause.ts';
import { type Locale, type MessageKey, t } from '../i18n/index.ts';
import { type JudgeReason, judgeReasonOf } from './judge/failure-reason.ts';

/** A recorded wording: its pattern and the catalogue sentence its groups fill, by parameter name in order. */
interface Cause {
  readonly re: RegExp;
  readonly key: MessageKey;
  readonly params: readonly string[];
}

// The wordings of llm/openai-client.ts `#failure` (first) and of the reply readers (after); `n` is a count of
// attempts (a number, for the plural).
const CAUSES: readonly Cause[] = [
  {
    re: /^cannot reach (\S+) after (\d+) attempts? \((.*)\); check base_url of model (.+) in (\S+) and that the server is up$/su,
    key: 'evalSummary.cause.unreachable',
    params: ['host', 'n', 'detail', 'model', 'file'],
  },
  {
    re: /^no answer from (\S+) within (\d+) ms \(after (\d+) attempts?\)$/u,
    key: 'evalSummary.cause.timeout',
    params: ['host', 'ms', 'n'],
  },
  {
    re: /^request to (\S+) failed: (.*)$/su,
    key: 'evalSummary.cause.requestFailed',
    params: ['host', 'detail'],
  },
  {
    re: /^HTTP (\d+) from (\S+) after (\d+) attempts?: (.*)$/su,
    key: 'evalSummary.cause.httpRetried',
    params: ['status', 'host', 'n', 'detail'],
  },
  {
    re: /^model (.+): the endpoint (\S+) refused the API key \(HTTP (\d+)\); check (\S+) \((\S+) api_key_env\)$/u,
    key: 'evalSummary.cause.keyRefused',
    params: ['model', 'host', 'status', 'variable', 'file'],
  },
  {
    re: /^(\S+) answered with a body that is not JSON after (\d+) attempts? \((.*)\); check that base_url of model (.+) in (\S+) points at an OpenAI-compatible API$/su,
    key: 'evalSummary.cause.notJson',
    params: ['host', 'n', 'detail', 'model', 'file'],
  },
  { re: /^cancelled$/u, key: 'evalSummary.cause.cancelled', params: [] },
  {
    re: /^HTTP 404 from (\S+): base_url (\S+) of model (.+) does not end in \/v1; add it \(e\.g\. (\S+)\) in (\S+) \((.*)\)$/su,
    key: 'evalSummary.cause.notV1',
    params: ['host', 'url', 'model', 'fixed', 'file', 'detail'],
  },
  // After the retried form and the 404 above, whose texts this one would also match.
  {
    re: /^HTTP (\d+) from (\S+): (.*)$/su,
    key: 'evalSummary.cause.http',
    params: ['status', 'host', 'detail'],
  },
  {
    re: /^model (.+): the endpoint (\S+) refused the request without an API key \(HTTP (\d+)\); set api_key_env of model (.+) in (\S+) to the variable that holds its key, and export that variable$/u,
    key: 'evalSummary.cause.keyMissing',
    params: ['model', 'host', 'status', 'model', 'file'],
  },
  {
    re: /^HTTP (\d+): (\S+) asked to wait (\d+) s, more than max_retry_after_ms \((\d+) ms\)$/u,
    key: 'evalSummary.cause.waitTooLong',
    params: ['status', 'host', 'seconds', 'max'],
  },
  { re: /^cancelled before the call$/u, key: 'evalSummary.cause.cancelledBeforeCall', params: [] },
  // The reply readers' wordings (llm/reply.ts `readReply`, and the stored answers of llm/openai-client.ts).
  {
    re: /^the endpoint answered HTTP 200 with an error: (.*)$/su,
    key: 'evalSummary.cause.errorIn200',
    params: ['detail'],
  },
  { re: /^the model refused: (.*)$/su, key: 'evalSummary.cause.modelRefused', params: ['detail'] },
  {
    re: /^the reply ended inside <([^>]+)> \(finish_reason (\S+)\): the model ran out of tokens while reasoning; raise params\.max_tokens of the model in (\S+)$/u,
    key: 'evalSummary.cause.reasoningCut',
    params: ['tag', 'finish', 'file'],
  },
  {
    re: /^the stored answer ends inside <([^>]+)>: the model ran out of tokens while reasoning; raise params\.max_tokens of the model in (\S+)$/u,
    key: 'evalSummary.cause.storedReasoningCut',
    params: ['tag', 'file'],
  },
  {
    re: /^the model called a tool \((.*)\) instead of answering; no tools are offered$/su,
    key: 'evalSummary.cause.toolCall',
    params: ['tools'],
  },
  {
    re: /^the reply holds reasoning but no answer \(finish_reason (\S+)\)$/u,
    key: 'evalSummary.cause.reasoningOnly',
    params: ['finish'],
  },
  {
    re: /^the stored answer holds reasoning but no answer$/u,
    key: 'evalSummary.cause.storedReasoningOnly',
    params: [],
  },
  {
    re: /^empty reply \(finish_reason (\S+)\)$/u,
    key: 'evalSummary.cause.emptyReply',
    params: ['finish'],
  },
  { re: /^unexpected reply shape: (.*)$/su, key: 'evalSummary.cause.badShape', params: ['detail'] },
  // The item runner's own wordings (eval/run-item.ts).
  {
    re: /^the prompt built from this item has (\d+) characters, more than eval\.max_prompt_chars \((\d+)\); not sent$/u,
    key: 'evalSummary.cause.promptTooLong',
    params: ['chars', 'max'],
  },
  {
    re: /^the model client failed: (.*)$/su,
    key: 'evalSummary.cause.clientThrew',
    params: ['detail'],
  },
  { re: /^scoring failed: (.*)$/su, key: 'evalSummary.cause.scoringFailed', params: ['detail'] },
  {
    re: /^planned in the run but no longer in suite (.+) \(the suite changed\)$/u,
    key: 'evalSummary.cause.notInSuite',
    params: ['suite'],
  },
  {
    re: /^judge (.+) stored no grade for this item$/u,
    key: 'evalSummary.cause.noStoredGrade',
    params: ['judge'],
  },
];

/**
 * The recorded failure cause `message` in `locale`: as recorded in English (default) or when its wording is not a
 * known one; else the catalogue sentence of its kind with the recorded host, counts, file and the driver's detail
 * (kept as the driver said it).
 */
export function failureCauseText(message: string, locale: Locale = 'en'): string {
  if (locale === 'en') return message;
  for (const c of CAUSES) {
    const m = c.re.exec(message);
    if (!m) continue;
    const params: Record<string, string | number> = {};
    c.params.forEach((name, i) => {
      const v = m[i + 1] ?? '';
      // The tools a model called are recorded as one English list (llm/reply.ts): listed again in `locale`; a
      // driver's detail (`Connection error`, `ECONNREFUSED`) is said as its cause (i18n/error-cause.ts).
      params[name] =
        name === 'n'
          ? Number(v)
          : name === 'tools'
            ? v.split(', ').join(t(locale, 'board.list.sep'))
            : name === 'detail'
              ? causeText(locale, v)
              : v;
    });
    return t(locale, c.key, params);
  }
  const judged = JUDGE_ITEM.exec(message);
  if (judged)
    return t(locale, 'evalSummary.cause.judgeItem', {
      judge: judged[1] ?? '',
      message: failureCauseText(judged[2] ?? '', locale),
      n: Number(judged[3]),
    });
  const reason = judgeReasonOf(message);
  return reason === undefined ? message : judgeReasonText(reason, locale);
}

/** The wording of a judge failure of an item (eval/run-item.ts; `attempts` also after 1, as older runs stored it). */
const JUDGE_ITEM = /^judge (.+?): (.*) \(after (\d+) attempts?; retry with zhujiu judge run\)$/su;

/**
 * A judge's reason in `locale` (eval/judge/failure-reason.ts): a failed request's detail and a safety check's
 * reason said in turn, the verdicts and grades listed with the language's separator.
 */
function judgeReasonText(reason: JudgeReason, locale: Locale): string {
  const params: Record<string, string | number> = { ...reason.params };
  const list = (v: string | number | undefined) =>
    String(v ?? '')
      .split(', ')
      .join(t(locale, 'board.list.sep'));
  if (params.detail !== undefined)
    params.detail =
      reason.kind === 'clientFailed'
        ? causeText(locale, String(params.detail))
        : failureCauseText(String(params.detail), locale);
  if (params.reason !== undefined) params.reason = failureCauseText(String(params.reason), locale);
  if (params.verdicts !== undefined) params.verdicts = list(params.verdicts);
  if (params.grades !== undefined) params.grades = list(params.grades);
  if (params.n !== undefined) params.n = Number(params.n);
  return t(locale, `judgeReason.${reason.kind}` as MessageKey, params);
}
