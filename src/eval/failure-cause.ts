/**
 * @module eval/failure-cause
 * An item's recorded failure cause (`item_results.error_message`, written in English by llm/openai-client.ts
 * `#failure`: the stored text and the CSV column stay English, they are data) said again in the reader's language:
 * each known wording of the client is matched and its parts filled into a catalogue sentence
 * (`evalSummary.cause.*`); any other text (a scorer's, a dataset's, an older wording) is shown as recorded.
 */
import { type Locale, type MessageKey, t } from '../i18n/index.ts';

/** A recorded wording: its pattern and the catalogue sentence its groups fill, by parameter name in order. */
interface Cause {
  readonly re: RegExp;
  readonly key: MessageKey;
  readonly params: readonly string[];
}

// The wordings of llm/openai-client.ts `#failure`; `n` is a count of attempts (a number, for the plural).
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
      params[name] = name === 'n' ? Number(v) : v;
    });
    return t(locale, c.key, params);
  }
  return message;
}
