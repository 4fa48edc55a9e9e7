/**
 * @module cli/migrate
 * `zhujiu migrate [--down --yes | --upgrade-data-dir]`: apply pending migrations, roll back the last one, or
 * upgrade an embedded folder made by PostgreSQL 17 (storage/pglite-upgrade.ts).
 */

import { AppError } from '../core/errors.ts';
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { migrateDown, migrateToLatest } from '../storage/db.ts';
import { type CliDeps, cliLocale, configOf, dbText, withRuntime } from './deps.ts';
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
  const locale = cliLocale(deps);
  if (o.down && !o.yes) throw new AppError('input_invalid', tc(locale, 'cli.migrate.downNeedsYes'));
  // Migrate here, not in openRuntime, so the message says what this run did.
  await withRuntime(deps, { migrate: false }, async (rt) => {
    if (o.down) {
      const r = await migrateDown(rt.db.db);
      if (r.error)
        throw new AppError('db_migration_failed', String((r.error as Error).message ?? r.error));
      const names = (r.results ?? []).map((x) => x.migrationName);
      io.out(
        names.length === 0
          ? tc(locale, 'cli.migrate.nothingDown', { db: dbText(rt.db.target, locale) })
          : tc(locale, 'cli.migrate.rolledBack', {
              names: listText(locale, names),
              db: dbText(rt.db.target, locale),
            }),
      );
    } else {
      const r = await migrateToLatest(rt.db.db);
      const applied = (r.results ?? [])
        .filter((x) => x.status === 'Success')
        .map((x) => x.migrationName);
      const db = dbText(rt.db.target, locale);
      const names = listText(locale, applied);
      // A database this run created says so: "up to date" alone read as if nothing had happened.
      io.out(
        rt.db.created === true
          ? applied.length === 0
            ? tc(locale, 'cli.migrate.created', { db })
            : tc(locale, 'cli.migrate.createdApplied', { db, names })
          : applied.length === 0
            ? tc(locale, 'cli.migrate.upToDate', { db })
            : tc(locale, 'cli.migrate.applied', { names, db }),
      );
    }
  });
}

/**
 * The progress line of `zhujiu migrate --upgrade-data-dir` for one copied table, in the command line's language:
 * `copied votes: 10 rows`.
 */
export function upgradeProgressLine(
  locale: Locale,
  copied: { readonly table: string; readonly rows: number },
): string {
  return tc(locale, 'cli.migrate.upgradeCopied', copied);
}

/** `zhujiu migrate --upgrade-data-dir`: storage/pglite-upgrade.ts on the configured data folder. */
async function runUpgrade(io: CliIo, o: MigrateOptions, deps: CliDeps): Promise<void> {
  const locale = cliLocale(deps);
  if (o.down) throw new AppError('input_invalid', tc(locale, 'cli.migrate.upgradeAndDown'));
  const config = await configOf(deps);
  if (config.env.DATABASE_URL)
    throw new AppError('input_invalid', tc(locale, 'cli.migrate.upgradePostgres'));
  const { upgradeDataDir } = await import('../storage/pglite-upgrade.ts');
  const r = await upgradeDataDir(config.dataDir, {
    progress: (copied) => io.err(upgradeProgressLine(locale, copied)),
  });
  if (r.outcome === 'empty') {
    io.out(tc(locale, 'cli.migrate.upgradeEmpty', { dir: r.dataDir }));
    return;
  }
  if (r.outcome === 'current') {
    io.out(tc(locale, 'cli.migrate.upgradeCurrent', { dir: r.dataDir }));
    return;
  }
  const rows = r.tables.reduce((n, t) => n + t.rows, 0);
  const backup = r.backupDir
    ? tc(locale, 'cli.migrate.upgradeBackup', { backup: r.backupDir })
    : '';
  io.out(
    r.outcome === 'finished'
      ? tc(locale, 'cli.migrate.upgradeFinished', { dir: r.dataDir, backup })
      : tc(locale, 'cli.migrate.upgraded', {
          dir: r.dataDir,
          tables: r.tables.length,
          rows,
          secs: (r.ms / 1000).toFixed(1),
          applied:
            r.migrationsApplied.length > 0
              ? tc(locale, 'cli.migrate.thenApplied', {
                  names: listText(locale, r.migrationsApplied),
                })
              : '',
          backup: r.backupDir ?? '',
        }),
  );
}
