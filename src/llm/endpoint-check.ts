/**
 * @module llm/endpoint-check
 * The connection check of a model endpoint (`zhujiu config check`): one `GET {base_url}/models`, with no retry,
 * that tells a wrong base URL (no `/v1`, nothing there), a refused key and an unreachable server apart before any
 * run sends a request. Endpoint text in the result is redacted (llm/redact).
 */
import OpenAI from 'openai';
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
 * @returns `ok` with what it lists, or a failure message naming the model, the cause and the setting to fix; never
 *   throws.
 */
export async function checkEndpoint(m: EndpointToCheck): Promise<EndpointCheck> {
  const host = hostOf(m.baseUrl);
  const file = m.entryIn ?? 'config/models.yaml';
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
      ids.length === 0 || ids.includes(m.model) ? '' : ` (model id ${m.model} is not among them)`;
    return {
      ok: true,
      message: `model ${m.name}: ${host} answers, ${ids.length} models listed${listed}`,
    };
  } catch (err) {
    if (err instanceof OpenAI.APIConnectionTimeoutError)
      return {
        ok: false,
        message: `model ${m.name}: no answer from ${host} within ${m.timeoutMs} ms (GET /models)`,
      };
    if (err instanceof OpenAI.APIConnectionError)
      return {
        ok: false,
        message: `model ${m.name}: cannot reach ${host} (${redact(err.message)}); check its base_url in ${file} and that the server is up`,
      };
    if (err instanceof OpenAI.APIError) {
      const status = err.status ?? 0;
      if (status === 401 || status === 403)
        return {
          ok: false,
          message: m.apiKeyEnv
            ? `model ${m.name}: ${host} refused the API key (HTTP ${status}); check ${m.apiKeyEnv} (${file} api_key_env)`
            : `model ${m.name}: ${host} refused the request without an API key (HTTP ${status}); set api_key_env of model ${m.name} in ${file}`,
        };
      if (status === 404)
        return {
          ok: false,
          message: endsInVersion(m.baseUrl)
            ? `model ${m.name}: ${m.baseUrl}/models is not found (HTTP 404); check its base_url in ${file}`
            : `model ${m.name}: HTTP 404 from ${host}: base_url ${m.baseUrl} does not end in /v1; add it (e.g. ${m.baseUrl.replace(/\/+$/u, '')}/v1) in ${file}`,
        };
      return {
        ok: false,
        message: `model ${m.name}: HTTP ${status} from ${host} (GET /models): ${redact(err.message)}`,
      };
    }
    // A 200 whose body is not a model list: the base URL points at something else.
    return {
      ok: false,
      message: `model ${m.name}: ${host} did not answer GET /models with a model list (${redact(String((err as Error)?.message ?? err))}); check its base_url in ${file}`,
    };
  }
}
