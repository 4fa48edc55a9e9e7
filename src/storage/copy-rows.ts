/**
 * @module storage/copy-rows
 * Bulk loading with `COPY … FROM STDIN` through Kysely: PostgreSQL's fastest way in (PostgreSQL manual,
 * "Populating a Database", §14.4.2 "Use COPY"), on both backends and inside the caller's transaction.
 *
 * Kysely's `sql` sends text and parameters, and COPY has neither a result nor parameters, so a COPY is written as
 * {@link copyRowsSql} builds it: the statement with the rows as its one parameter in a trailing marker comment.
 * The database's connection wrappers (storage/db.ts, storage/pglite-worker.ts) recognise it with
 * {@link copyRequest} and run it as the backend does COPY: on PostgreSQL as a COPY FROM STDIN stream
 * (`pg-copy-streams`), on PGlite from its `/dev/blob` device with the rows as the query's `blob` option (PGlite
 * docs, "Query options: blob"). Any other connection refuses the statement (a parameter count error): nothing is
 * ever half-loaded silently.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite';
import { type RawBuilder, sql } from 'kysely';
import type copyStreams from 'pg-copy-streams';

/** The marker after `FROM STDIN`: the rows come as the statement's one parameter. */
const MARK = '/* zhujiu:copy-rows $1 */';
const COPY_RE = /^COPY\s[^;]*\sFROM STDIN \/\* zhujiu:copy-rows \$1 \*\/$/;

/** A field of a COPY row: null is SQL NULL; numbers, booleans and strings as PostgreSQL reads their text. */
export type CopyField = string | number | boolean | null;

/** Lines of COPY text per chunk handed to the connection (bounds each string; the stream sends them in order). */
const CHUNK_LINES = 10_000;

/**
 * One field in COPY's text format (PostgreSQL manual, COPY, "Text Format"): `\N` for NULL, `t`/`f` for booleans,
 * and backslash, tab, line feed and carriage return escaped in strings.
 */
export function copyField(v: CopyField): string {
  if (v === null) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return String(v);
  return /[\\\t\n\r]/.test(v)
    ? v.replace(/[\\\t\n\r]/g, (c) =>
        c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
      )
    : v;
}

/**
 * A `COPY table (columns) FROM STDIN` statement with its rows, to run with `.execute(trx)` on a database opened by
 * storage/db.ts `openDb` (inside the caller's transaction: rolled back with it).
 * @param table a table name (an identifier of this code, never input).
 * @param columns the column names, in the order of each row's fields.
 * @param rows the rows; each has one field per column.
 */
export function copyRowsSql(
  table: string,
  columns: readonly string[],
  rows: Iterable<readonly CopyField[]>,
): RawBuilder<unknown> {
  const chunks: string[] = [];
  let lines: string[] = [];
  for (const r of rows) {
    lines.push(r.map(copyField).join('\t'));
    if (lines.length === CHUNK_LINES) {
      chunks.push(`${lines.join('\n')}\n`);
      lines = [];
    }
  }
  if (lines.length > 0) chunks.push(`${lines.join('\n')}\n`);
  return copyTextSql(table, columns, chunks);
}

/**
 * As {@link copyRowsSql}, with the rows already written in COPY's text format (fields as {@link copyField} writes
 * them, separated by tabs; each line ended by a line feed), in chunks of whole lines sent in order.
 * @param table a table name (an identifier of this code, never input).
 * @param columns the column names, in the order of each line's fields.
 */
export function copyTextSql(
  table: string,
  columns: readonly string[],
  chunks: readonly string[],
): RawBuilder<unknown> {
  return sql`${sql.raw(`COPY ${table} (${columns.join(', ')}) FROM STDIN /* zhujiu:copy-rows `)}${chunks}${sql.raw(' */')}`;
}

/** A recognised COPY: the statement to run (without the marker) and the rows' text in chunks. */
export interface CopyRequest {
  readonly statement: string;
  readonly chunks: readonly string[];
}

/** The COPY that `text` and `values` carry when they were built by {@link copyRowsSql}; else undefined. */
export function copyRequest(text: unknown, values?: readonly unknown[]): CopyRequest | undefined {
  if (typeof text !== 'string' || values?.length !== 1 || !text.startsWith('COPY '))
    return undefined;
  if (!COPY_RE.test(text)) return undefined;
  const chunks = values[0];
  if (!Array.isArray(chunks) || !chunks.every((c) => typeof c === 'string')) return undefined;
  return { statement: text.slice(0, -MARK.length - 1), chunks };
}

/** What the PostgreSQL wrapper returns for a COPY (the fields Kysely's Postgres driver reads). */
export interface CopyResult {
  readonly command: 'COPY';
  readonly rowCount: number;
  readonly rows: never[];
}

/** Runs a recognised COPY on a `pg` client as a COPY FROM STDIN stream. */
export async function copyToPg(
  client: { query: (s: copyStreams.CopyStreamQuery) => copyStreams.CopyStreamQuery },
  req: CopyRequest,
): Promise<CopyResult> {
  const { default: streams } = await import('pg-copy-streams'); // (loaded only where PostgreSQL is used)
  const stream = client.query(streams.from(req.statement));
  await pipeline(Readable.from(req.chunks), stream);
  return { command: 'COPY', rowCount: Number(stream.rowCount ?? 0), rows: [] };
}

/**
 * A PGlite query, or a COPY built by {@link copyRowsSql} run from PGlite's `/dev/blob` device with the rows as
 * the query's `blob` (PGlite has no COPY FROM STDIN).
 */
export function pgliteQuery<T>(
  p: Pick<PGlite, 'query'>,
  text: string,
  params?: unknown[],
  options?: QueryOptions,
): Promise<Results<T>> {
  const copy = copyRequest(text, params);
  if (!copy) return p.query<T>(text, params, options);
  const statement = `${copy.statement.slice(0, -'STDIN'.length)}'/dev/blob'`;
  return p.query<T>(statement, [], { ...options, blob: new Blob([...copy.chunks]) });
}
