// Eval runs in real `zhujiu worker` processes on embedded PGlite (duplicates); the test is in worker-processes.shared.ts.
import { workerProcessTests } from './worker-processes.shared.ts';

workerProcessTests('pglite', 'duplicates');
