/**
 * @module cli/migrate
 * `zhujiu migrate [--down --yes | --upgrade-data-dir]`: apply pending migrations, roll back the last one, or
 * upgrade an embedded folder made by PostgreSQL 17 (storage/pglite-upgrade.ts).
 */

import { AppError } from '../core/errors.ts';
import { migrateDown, migrateToLatest } from '../storage/db.ts';
import { type CliDeps, configOf, withRuntime } from './deps.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu migrate`. */
export interface MigrateOptions {
  readonly down?: boolean;
  readonly yes?: boolean;
  readonly upgradeDataDir?: boolean;
}

/**
 * Runs `zhujiu migrate`.
 * @throws AppError `input_invalid` for `--down` without `--yes`, or `--upgrade-data-dir` with `--down` or with
 *   DATABASE_URL set; `db_migration_failed` when a migration or the upgrade fails.
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runMigrate(io: CliIo, o: MigrateOptions, deps: CliDeps): Promise<void> {
  if (o.upgradeDataDir) return runUpgrade(io, o, deps);
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

/** `zhujiu migrate --upgrade-data-dir`: storage/pglite-upgrade.ts on the configured data folder. */
async function runUpgrade(io: CliIo, o: MigrateOptions, deps: CliDeps): Promise<void> {
  if (o.down)
    throw new AppError(
      'input_invalid',
      '--upgrade-data-dir and --down do different things: run one of them at a time.',
    );
  const config = await configOf(deps);
  if (config.env.DATABASE_URL)
    throw new AppError(
      'input_invalid',
      '--upgrade-data-dir upgrades the embedded database folder (ZHUJIU_DATA_DIR), and DATABASE_URL is set: ' +
        'a Postgres server is upgraded with its own tools (pg_upgrade). Unset DATABASE_URL to upgrade the folder.',
    );
  const { upgradeDataDir } = await import('../storage/pglite-upgrade.ts');
  const r = await upgradeDataDir(config.dataDir, { progress: (line) => io.err(line) });
  if (r.outcome === 'empty') {
    io.out(
      `${r.dataDir} holds no embedded database yet: nothing to upgrade (zhujiu creates a PostgreSQL 18 folder there when it first runs)`,
    );
    return;
  }
  if (r.outcome === 'current') {
    io.out(`${r.dataDir} is already a PostgreSQL 18 folder: nothing to upgrade`);
    return;
  }
  const rows = r.tables.reduce((n, t) => n + t.rows, 0);
  io.out(
    r.outcome === 'finished'
      ? `finished an earlier upgrade of ${r.dataDir}${r.backupDir ? ` (the old folder is ${r.backupDir})` : ''}`
      : `upgraded ${r.dataDir} to PostgreSQL 18: ${r.tables.length} tables, ${rows} rows copied and counted ` +
          `in ${(r.ms / 1000).toFixed(1)} s${r.migrationsApplied.length > 0 ? `, then applied ${r.migrationsApplied.join(', ')}` : ''}. ` +
          `The old folder is kept at ${r.backupDir}: delete it once zhujiu runs as before.`,
  );
}
