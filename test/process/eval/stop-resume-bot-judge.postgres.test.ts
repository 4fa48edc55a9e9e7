// Stopping and resuming evaluation work on Postgres (TEST_DATABASE_URL; bot-judge); the tests are in
// stop-resume.shared.ts.
import { describe, it } from 'vitest';
import { backends } from '../../helpers/db.ts';
import { stopResumeTests } from './stop-resume.shared.ts';

if (backends().includes('postgres')) stopResumeTests('postgres', 'bot-judge');
else
  describe('stopping and resuming evaluation work on postgres (bot-judge)', () =>
    it.skip('TEST_DATABASE_URL is not set', () => {}));
