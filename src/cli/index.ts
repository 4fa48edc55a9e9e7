/**
 * @module cli
 * The `zhujiu` command line (commander): bot | worker | migrate | config check | import | ratings.
 * The only module (with cli/*) that writes to stdout with console.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { loadConfig } from '../config/loader.ts';
import { ABILITIES } from '../config/schema.ts';
import { AppError, isAppError } from '../core/errors.ts';
import { importBattles } from '../import/battles.ts';
import { importOutputs } from '../import/outputs.ts';
import { openRuntime } from '../main.ts';
import { migrateDown } from '../storage/db.ts';
import { registerExport } from './export-command.ts';
import { registerRatings } from './ratings-command.ts';
import { runLongLived } from './serve.ts';

function intArg(name: string, min: number) {
  return (v: string): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min)
      throw new InvalidArgumentError(`${name} must be an integer ≥ ${min}, got "${v}"`);
    return n;
  };
}

/** Writes the CLI's output; tests replace it. */
export interface CliIo {
  out(s: string): void;
  err(s: string): void;
}

const defaultIo: CliIo = {
  out: (s) => process.stdout.write(`${s}\n`),
  err: (s) => process.stderr.write(`${s}\n`),
};

/** Builds the program (exported for tests). */
export function buildProgram(io: CliIo = defaultIo): Command {
  const program = new Command('zhujiu')
    .description(
      'ZhuJiu Arena: evaluate LLMs with metrics, an LLM judge and a crowdsourced chat arena',
    )
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  program
    .command('bot')
    .description(
      'run the chat bot (Discord / Slack / terminal) with an in-process worker; the default of `npm start`',
    )
    .option('--no-worker', 'do not run the in-process worker')
    .action(async (o: { worker: boolean }) => runLongLived('bot', { worker: o.worker }));

  program
    .command('worker')
    .description(
      'run queued work (closing battles, scheduled posts); start several against one DATABASE_URL',
    )
    .action(async () => runLongLived('worker', { worker: true }));

  program
    .command('migrate')
    .description('apply pending database migrations (also done at every start)')
    .option(
      '--down',
      'roll back the last migration instead (drops what it created: with 0001, every table)',
    )
    .option('--yes', 'confirm --down')
    .action(async (o: { down?: boolean; yes?: boolean }) => {
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
            throw new AppError(
              'db_migration_failed',
              String((r.error as Error).message ?? r.error),
            );
          io.out(
            `rolled back: ${(r.results ?? []).map((x) => x.migrationName).join(', ') || '(nothing)'}`,
          );
        } else {
          io.out(`database is up to date (${rt.db.describe})`);
        }
      } finally {
        await rt.close();
      }
    });

  const config = program.command('config').description('configuration tools');
  config
    .command('check')
    .description(
      'validate config/default.yaml, config/models.yaml, config/suites/*.yaml and the environment',
    )
    .action(() => {
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
    });

  const imp = program
    .command('import')
    .description('import recorded outputs or public arena votes');
  imp
    .command('outputs')
    .description(
      'store recorded model outputs as responses (AlpacaEval model_outputs.json or JSONL {item, prompt, output})',
    )
    .argument('<file>', 'the outputs file')
    .requiredOption('--model <name>', 'the model that produced the outputs')
    .addOption(
      new Option('--format <format>', 'file format')
        .choices(['alpaca_eval', 'jsonl'])
        .default('alpaca_eval'),
    )
    .option(
      '--dataset <name>',
      'dataset to file the items under (default: alpaca_eval, or the file name for jsonl)',
    )
    .addOption(
      new Option('--ability <ability>', 'ability dimension of the items')
        .choices(ABILITIES)
        .default('language'),
    )
    .action(
      async (
        file: string,
        o: {
          model: string;
          format: 'alpaca_eval' | 'jsonl';
          dataset?: string;
          ability: (typeof ABILITIES)[number];
        },
      ) => {
        const rt = await openRuntime({ quiet: true });
        try {
          const t0 = performance.now();
          const r = await importOutputs(rt.db.db, {
            file,
            model: o.model,
            format: o.format,
            ability: o.ability,
            ...(o.dataset ? { dataset: o.dataset } : {}),
          });
          io.out(
            `imported ${r.added} ${r.added === 1 ? 'response' : 'responses'} for ${r.model} into dataset ` +
              `${r.dataset} (${r.rows} rows, ${r.skipped} already present` +
              `${r.differing > 0 ? `; ${r.differing} of them differ from the file and were kept as stored` : ''}) ` +
              `in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
          );
        } finally {
          await rt.close();
        }
      },
    );
  imp
    .command('battles')
    .description(
      'store public arena votes, JSONL {model_a, model_b, winner}, as closed battles with one vote each',
    )
    .argument('<file>', 'the battles JSONL file')
    .option('--source <name>', 'tag for the imported battles (default: the file name)')
    .addOption(
      new Option('--ability <ability>', 'ability dimension of the battles').choices(ABILITIES),
    )
    .action(async (file: string, o: { source?: string; ability?: (typeof ABILITIES)[number] }) => {
      const rt = await openRuntime({ quiet: true });
      try {
        const t0 = performance.now();
        const r = await importBattles(rt.db.db, {
          file,
          ...(o.source ? { source: o.source } : {}),
          ...(o.ability ? { ability: o.ability } : {}),
        });
        io.out(
          `imported ${r.added} battles (${r.added} votes) from source ${r.source} (${r.rows} rows, ${r.skipped} already present, ${r.models} models) in ${((performance.now() - t0) / 1000).toFixed(2)} s`,
        );
      } finally {
        await rt.close();
      }
    });

  registerRatings(program, io, intArg);
  registerExport(program, io);
  return program;
}

/**
 * Runs the CLI. Errors become one clear message on stderr and exit code 1 (2 for usage errors); unexpected
 * errors print their stack.
 */
export async function runCli(argv: readonly string[], io: CliIo = defaultIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync(argv as string[]);
    return 0;
  } catch (err) {
    let code = 1;
    if (err instanceof CommanderError) {
      code = err.exitCode === 0 ? 0 : 2;
    } else if (isAppError(err)) {
      io.err(`error [${err.code}]: ${err.message}`);
      if (err.code === 'input_invalid') code = 2; // a usage mistake (bad flag value)
    } else {
      io.err(`unexpected error: ${(err as Error).stack ?? String(err)}`);
    }
    process.exitCode = code;
    return code;
  }
}
