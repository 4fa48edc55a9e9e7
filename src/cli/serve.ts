/**
 * @module cli/serve
 * Long-lived processes (`bot`, `worker`): open the runtime, start services, stay up until SIGINT/SIGTERM, then
 * shut down cleanly (stop intake, finish in-flight work, close the database).
 */
import { openRuntime, startHttpFor } from '../main.ts';

/** Runs a long-lived process until a signal arrives. */
export async function runLongLived(kind: 'bot' | 'worker', opts: { worker: boolean }): Promise<void> {
  const rt = await openRuntime();
  const http = await startHttpFor(rt);
  rt.logger.info({ kind, database: rt.db.describe, worker: opts.worker }, `zhujiu ${kind} started; press Ctrl-C to stop`);
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      rt.logger.info({ signal }, 'shutting down');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await http.stop();
  await rt.close();
  rt.logger.info('stopped');
}
