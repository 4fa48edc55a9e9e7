/**
 * @module storage/template-fill-worker
 * Worker-thread entry of storage/template-fill: unpacks the prepared database's archive into a private folder
 * (`workerData`: `{ archive, folder }`, absolute paths) with storage/tar-unpack `unpackTarFileSync`, then posts
 * `{ entries }` (the number written) or `{ error }` (the failure's message) and ends. On its own thread the ~520
 * files are written while the command's main thread loads its modules, instead of in that thread's idle moments.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { unpackTarFileSync } from './tar-unpack.ts';

const { archive, folder } = workerData as { readonly archive: string; readonly folder: string };
unpackTarFileSync(archive, folder).then(
  (entries) => parentPort?.postMessage({ entries }),
  (err: unknown) =>
    parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) }),
);
