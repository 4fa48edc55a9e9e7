/**
 * @module storage/redact-url
 * A PostgreSQL URL as messages show it, without credentials; no dependencies, so the command line's texts can
 * name the database without loading the drivers (storage/db.ts re-exports it).
 */

/** Describes a Postgres URL without credentials: `host:port/db`, or `(unparseable DATABASE_URL)`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return '(unparseable DATABASE_URL)';
  }
}
