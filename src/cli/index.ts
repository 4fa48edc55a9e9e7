/**
 * @module cli
 * The `zhujiu` command line (commander): bot | worker | migrate | config check | import | ratings | export |
 * judge | leaderboard | results | suites | datasets build | submissions.
 * The only module (with cli/*) that writes to stdout with console.
 *
 * This file only declares commands and flags; it loads no heavy module. Each action imports its command's module
 * dynamically, so `zhujiu --help` stays fast and small (under 0.3 s and 80 MB, measured by bench/startup.ts and
 * guarded by test/unit/cli/lazy-loading.test.ts) and a command loads only what it uses.
 *
 * Its words are in the message catalogue, in the language of the command's environment (`LC_ALL`, `LC_MESSAGES`,
 * `LANG`: i18n `localeFromPosixEnv`; docs/architecture.md "Languages"). Commands, arguments and options are
 * declared here without descriptions: cli/help-text.ts `describeCommands` gives each the catalogue text of its
 * path (i18n/en-cli.ts, i18n/zh-CN-cli.ts), and the help and usage-error words of commander itself. To add a
 * command:
 *
 * ```ts
 * // src/cli/eval.ts holds the work and may import anything (main.ts, storage/, llm/, openai, PGlite…); it opens
 * // its runtime through cli/deps.ts (`withRuntime(deps, …)`), so an injected one is used instead:
 * //   export async function runEval(io: CliIo, suite: string, o: EvalOptions, deps: CliDeps): Promise<void> { … }
 * // i18n/en-cli.ts and zh-CN-cli.ts: 'cli.eval.description', 'cli.eval.arg.suite', 'cli.eval.opt.model'
 * program
 *   .command('eval')
 *   .argument('<suite>')
 *   .requiredOption('--model <name>')
 *   .action(async (suite: string, o: EvalOptions) => {
 *     const { runEval } = await import('./eval.ts'); // loaded only when `zhujiu eval` runs
 *     await runEval(io, suite, o, deps);
 *   });
 * ```
 *
 * Static imports here: `commander`, `import type` of anything, and the light modules below (core/errors.ts,
 * core/numbers.ts, core/version.ts, config/abilities.ts, cli/io.ts, cli/help-text.ts, i18n/cli.ts,
 * i18n/display-names.ts). Never statically
 * import main.ts, storage/, chat/, llm/, jobs/ or a package such as zod, yaml, pino, kysely, pg, PGlite, openai or
 * a chat SDK.
 */
import { type Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ABILITIES } from '../config/abilities.ts';
import { AppError, isAppError } from '../core/errors.ts';
import { parseWholeNumber } from '../core/numbers.ts';
import { packageVersion } from '../core/version.ts';
import { installBrokenError, sayCli, tc as t } from '../i18n/cli.ts';
import { idOfName } from '../i18n/display-names.ts';
import type { Locale } from '../i18n/index.ts';
import type { ConfigCheckOptions } from './config-check.ts';
import type { DatasetsBuildOptions } from './datasets.ts';
import { type CliDeps, cliLocale } from './deps.ts';
import type { EvalOptions } from './eval.ts';
import type { ExportBattlesFlags } from './export.ts';
import {
  describeCommands,
  helpConfiguration,
  helpTopics,
  localiseCommanderError,
} from './help-text.ts';
import type { ImportBattlesOptions, ImportOutputsOptions } from './import.ts';
import {
  type CliIo,
  defaultIo,
  isOutputClosed,
  takeRequestedExit,
  throwIfStdoutFailed,
  watchStdout,
} from './io.ts';
import type { ImportJudgmentsFlags, JudgeReportOptions, JudgeRunFlags } from './judge.ts';
import type { JudgeAgreeOptions } from './judge-agree.ts';
import type { JudgeExportFlags } from './judge-export.ts';
import type { LeaderboardFlags } from './leaderboard.ts';
import type { MigrateOptions } from './migrate.ts';
import type { RatingsOptions } from './ratings.ts';
import type { ResultsFlags } from './results.ts';
import type {
  SubmissionsApproveFlags,
  SubmissionsListFlags,
  SubmissionsRejectFlags,
} from './submissions.ts';
import type { SuitesOptions } from './suites.ts';
import type { VotesFlaggedFlags } from './votes.ts';

