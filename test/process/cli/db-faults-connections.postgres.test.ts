/**
 * Driver faults on a shared PostgreSQL with real processes (db-faults.shared.ts): connections terminated every
 * 0.3 s for 5 s (the minute-long version is test/e2e/db-faults.test.ts). Only with TEST_DATABASE_URL. The start-up
 * faults are db-faults-startup.postgres.test.ts, a file of their own so the two run side by side.
 */
import { connectionKillTests } from './db-faults.shared.ts';

connectionKillTests(5_000);
