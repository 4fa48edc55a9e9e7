/**
 * @module cli/migrate
 * `zhujiu migrate [--down --yes]`: apply pending migrations, or roll back the last one.
 */
import { AppError } from '../core/errors.ts';
import { openRuntime } from '../main.ts';
import { migrateDown } from '../storage/db.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu migrate`. */
export interface MigrateOptions {
  readonly down?: boolean;
  readonly yes?: boolean;
}

/**
 * Runs `zhujiu migrate`.
 * @throws AppError `input_invalid` for `--down` without `--yes`; `db_migration_failed` when a migration fails.
 */
export async function runMigrate(io: CliIo, o: MigrateOptions): Promise<void> {
  if (o.down && !o.yes) {
    throw new AppError(
      'input_invalid',
      'migrate --down rolls back the last migration and deletes the data in what it created ' +
        '(for 0001_initial: every table). Back up first, then run `zhujiu migrate --down --yes`.',
    );
  }
  const rt = await openRuntime({ migrate: !o.down, quiet: true });
  try {
    if (o.down) {
      const r = await migrateDown(rt.db.db);
      if (r.error)
        throw new AppError('db_migration_failed', String((r.error as Error).message ?? r.error));
      io.out(
        `rolled back: ${(r.results ?? []).map((x) => x.migrationName).join(', ') || '(nothing)'}`,
      );
    } else {
      io.out(`database is up to date (${rt.db.describe})`);
    }
  } finally {
    await rt.close();
  }
}
