/**
 * The minute-long check of test/process/cli/db-faults.shared.ts: every connection of the database of a running
 * `zhujiu worker` and `zhujiu bot` is terminated every 0.3 s for 60 s; neither exits, and the worker then
 * finishes a queued run. Only with TEST_DATABASE_URL.
 */
import { connectionKillTests } from '../process/cli/db-faults.shared.ts';

connectionKillTests(60_000);
