// The arena through the terminal adapter on Postgres (TEST_DATABASE_URL); the tests are in shell.shared.ts.
import { describe, it } from 'vitest';
import { backends } from '../../helpers/db.ts';
import { shellTests } from './shell.shared.ts';

if (backends().includes('postgres')) shellTests('postgres');
else
  describe('arena through the terminal adapter (postgres)', () =>
    it.skip('TEST_DATABASE_URL is not set', () => {}));
