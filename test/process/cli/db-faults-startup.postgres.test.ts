/**
 * Start-up faults on a shared PostgreSQL with real processes (db-faults.shared.ts): four workers started at once on
 * a fresh database, a database migrated by a newer version. Only with TEST_DATABASE_URL.
 */
import { startUpTests } from './db-faults.shared.ts';

startUpTests();
