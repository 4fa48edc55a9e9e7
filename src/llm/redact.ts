/**
 * @module llm/redact
 * The one redaction of endpoint text: every error message built from what an endpoint said (its error body, the
 * SDK's messages, a non-JSON body) passes through {@link redactSecrets} before it is logged, stored or posted, so a
 * server (or proxy) that echoes the request's `Authorization` header repeats no key.
 */

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/**
 * Bearer tokens and key-like strings: `Bearer <token>`, OpenAI-style `sk-…` keys, and any run of 32+ characters
 * of letters, digits and `-_.` that contains both a letter and a digit (tokens, JWT parts, hex keys).
 */
const PATTERNS: readonly RegExp[] = [
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/giu,
  /\bsk-[A-Za-z0-9_-]{8,}/gu,
  /\b(?=[A-Za-z0-9._-]*\d)(?=[A-Za-z0-9._-]*[A-Za-z])[A-Za-z0-9._-]{32,}\b/gu,
];

/**
 * `text` with every given secret (the model's API key, in full; secrets shorter than 4 characters are ignored) and
 * every bearer-token-like string replaced by {@link REDACTED}.
 * @param text endpoint text of any length.
 * @param secrets the values that must not appear (e.g. the model's key); undefined entries are skipped.
 */
export function redactSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const s of secrets) if (s !== undefined && s.length >= 4) out = out.split(s).join(REDACTED);
  for (const p of PATTERNS)
    out = out.replace(p, (m) => (/^bearer/iu.test(m) ? `Bearer ${REDACTED}` : REDACTED));
  return out;
}