export type { CliDeps } from './deps.ts';
export type { CliIo } from './io.ts';
export { defaultIo } from './io.ts';

/** A whole-number flag value in plain decimal digits (`1e3`, `0x10`, `1.5`, `-1` and `` are refused). */
function intArg(locale: Locale, name: string, min: number) {
  return (v: string): number => {
    const n = parseWholeNumber(v, min);
    if (n === undefined && /^[0-9]+$/.test(v) && Number(v) > Number.MAX_SAFE_INTEGER)
      throw new InvalidArgumentError(
        t(locale, 'cli.usage.intTooLarge', { flag: name, max: Number.MAX_SAFE_INTEGER, value: v }),
      );
    if (n === undefined)
      throw new InvalidArgumentError(t(locale, 'cli.usage.int', { flag: name, min, value: v }));
    return n;
  };
}

/** `--since DATE`: a UTC date or an ISO-8601 time. */
function dateArg(locale: Locale) {
  return (v: string): Date => {
    // JavaScript reads a date-time without an offset as local time: such a value is given its `Z` (UTC).
    const local = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v);
    const d = /^\d{4}-\d{2}-\d{2}$/.test(v)
      ? new Date(`${v}T00:00:00Z`)
      : new Date(local ? `${v.replace(' ', 'T')}Z` : v);
    if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(v))
      throw new InvalidArgumentError(t(locale, 'cli.usage.since', { value: v }));
    return d;
  };
}

/**
 * An option taking one ability (`flags`, e.g. `--ability <name>`): its id or its display name in either language,
 * case-insensitive in English (`knowledge`, `Knowledge`, `知识`: i18n/display-names.ts `idOfName`), read as the id.
 * Help lists the ids; any other value is refused as commander refuses a value not among its choices, with a "did
 * you mean" (cli/help-text.ts `localiseCommanderError`).
 */
function abilityOption(flags: string): Option {
  const option = new Option(flags).choices(ABILITIES);
  // commander's check of the choices, which refuses the value in its words (localised by cli/help-text.ts).
  const refuse = option.parseArg as (value: string, previous: unknown) => string;
  return option.argParser(
    (v: string, previous: unknown) => idOfName(v, ABILITIES, 'ability') ?? refuse(v, previous),
  );
}

/**
 * Every option and argument of `cmd` and its subcommands with a fixed list of values (commander's `.choices`) takes
 * a value in any case (`--format CSV`, `--view Ability`), read as the listed value; any other value is refused by
 * the list as before, with a "did you mean" (cli/help-text.ts `localiseCommanderError`).
 */
function choicesInAnyCase(cmd: Command): void {
  for (const o of [...cmd.options, ...cmd.registeredArguments] as (Option | Argument)[]) {
    const choices = o.argChoices;
    const parse = o.parseArg as ((value: string, previous: unknown) => unknown) | undefined;
    if (!choices || !parse) continue;
    o.parseArg = ((value: string, previous: unknown) =>
      parse(
        choices.find((c) => c.toLowerCase() === value.toLowerCase()) ?? value,
        previous,
      )) as typeof o.parseArg;
  }
  for (const sub of cmd.commands) choicesInAnyCase(sub);
}

/** `--source NAME` of an export: the form `import battles` accepts. */
function sourceArg(locale: Locale) {
  return (v: string): string => {
    if (!/^[\w.:@-]{1,64}$/.test(v))
      throw new InvalidArgumentError(t(locale, 'cli.usage.source', { value: v }));
    return v;
  };
}

