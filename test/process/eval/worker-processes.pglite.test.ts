// Eval runs in real `zhujiu worker` processes on embedded PGlite; the tests are in worker-processes.shared.ts.
import { workerProcessTests } from './worker-processes.shared.ts';

workerProcessTests('pglite');
