// Eval runs in real `zhujiu worker` processes on Postgres (TEST_DATABASE_URL; duplicates); the test is in
// worker-processes.shared.ts.
import { describe, it } from 'vitest';
import { backends } from '../../helpers/db.ts';
import { workerProcessTests } from './worker-processes.shared.ts';

if (backends().includes('postgres')) workerProcessTests('postgres', 'duplicates');
else
  describe('eval workers as processes on postgres (duplicates)', () =>
    it.skip('TEST_DATABASE_URL is not set', () => {}));
