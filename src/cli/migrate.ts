/**
 * @module cli/migrate
 * `zhujiu migrate [--down --yes]`: apply pending migrations, or roll back the last one.
 */
import { AppError } from '../core/errors.ts';
import { migrateDown, migrateToLatest } from '../storage/db.ts';
import { type CliDeps, withRuntime } from './deps.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu migrate`. */
export interface MigrateOptions {
  readonly down?: boolean;
  readonly yes?: boolean;
}

/**
 * Runs `zhujiu migrate`.
 * @throws AppError `input_invalid` for `--down` without `--yes`; `db_migration_failed` when a migration fails.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runMigrate(io: CliIo, o: MigrateOptions, deps: CliDeps): Promise<void> {
  if (o.down && !o.yes) {
    throw new AppError(
      'input_invalid',
      'migrate --down rolls back the last migration and deletes the data in what it created ' +
        '(for 0001_initial: every table). Back up first, then run `zhujiu migrate --down --yes`.',
    );
  }
  // Migrate here, not in openRuntime, so the message says what this run did.
  await withRuntime(deps, { migrate: false }, async (rt) => {
    if (o.down) {
      const r = await migrateDown(rt.db.db);
      if (r.error)
        throw new AppError('db_migration_failed', String((r.error as Error).message ?? r.error));
      const names = (r.results ?? []).map((x) => x.migrationName);
      io.out(
        names.length === 0
          ? `nothing to roll back: no migration is applied in ${rt.db.describe}`
          : `rolled back ${names.join(', ')} in ${rt.db.describe} (what it created is gone); ` +
              '`zhujiu migrate` applies it again (every start does too)',
      );
    } else {
      const r = await migrateToLatest(rt.db.db);
      const applied = (r.results ?? [])
        .filter((x) => x.status === 'Success')
        .map((x) => x.migrationName);
      io.out(
        applied.length === 0
          ? `database is up to date (${rt.db.describe}): nothing to apply`
          : `applied ${applied.join(', ')}; database is up to date (${rt.db.describe})`,
      );
    }
  });
}
