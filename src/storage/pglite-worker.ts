/**
 * @module storage/pglite-worker
 * Worker-thread entry that owns the embedded database for a long-lived process (see storage/pglite-thread.ts).
 * Receives `{ id, kind: 'open', dataDir }`, `{ id, kind: 'query', text, params }` or `{ id, kind: 'close' }`;
 * answers `{ id, ok: true, rows?, affectedRows? }` or `{ id, ok: false, error }`, where `error` carries the
 * message and PostgreSQL's error fields (code, detail, constraint…) as plain data.
 */
import { parentPort } from 'node:worker_threads';
import type { PGlite } from '@electric-sql/pglite';
import { makeDirsSync } from '../core/make-dirs.ts';
import { pgliteQuery } from './copy-rows.ts';
import { pgliteStartOptions } from './pglite-settings.ts';

type Job =
  | { readonly id: number; readonly kind: 'open'; readonly dataDir: string }
  | {
      readonly id: number;
      readonly kind: 'query';
      readonly text: string;
      readonly params: unknown[];
    }
  | { readonly id: number; readonly kind: 'close' };

let db: PGlite | undefined;

/** An error as plain data: the message, the class name and every own field (PostgreSQL's code, detail…). */
function plain(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { message: String(err) };
  const out: Record<string, unknown> = { message: err.message, name: err.name };
  for (const [k, v] of Object.entries(err)) {
    if (v === undefined || typeof v === 'function' || typeof v === 'object') continue;
    out[k] = v;
  }
  return out;
}

async function run(job: Job): Promise<Record<string, unknown>> {
  if (job.kind === 'open') {
    const { PGlite } = await import('@electric-sql/pglite');
    makeDirsSync(job.dataDir);
    const p = new PGlite(job.dataDir, pgliteStartOptions(PGlite.defaultStartParams));
    await p.waitReady;
    db = p;
    return {};
  }
  if (!db) throw new Error('the embedded database is not open');
  if (job.kind === 'close') {
    const p = db;
    db = undefined;
    await p.close();
    return {};
  }
  const r = await pgliteQuery(db, job.text, job.params);
  return { rows: r.rows, affectedRows: r.affectedRows };
}

parentPort?.on('message', (job: Job) => {
  run(job).then(
    (r) => parentPort?.postMessage({ id: job.id, ok: true, ...r }),
    (err: unknown) => parentPort?.postMessage({ id: job.id, ok: false, error: plain(err) }),
  );
});
