/**
 * @module cli/config-check
 * `zhujiu config check`: validate the configuration files and the environment, and summarise them.
 */
import { loadConfig } from '../config/loader.ts';
import { AppError } from '../core/errors.ts';
import type { CliIo } from './io.ts';

/**
 * Runs `zhujiu config check`.
 * @throws AppError `config_invalid` / `env_invalid` naming the file, line and fix.
 */
export function runConfigCheck(io: CliIo): void {
  const c = loadConfig();
  if (c.env.DATABASE_URL && !c.env.ZHUJIU_VOTER_SECRET) {
    throw new AppError(
      'env_invalid',
      'ZHUJIU_VOTER_SECRET is not set: with DATABASE_URL every bot process must hash voter ids with the ' +
        'same secret. Set it, e.g. `export ZHUJIU_VOTER_SECRET=$(openssl rand -hex 32)`.',
    );
  }
  io.out(`config OK: ${c.configDir}`);
  io.out(
    `  models: ${c.models.length}${c.models.length ? ` (${c.models.map((m) => m.name).join(', ')})` : ''}`,
  );
  io.out(
    `  suites: ${c.suites.size}${c.suites.size ? ` (${[...c.suites.keys()].join(', ')})` : ''}`,
  );
  io.out(
    `  database: ${c.env.DATABASE_URL ? 'Postgres (DATABASE_URL)' : `embedded PGlite in ${c.dataDir}`}`,
  );
  const chat = [
    c.env.DISCORD_TOKEN ? 'discord' : null,
    c.env.SLACK_BOT_TOKEN ? 'slack' : null,
  ].filter(Boolean);
  io.out(
    `  chat: ${chat.length ? chat.join(', ') : 'terminal (no DISCORD_TOKEN / SLACK_BOT_TOKEN set)'}`,
  );
}
