/**
 * Vitest setup file: worker threads started by the code under test (the board's, the embedded database's of
 * long-lived runtimes) run the compiled dist/ that the global setup has just brought up to date, instead of
 * loading tsx's loader in each thread (src/core/worker-thread.ts).
 */
import { threadsFromDist } from '../../src/core/worker-thread.ts';

threadsFromDist();
