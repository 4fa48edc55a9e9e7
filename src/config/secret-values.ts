/**
 * @module config/secret-values
 * The values of the environment variables that hold secrets, for redaction of text that did not pass through a
 * field-based redactor (an error message of unknown origin: cli/unhandled.ts).
 */

/** Names of secret-holding variables: TOKEN, SECRET, KEY or PASSWORD in the name, and DATABASE_URL. */
const SECRET_NAME = /TOKEN|SECRET|KEY|PASSWORD|DATABASE_URL/iu;

/**
 * The values (at least 4 characters) of the secret-holding variables of `env`, longest first, so that a value
 * containing another is replaced whole.
 * @param env the environment (bin/zhujiu.js passes the process's).
 */
export function secretValuesOf(env: NodeJS.ProcessEnv): string[] {
  return Object.entries(env)
    .filter(([k, v]) => SECRET_NAME.test(k) && v !== undefined && v.length >= 4)
    .map(([, v]) => v as string)
    .sort((a, b) => b.length - a.length);
}