/**
 * A usage mistake the command finds itself (exit 2), `message` in the command line's language; commander writes
 * it through `outputError`, which gives it the localised `error:` (cli/help-text.ts).
 */
function usageError(cmd: Command, message: string): never {
  cmd.error(`error: ${message}`, { exitCode: 2 });
}

/** `suites` and `datasets build`: what the suites ask and the constructed datasets they read. */
function datasetCommands(program: Command, io: CliIo, deps: CliDeps): void {
  program
    .command('suites')
    .option('--json')
    .action(async (o: SuitesOptions) => {
      const { runSuites } = await import('./suites.ts');
      await runSuites(io, o, deps);
    });

  const datasets = program.command('datasets');
  datasets
    .command('build')
    .option('--out <dir>')
    .option('--json')
    .action(async (o: DatasetsBuildOptions) => {
      const { runDatasetsBuild } = await import('./datasets.ts');
      await runDatasetsBuild(io, o, deps);
    });
}

/** Adds `zhujiu results` (cli/results.ts) to `program`. */
function resultsCommand(program: Command, io: CliIo, deps: CliDeps): void {
  const locale = cliLocale(deps);
  program
    .command('results')
    .option('--run <n>', '', intArg(locale, '--run', 1))
    .option('--dataset <name>')
    .addOption(abilityOption('--ability <name>'))
    .option('--failed')
    .addOption(new Option('--format <format>').choices(['jsonl', 'csv']).default('jsonl'))
    .option('--out <file>')
    .option('--bom')
    .action(async (o: ResultsFlags, cmd: Command) => {
      if (o.run === undefined && (o.dataset || o.ability || o.failed || o.out || o.bom))
        usageError(cmd, t(locale, 'cli.results.needsRun'));
      if (o.bom && o.format !== 'csv') usageError(cmd, t(locale, 'cli.results.bomNeedsCsv'));
      const { runResults } = await import('./results.ts');
      await runResults(io, o, deps);
    });
}

/** Adds `zhujiu votes flagged` (cli/votes.ts) to `program`. */
function votesCommands(program: Command, io: CliIo, deps: CliDeps): void {
  const locale = cliLocale(deps);
  program
    .command('votes')
    .command('flagged')
    .option('--limit <n>', '', intArg(locale, '--limit', 1))
    .option('--since <date>', '', dateArg(locale))
    .option('--json')
    .action(async (o: VotesFlaggedFlags) => {
      const { runVotesFlagged } = await import('./votes.ts');
      await runVotesFlagged(io, o, deps);
    });
}

