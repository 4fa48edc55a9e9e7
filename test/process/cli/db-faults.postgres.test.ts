/**
 * Driver faults on a shared PostgreSQL with real processes (db-faults.shared.ts): connections terminated every
 * 0.3 s for 5 s (the minute-long version is test/e2e/db-faults.test.ts), four workers started at once on a fresh
 * database, a database migrated by a newer version. Only with TEST_DATABASE_URL.
 */
import { connectionKillTests, startUpTests } from './db-faults.shared.ts';

connectionKillTests(5_000);
startUpTests();
