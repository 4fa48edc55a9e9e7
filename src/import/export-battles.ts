/**
 * @module import/export-battles
 * `zhujiu export battles`: the live votes of one source (default `arena`, the community's own) as Chatbot Arena
 * battle lines (see import/formats/arena-export.ts), to a stream or a file. A file is written to a temporary name
 * beside it and renamed when complete, so an interrupted export never leaves a half-written FILE.
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Kysely } from 'kysely';
import { streamFileAtomic } from '../core/out-file.ts';
import { said, saidError } from '../i18n/cli.ts';
import { exportVotePages, sourceExists } from '../storage/export.ts';
import type { Database } from '../storage/schema.ts';
import { type ExportFormat, exportLine } from './formats/arena-export.ts';

/** Options of an export. */
export interface ExportBattlesOptions {
  /** Default `arena`. */
  readonly source?: string;
  readonly since?: Date;
  /** Default `fastchat`. */
  readonly format?: ExportFormat;
}

/** What an export wrote. */
export interface ExportBattlesResult {
  readonly source: string;
  readonly votes: number;
  readonly battles: number;
}

/**
 * Writes `s`, waiting for `drain` when the stream asks for it. A stream that has failed (its reader closed a pipe:
 * EPIPE) throws its error here rather than waiting for a `drain` that never comes, so the export stops.
 */
async function write(out: Writable, s: string): Promise<void> {
  if (out.destroyed || out.errored) throw out.errored ?? new Error('the output stream was closed');
  if (!out.write(s)) await once(out, 'drain');
}

/**
 * Writes one line per live vote to `out` (not closed by this function). A failure of `out` (e.g. EPIPE) stops
 * the export: no further page of votes is read, and the stream's error is thrown.
 * @throws AppError `not_found` when no battle carries the source (a typo), naming the source.
 */
export async function exportBattles(
  db: Kysely<Database>,
  out: Writable,
  opts: ExportBattlesOptions = {},
  signal?: AbortSignal,
): Promise<ExportBattlesResult> {
  const source = opts.source ?? 'arena';
  const format = opts.format ?? 'fastchat';
  if (source !== 'arena' && !(await sourceExists(db, source))) {
    throw saidError('not_found', said('cli.export.noSource', { source }));
  }
  let votes = 0;
  const battles = new Set<number>();
  // One buffered write per page of rows (~1 MB): few writes, and the next page is read only once this one is
  // accepted by the stream (back-pressure).
  await exportVotePages(
    db,
    { source, ...(opts.since ? { since: opts.since } : {}) },
    async (rows) => {
      signal?.throwIfAborted();
      let buf = '';
      for (const v of rows) {
        buf += `${exportLine(v, format)}\n`;
        battles.add(v.battleId);
      }
      votes += rows.length;
      await write(out, buf);
    },
  );
  return { source, votes, battles: battles.size };
}

/**
 * {@link exportBattles} into `file`, atomically (temporary file + rename); the path is checked before anything is
 * read (see core/out-file.ts).
 * @param signal aborts the export: the temporary file is removed and `file` is left as it was.
 * @throws AppError `file_unwritable` (`--out FILE: cannot write (…)`: a folder, a missing folder, no permission,
 *   a full disk), `not_found` (see {@link exportBattles}).
 */
export async function exportBattlesToFile(
  db: Kysely<Database>,
  file: string,
  opts: ExportBattlesOptions = {},
  signal?: AbortSignal,
): Promise<ExportBattlesResult> {
  return streamFileAtomic(
    { flag: '--out', path: file, fileName: 'battles.jsonl' },
    (out) => exportBattles(db, out, opts, signal),
    signal,
  );
}
