// Eval runs in real `zhujiu worker` processes on embedded PGlite (kill); the test is in worker-processes.shared.ts.
import { workerProcessTests } from './worker-processes.shared.ts';

workerProcessTests('pglite', 'kill');
