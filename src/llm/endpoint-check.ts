/**
 * @module llm/endpoint-check
 * The connection check of a model endpoint (`zhujiu config check`): one `GET {base_url}/models`, with no retry,
 * that tells a wrong base URL (no `/v1`, nothing there), a refused key and an unreachable server apart before any
 * run sends a request. Endpoint text in the result is redacted (llm/redact).
 */
import OpenAI from 'openai';
import { tc } from '../i18n/cli.ts';
import { causeText } from '../i18n/error-cause.ts';
import type { Locale } from '../i18n/index.ts';
import { redactSecrets } from './redact.ts';

/** What {@link checkEndpoint} needs of a model. */
export interface EndpointToCheck {
  /** The configured model name (named in every message). */
  readonly name: string;
  readonly baseUrl: string;
  /** The provider model id (`model`); the check says when the endpoint lists models but not this one. */
  readonly model: string;
  readonly apiKey?: string | undefined;
  readonly apiKeyEnv?: string | undefined;
  /** Time allowed for the one request, ms. */
  readonly timeoutMs: number;
  /** The models file the entry was read from, as messages name it (config/files.ts); default `config/models.yaml`. */
  readonly entryIn?: string | undefined;
}

/** The outcome: a line to print, and whether the endpoint is usable as configured. */
export interface EndpointCheck {
  readonly ok: boolean;
  readonly message: string;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
};
const endsInVersion = (url: string): boolean => {
  try {
    return /\/v\d+\/?$/u.test(new URL(url).pathname);
  } catch {
    return false;
  }
};

/**
 * Asks the endpoint of `m` for its model list once.
 * @param locale the language of the message (the command line's; default English).
 * @returns `ok` with what it lists, or a failure message naming the model, the cause and the setting to fix; never
 *   throws.
 */
export async function checkEndpoint(
  m: EndpointToCheck,
  locale: Locale = 'en',
): Promise<EndpointCheck> {
  const host = hostOf(m.baseUrl);
  const say = (key: Parameters<typeof tc>[1], params: Record<string, string | number> = {}) =>
    tc(locale, key, { name: m.name, host, file: m.entryIn ?? 'config/models.yaml', ...params });
  const redact = (s: string) => redactSecrets(s, [m.apiKey]).slice(0, 200);
  const sdk = new OpenAI({
    baseURL: m.baseUrl,
    apiKey: m.apiKey ?? 'no-key',
    timeout: m.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
  });
  try {
    const page = await sdk.models.list();
    const ids = page.data.map((x) => x.id);
    const listed =
      ids.length === 0 || ids.includes(m.model)
        ? ''
        : tc(locale, 'cli.endpoint.notListed', { model: m.model });
    return { ok: true, message: say('cli.endpoint.answers', { n: ids.length, listed }) };
  } catch (err) {
    if (err instanceof OpenAI.APIConnectionTimeoutError)
      return {
        ok: false,
        message: say('cli.endpoint.timeout', { ms: m.timeoutMs }),
      };
    if (err instanceof OpenAI.APIConnectionError)
      return {
        ok: false,
        message: say('cli.endpoint.unreachable', { why: causeText(locale, redact(err.message)) }),
      };
    if (err instanceof OpenAI.APIError) {
      const status = err.status ?? 0;
      if (status === 401 || status === 403)
        return {
          ok: false,
          message: m.apiKeyEnv
            ? say('cli.endpoint.keyRefused', { status, variable: m.apiKeyEnv })
            : say('cli.endpoint.keyNeeded', { status }),
        };
      if (status === 404)
        return {
          ok: false,
          message: endsInVersion(m.baseUrl)
            ? say('cli.endpoint.notFound', { url: m.baseUrl })
            : say('cli.endpoint.noVersion', {
                url: m.baseUrl,
                fixed: `${m.baseUrl.replace(/\/+$/u, '')}/v1`,
              }),
        };
      return {
        ok: false,
        message: say('cli.endpoint.http', { status, why: redact(err.message) }),
      };
    }
    // A 200 whose body is not a model list: the base URL points at something else.
    return {
      ok: false,
      message: say('cli.endpoint.notList', {
        why: redact(String((err as Error)?.message ?? err)),
      }),
    };
  }
}
