/**
 * @module cli/config-check
 * `zhujiu config check`: the validation `bot` and `worker` run at start, and nothing else: the files' schemas
 * (config/loader.ts) and the start-up checks (config/start-checks.ts) through the same functions, then a
 * connection check of the database the start would open (skipped with `--no-connect`): Postgres is connected to;
 * embedded PGlite has its data-folder lock checked (free, or held by a named process); either database, when it
 * exists, has its migrations read (a database a newer zhujiu migrated is refused as every start refuses it),
 * then a summary, with one
 * `warning:` line per model that the start disables (LOG_FILE, when set, is opened as the start would open it) (its `api_key_env` variable is unset). The connection check
 * also asks each enabled OpenAI-compatible endpoint `GET /models` once (llm/endpoint-check; skipped with
 * `--no-endpoints` or `--no-connect`): a wrong base URL, a refused key or an unreachable server fails the check.
 */
import { existsSync, mkdtempSync, rmdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { filesOf } from '../config/files.ts';
import { assertStartable, disabledModels } from '../config/start-checks.ts';
import { AppError } from '../core/errors.ts';
import { checkLogFile } from '../core/logger.ts';
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import { checkEndpoint } from '../llm/endpoint-check.ts';
import type { DbTarget } from '../storage/db.ts';
import { type CliDeps, cliLocale, configOf } from './deps.ts';

import type { CliIo } from './io.ts';

/** Flags of `config check`. */
export interface ConfigCheckOptions {
  /** false with `--no-connect`: do not try the database connection. */
  readonly connect?: boolean;
  /** false with `--no-endpoints`: do not ask the models' endpoints `GET /models`. */
  readonly endpoints?: boolean;
}

/**
 * Opens the database, reads its migrations and closes it: "Postgres at h/db, reachable, migrations up to date
 * (11)" or "… 2 to apply at the next start".
 * @throws AppError `db_unavailable`; `db_newer` when a newer zhujiu migrated it (storage/db.ts refuseNewer).
 */
async function checkMigrations(target: DbTarget, locale: Locale): Promise<string> {
  const { migrationStatus, openDb, refuseNewer } = await import('../storage/db.ts');
  const db = await openDb(target);
  try {
    const st = await migrationStatus(db.db);
    refuseNewer(st);
    const where =
      target.kind === 'postgres' ? tc(locale, 'cli.config.reachable', { db: db.describe }) : '';
    return st.pending.length === 0
      ? tc(locale, 'cli.config.upToDate', { where, n: st.applied.length })
      : tc(locale, 'cli.config.pending', {
          where,
          applied: st.applied.length,
          n: st.pending.length,
          list: listText(locale, st.pending),
        });
  } finally {
    await db.close();
  }
}

/**
 * Runs `zhujiu config check`.
 * @throws AppError `config_invalid` / `env_invalid` naming the file, line and fix; `db_unavailable` when
 *   `DATABASE_URL` cannot be reached, or the PGlite data folder is held by another process, naming it (unless
 *   `--no-connect`); `db_newer` when a newer zhujiu migrated the database; `llm_failed` listing every endpoint that failed `GET /models` (unless `--no-endpoints` or
 *   `--no-connect`).
 * @param deps an open runtime to run on (left open), or the environment to open one from (cli/deps.ts).
 */
export async function runConfigCheck(
  io: CliIo,
  o: ConfigCheckOptions,
  deps: CliDeps,
): Promise<void> {
  const c = await configOf(deps);
  const locale = cliLocale(deps);
  assertStartable(c, locale);
  // The log file a start would open (main.ts logOutput): one that cannot be opened stops the start, so here too.
  const logFile = c.env.LOG_FILE;
  if (logFile && logFile !== '-' && logFile !== 'stderr') checkLogFile(resolve(logFile));
  let database: string;
  if (!c.env.DATABASE_URL) {
    if (o.connect === false) {
      database = tc(locale, 'cli.config.pgliteNotChecked', { dir: c.dataDir });
    } else {
      database = await checkPgliteFolder(c.dataDir, locale);
    }
  } else if (o.connect === false) {
    database = tc(locale, 'cli.config.postgresNotChecked');
  } else {
    database = await checkMigrations(
      { kind: 'postgres', url: c.env.DATABASE_URL, poolSize: 1 },
      locale,
    );
  }
  const endpoints: string[] = [];
  if (o.connect !== false && o.endpoints !== false) {
    const disabled = new Set(disabledModels(c).map((d) => d.name));
    const seen = new Set<string>();
    const failed: string[] = [];
    for (const m of c.models) {
      if (m.provider !== 'openai' || disabled.has(m.name)) continue;
      // Once per endpoint and key: models sharing both share the answer.
      const key = `${m.base_url.replace(/\/+$/u, '')}\u0000${m.api_key_env ?? ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const r = await checkEndpoint(
        {
          name: m.name,
          baseUrl: m.base_url,
          model: m.model,
          apiKey: c.apiKeyFor(m.name),
          apiKeyEnv: m.api_key_env,
          timeoutMs: Math.min(m.timeout_ms, 30_000),
          entryIn: filesOf(c).models,
        },
        locale,
      );
      (r.ok ? endpoints : failed).push(r.message);
    }
    if (failed.length > 0) {
      // What was checked and the warnings still print; the failures follow on stderr, exit 1.
      printChecked(io, locale, c, database, endpoints, false);
      throw new AppError(
        'llm_failed',
        tc(locale, 'cli.config.endpointsFailed', {
          n: failed.length,
          list: failed.map((f) => `  ${f}`).join('\n'),
        }),
      );
    }
  }
  printChecked(io, locale, c, database, endpoints, true);
}

/**
 * The embedded database's "connection" check: is its folder free for this process (one at a time)? The lock is
 * taken and given back at once; a holder is named (pid, host, since) with what to do. A folder that exists is
 * opened to read its migrations. A folder whose parent does not exist yet is left so (a check creates nothing):
 * the nearest existing folder above it must be writable for the first start to create it.
 * @returns the database line of the summary.
 * @throws AppError `db_unavailable` naming the folder and the fix.
 */
async function checkPgliteFolder(dataDir: string, locale: Locale): Promise<string> {
  let above = dirname(dataDir);
  if (!existsSync(above)) {
    while (!existsSync(above) && dirname(above) !== above) above = dirname(above);
    // A folder made and removed at once proves what the first start needs (write access alone does not: /proc).
    try {
      rmdirSync(mkdtempSync(join(above, '.zhujiu-check-')));
    } catch (err) {
      // Named as every command names it: the folder that cannot be written (`above`), why, and the fix.
      throw (await import('../storage/db.ts')).unusableDataDir(dataDir, err);
    }
    return tc(locale, 'cli.config.pgliteNew', { dir: dataDir });
  }
  // A file where the folder should be, or a folder of other files, is refused as every command refuses it; a
  // folder that cannot be created or locked is said as every command says it (storage/db `unusableDataDir`).
  (await import('../storage/data-folder.ts')).refuseForeignDataDir(dataDir);
  const [{ lockDataDir }, { unusableDataDir }] = await Promise.all([
    import('../storage/data-dir-lock.ts'),
    import('../storage/db.ts'),
  ]);
  const release = await lockDataDir(dataDir).catch((err: unknown) => {
    throw unusableDataDir(dataDir, err);
  });
  release();
  const free = tc(locale, 'cli.config.pgliteFree', { dir: dataDir });
  return existsSync(join(dataDir, 'PG_VERSION'))
    ? `${free}${tc(locale, 'cli.outputs.sep')}${await checkMigrations({ kind: 'pglite', dataDir }, locale)}`
    : free;
}

/** What `zhujiu config check` found, on stdout; `ok` false: an endpoint failed (said on stderr after this). */
function printChecked(
  io: CliIo,
  locale: Locale,
  c: Awaited<ReturnType<typeof configOf>>,
  database: string,
  endpoints: readonly string[],
  ok: boolean,
): void {
  const sep = tc(locale, 'cli.list.sep');
  const names = (list: readonly string[]) =>
    list.length ? tc(locale, 'cli.config.names', { names: list.join(sep) }) : '';
  io.out(tc(locale, ok ? 'cli.config.ok' : 'cli.config.read', { dir: c.configDir }));
  io.out(
    tc(locale, 'cli.config.models', {
      n: c.models.length,
      names: names(c.models.map((m) => m.name)),
    }),
  );
  io.out(tc(locale, 'cli.config.suites', { n: c.suites.size, names: names([...c.suites.keys()]) }));
  io.out(tc(locale, 'cli.config.database', { database }));
  for (const e of endpoints) io.out(tc(locale, 'cli.config.endpoint', { endpoint: e }));
  // Not a refusal: the bot starts without these models (config/start-checks.ts disabledModels).
  for (const d of disabledModels(c, locale))
    io.out(tc(locale, 'cli.config.warning', { warning: d.warning }));
  const chat = [
    c.env.DISCORD_TOKEN ? 'discord' : null,
    c.env.SLACK_BOT_TOKEN
      ? tc(locale, 'cli.config.slack', { mode: c.app.platforms.slack.mode })
      : null,
  ].filter(Boolean);
  io.out(
    tc(locale, 'cli.config.chat', {
      chat: chat.length ? chat.join(sep) : tc(locale, 'cli.config.terminal'),
    }),
  );
}