/** Adds `zhujiu submissions list|approve|reject` (cli/submissions.ts) to `program`. @returns `program`. */
function addSubmissionsCommands(program: Command, io: CliIo, deps: CliDeps): Command {
  const locale = cliLocale(deps);
  const subs = program.command('submissions');
  subs
    .command('list')
    .addOption(new Option('--status <status>').choices(['pending', 'approved', 'rejected']))
    .option('--json')
    .action(async (o: SubmissionsListFlags) => {
      const { runSubmissionsList } = await import('./submissions.ts');
      await runSubmissionsList(io, o, deps);
    });
  subs
    .command('approve')
    .argument('<id>', '', intArg(locale, '<id>', 1))
    .option('--api-key-env <VAR>')
    .option('--suite <name>', '', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
    .option('--json')
    .action(async (id: number, o: SubmissionsApproveFlags) => {
      const { runSubmissionsApprove } = await import('./submissions.ts');
      await runSubmissionsApprove(io, id, o, deps);
    });
  subs
    .command('reject')
    .argument('<id>', '', intArg(locale, '<id>', 1))
    .requiredOption('--reason <text>')
    .option('--json')
    .action(async (id: number, o: SubmissionsRejectFlags) => {
      const { runSubmissionsReject } = await import('./submissions.ts');
      await runSubmissionsReject(io, id, o, deps);
    });
  return program;
}

/**
 * Builds the program (exported for tests). Every action hands `deps` to its command: the command opens its runtime
 * from `deps.env` and closes it, or uses `deps.rt` and leaves it open.
 */
export function buildProgram(io: CliIo, deps: CliDeps): Command {
  const locale = cliLocale(deps);
  // Set before the subcommands are added, which copy them (commander's inherited settings).
  const program = new Command('zhujiu')
    .version(packageVersion(), '-V, --version')
    .helpOption('-h, --help', t(locale, 'cli.opt.help'))
    .helpCommand('help [command]', t(locale, 'cli.helpCommand'))
    .configureHelp(helpConfiguration(locale))
    .configureOutput({
      writeOut: (s) => io.out(s.trimEnd()),
      writeErr: (s) => io.err(s.trimEnd()),
      outputError: (s, write) => write(localiseCommanderError(locale, s)),
    })
    .showHelpAfterError(t(locale, 'cli.usage.seeHelp'))
    .exitOverride();

  program
    .command('bot')
    .option('--no-worker')
    .action(async (o: { worker: boolean }) => {
      const { runLongLived } = await import('./serve.ts');
      await runLongLived('bot', { worker: o.worker }, deps);
    });

  program.command('worker').action(async () => {
    const { runLongLived } = await import('./serve.ts');
    await runLongLived('worker', { worker: true }, deps);
  });

  program
    .command('migrate')
    .option('--down')
    .option('--yes')
    .option('--upgrade-data-dir')
    .action(async (o: MigrateOptions) => {
      const { runMigrate } = await import('./migrate.ts');
      await runMigrate(io, o, deps);
    });

  program
    .command('eval')
    .option('--model <name>')
    .option('--suite <name>')
    .option('--limit <n>', '', intArg(locale, '--limit', 1))
    .option('--json')
    .option('--cancel <run>', '', intArg(locale, '--cancel', 1))
    .action(async (o: EvalOptions & { cancel?: number }, cmd: Command) => {
      if (o.cancel !== undefined) {
        if (o.model || o.suite) usageError(cmd, t(locale, 'cli.eval.cancelFlags'));
        const { runEvalCancel } = await import('./eval.ts');
        return runEvalCancel(io, o.cancel, deps);
      }
      const { checkEvalFlags, runEval } = await import('./eval.ts');
      checkEvalFlags(o, (message) => cmd.error(message, { exitCode: 2 }));
      await runEval(io, o, deps);
    });

  const config = program.command('config');
  config
    .command('check')
    .option('--no-connect')
    .option('--no-endpoints')
    .action(async (o: ConfigCheckOptions) => {
      const { runConfigCheck } = await import('./config-check.ts');
      await runConfigCheck(io, o, deps);
    });

  const imp = program.command('import');
  imp
    .command('outputs')
    .argument('<file>')
    .requiredOption('--model <name>')
    .addOption(
      new Option('--format <format>')
        .choices(['alpaca_eval', 'jsonl', 'gaokao'])
        .default('alpaca_eval'),
    )
    .option('--dataset <name>')
    .addOption(abilityOption('--ability <ability>').default('language'))
    .action(async (file: string, o: ImportOutputsOptions, cmd: Command) => {
      const { runImportOutputs } = await import('./import.ts');
      const formatDefaulted = cmd.getOptionValueSource('format') === 'default';
      await runImportOutputs(io, file, { ...o, formatDefaulted }, deps);
    });
  imp
    .command('battles')
    .argument('<file>')
    .option('--source <name>')
    .addOption(abilityOption('--ability <ability>'))
    .action(async (file: string, o: ImportBattlesOptions) => {
      const { runImportBattles } = await import('./import.ts');
      await runImportBattles(io, file, o, deps);
    });

  imp
    .command('judgments')
    .argument('<path>')
    .addOption(
      new Option('--format <format>')
        .choices(['gaokao', 'gaokao-human', 'alpaca_eval'])
        .makeOptionMandatory(),
    )
    .requiredOption('--judge <name>')
    .action(async (path: string, o: ImportJudgmentsFlags) => {
      const { runImportJudgments } = await import('./judge.ts');
      await runImportJudgments(io, path, o, deps);
    });

  const judge = program.command('judge');
  judge
    .command('agree')
    .argument('<a>')
    .argument('<b>')
    .option('--json')
    .option('--order <labels>')
    .action(async (a: string, b: string, o: JudgeAgreeOptions) => {
      const { runJudgeAgree } = await import('./judge-agree.ts');
      await runJudgeAgree(io, a, b, o, cliLocale(deps));
    });
  judge
    .command('run')
    .requiredOption('--model <name>')
    .requiredOption('--suite <name>')
    .requiredOption('--judge <name>')
    .option('--attempts <n>', '', intArg(locale, '--attempts', 1))
    .action(async (o: JudgeRunFlags) => {
      const { runJudgeRun } = await import('./judge.ts');
      await runJudgeRun(io, o, deps);
    });
  judge
    .command('export')
    .requiredOption('--judge <name>')
    .option('--model <name>')
    .option('--dataset <name>')
    .option('--out <file>')
    .action(async (o: JudgeExportFlags) => {
      const { runJudgeExport } = await import('./judge-export.ts');
      await runJudgeExport(io, o, deps);
    });
  judge
    .command('report')
    .requiredOption('--model <name>')
    .option('--baseline <name>')
    .option('--judge <name>')
    .option('--json')
    .action(async (o: JudgeReportOptions) => {
      const { runJudgeReport } = await import('./judge.ts');
      await runJudgeReport(io, o, deps);
    });

  datasetCommands(program, io, deps);

  // The submissions commands, then `ratings` on the program they return.
  addSubmissionsCommands(program, io, deps)
    .command('ratings')
    .option('--battles <file>')
    .option('--bootstrap <n>', '', intArg(locale, '--bootstrap', 0))
    .option('--seed <s>', '', intArg(locale, '--seed', 0))
    .option('--anchor <model=rating>')
    .option('--json')
    .option('--style-control')
    .addOption(abilityOption('--ability <ability>'))
    .option('--source <name>', '', (v: string, prev: string[] = []) => [
      ...prev,
      sourceArg(locale)(v),
    ])
    .option('--include-named')
    .option('--include-flagged')
    .action(async (o: RatingsOptions) => {
      if (o.battles && o.source) {
        throw new AppError('input_invalid', t(locale, 'cli.ratings.sourceWithFile'));
      }
      if (o.battles) {
        // A file: no database, so the drivers are never loaded.
        const { runRatings } = await import('./ratings.ts');
        await runRatings(o, { out: io.out, locale });
      } else {
        const { runStoredRatings } = await import('./ratings-stored.ts');
        await runStoredRatings(io, o, deps);
      }
    });

  program
    .command('leaderboard')
    .argument('[name]')
    .addOption(
      new Option('--view <view>').choices(['overall', 'ability', 'method', 'model', 'style']),
    )
    .option('--source <name>', '', (v: string, prev: string[] = []) => [
      ...prev,
      sourceArg(locale)(v),
    ])
    .option('--json')
    .option('--png <file>')
    .option('--judge <name>')
    .option('--all')
    .option('--include-named')
    .option('--include-flagged')
    .action(async (name: string | undefined, o: LeaderboardFlags) => {
      const { runLeaderboard } = await import('./leaderboard.ts');
      await runLeaderboard(io, name, o, deps);
    });

  votesCommands(program, io, deps);

  resultsCommand(program, io, deps);

  const exp = program.command('export');
  exp
    .command('battles')
    .option('--source <name>', '', sourceArg(locale))
    .option('--since <date>', '', dateArg(locale))
    .addOption(new Option('--format <format>').choices(['fastchat', 'jsonl']).default('fastchat'))
    .option('--out <file>')
    .action(async (o: ExportBattlesFlags) => {
      const { runExportBattles } = await import('./export.ts');
      await runExportBattles(io, o, deps);
    });

  describeCommands(program, locale);
  choicesInAnyCase(program);
  return program;
}

/**
 * The message of an AppError in the command line's language: one that carries its message as catalogue data
 * (core/errors `said`) and a refused evaluation run (eval/refusal.ts `EvalRefusalError`, whose message is English)
 * are said again in `locale`; other messages are the command's own.
 */
async function errorText(err: AppError, locale: Locale): Promise<string> {
  if (locale === 'en') return err.message;
  if (err.said) return sayCli(locale, err.said);
  if (!('refusal' in err)) return err.message;
  const { EvalRefusalError, evalRefusalText } = await import('../eval/refusal.ts');
  return err instanceof EvalRefusalError
    ? evalRefusalText(err.refusal, locale, 'cli')
    : err.message;
}

/** `err`, or the failure of stdout once its last write has been answered ({@link throwIfStdoutFailed}). */
async function stdoutFailure(err: unknown): Promise<unknown> {
  await new Promise((next) => setImmediate(next));
  try {
    throwIfStdoutFailed();
    return err;
  } catch (failed) {
    return failed;
  }
}

/**
 * Runs the CLI. Errors become one clear message on stderr and exit code 1 (2 for usage errors); a module of the
 * installation that cannot be loaded is `install_broken` with its fix; unexpected errors print their stack. stdout closed by its reader (`… | head`, an `EPIPE`) ends any command quietly with
 * exit 0 (cli/io.ts).
 * @param argv `process.argv`'s shape: `[node, script, ...args]`.
 * @param io where it writes: {@link defaultIo} (stdout, stderr) for the `zhujiu` process.
 * @param deps the environment (`bin/zhujiu.js` passes `process.env`, the one place that reads it), or an open
 *   runtime: the command then runs on it and leaves it open, instead of opening its own from the environment and
 *   closing it (cli/deps.ts).
 * @returns the exit status, also set as `process.exitCode`.
 */
export async function runCli(argv: readonly string[], io: CliIo, deps: CliDeps): Promise<number> {
  const program = buildProgram(io, deps);
  const locale = cliLocale(deps);
  if (io === defaultIo) watchStdout();
  try {
    takeRequestedExit();
    helpTopics(program, argv.slice(2), locale);
    await program.parseAsync(argv as string[]);
    // A write's failure is emitted on the next turn: the last lines' is seen only after the command returned.
    if (io === defaultIo) {
      const failed = await stdoutFailure(undefined);
      if (failed) throw failed;
    }
    // A command that ends normally may ask for a status (130 after Ctrl-C, 1 when its work failed).
    const code = takeRequestedExit() ?? 0;
    process.exitCode = code;
    return code;
  } catch (thrown) {
    takeRequestedExit();
    // A module of the installation that cannot be loaded (a command's own, loaded on demand) is said as such; help
    // or the version that stdout would not take is that failure.
    let err = isAppError(thrown) ? thrown : (installBrokenError(thrown) ?? thrown);
    if (io === defaultIo && err instanceof CommanderError && err.exitCode === 0)
      err = await stdoutFailure(err);
    let code = 1;
    if (isOutputClosed(err)) {
      code = 0; // the reader has what it wanted (`| head`): nothing to say
    } else if (err instanceof CommanderError) {
      code = err.exitCode === 0 ? 0 : 2;
    } else if (isAppError(err)) {
      io.err(
        t(locale, 'cli.error.coded', { code: err.code, message: await errorText(err, locale) }),
      );
      if (err.code === 'input_invalid') code = 2; // a usage mistake (bad flag value)
    } else {
      io.err(t(locale, 'cli.error.unexpected', { stack: (err as Error).stack ?? String(err) }));
    }
    process.exitCode = code;
    return code;
  }
}
