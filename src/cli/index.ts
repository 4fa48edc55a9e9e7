/**
 * @module cli
 * The `zhujiu` command line (commander): bot | worker | migrate | config check | import | ratings | export |
 * judge | leaderboard | results | suites | datasets build | submissions.
 * The only module (with cli/*) that writes to stdout with console.
 *
 * This file only declares commands and flags; it loads no heavy module. Each action imports its command's module
 * dynamically, so `zhujiu --help` stays fast and small (under 0.3 s and 80 MB, measured by bench/startup.ts and
 * guarded by test/unit/cli/lazy-loading.test.ts) and a command loads only what it uses. To add a command:
 *
 * ```ts
 * // src/cli/eval.ts holds the work and may import anything (main.ts, storage/, llm/, openai, PGlite…); it opens
 * // its runtime through cli/deps.ts (`withRuntime(deps, …)`), so an injected one is used instead:
 * //   export async function runEval(io: CliIo, suite: string, o: EvalOptions, deps: CliDeps): Promise<void> { … }
 * program
 *   .command('eval')
 *   .description('run an evaluation suite against a model')
 *   .argument('<suite>', 'the suite name')
 *   .requiredOption('--model <name>', 'the model to evaluate')
 *   .action(async (suite: string, o: EvalOptions) => {
 *     const { runEval } = await import('./eval.ts'); // loaded only when `zhujiu eval` runs
 *     await runEval(io, suite, o, deps);
 *   });
 * ```
 *
 * Static imports here: `commander`, `import type` of anything, and the light modules below (core/errors.ts,
 * core/numbers.ts, core/version.ts, config/abilities.ts, cli/io.ts). Never statically import main.ts, storage/, chat/, llm/, jobs/ or a package
 * such as zod, yaml, pino, kysely, pg, PGlite, openai or a chat SDK.
 */
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { ABILITIES } from '../config/abilities.ts';
import { AppError, isAppError } from '../core/errors.ts';
import { parseWholeNumber } from '../core/numbers.ts';
import { packageVersion } from '../core/version.ts';
import type { ConfigCheckOptions } from './config-check.ts';
import type { DatasetsBuildOptions } from './datasets.ts';
import type { CliDeps } from './deps.ts';
import type { EvalOptions } from './eval.ts';
import type { ExportBattlesFlags } from './export.ts';
import type { ImportBattlesOptions, ImportOutputsOptions } from './import.ts';
import { type CliIo, defaultIo, isOutputClosed, takeRequestedExit, watchStdout } from './io.ts';
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
function intArg(name: string, min: number) {
  return (v: string): number => {
    const n = parseWholeNumber(v, min);
    if (n === undefined && /^[0-9]+$/.test(v) && Number(v) > Number.MAX_SAFE_INTEGER)
      throw new InvalidArgumentError(
        `${name} must be at most ${Number.MAX_SAFE_INTEGER}, got "${v}"`,
      );
    if (n === undefined)
      throw new InvalidArgumentError(
        `${name} must be an integer ≥ ${min} in plain decimal digits, got "${v}"`,
      );
    return n;
  };
}

/** `--since DATE`: a UTC date or an ISO-8601 time. */
function dateArg(v: string): Date {
  // JavaScript reads a date-time without an offset as local time: such a value is given its `Z` (UTC).
  const local = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(v);
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v)
    ? new Date(`${v}T00:00:00Z`)
    : new Date(local ? `${v.replace(' ', 'T')}Z` : v);
  if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(v))
    throw new InvalidArgumentError(
      `--since must be a date like 2026-11-30 or 2026-11-30T12:00:00Z (UTC unless an offset is given), got "${v}"`,
    );
  return d;
}

/** `--source NAME` of an export: the form `import battles` accepts. */
function sourceArg(v: string): string {
  if (!/^[\w.:@-]{1,64}$/.test(v))
    throw new InvalidArgumentError(`--source "${v}": use 1–64 letters, digits and . _ : @ -`);
  return v;
}

/** `suites` and `datasets build`: what the suites ask and the constructed datasets they read. */
function datasetCommands(program: Command, io: CliIo, deps: CliDeps): void {
  program
    .command('suites')
    .description(
      'list the evaluation suites (config/suites/*.yaml) with their datasets and item counts, read from the datasets folder (ZHUJIU_DATASETS_DIR)',
    )
    .option('--json', 'print {"suites":[…]} instead of a table')
    .action(async (o: SuitesOptions) => {
      const { runSuites } = await import('./suites.ts');
      await runSuites(io, o, deps);
    });

  const datasets = program.command('datasets').description('constructed datasets');
  datasets
    .command('build')
    .description(
      "build the constructed datasets (ZhuJiu knowledge sets) from the installed npm data packages, deterministically, into the datasets folder's zhujiu-built/ with a manifest.json",
    )
    .option('--out <dir>', 'the output folder (default: <datasets folder>/zhujiu-built)')
    .option('--json', 'print the manifest as JSON ({"out", "format", "builders":[…]})')
    .action(async (o: DatasetsBuildOptions) => {
      const { runDatasetsBuild } = await import('./datasets.ts');
      await runDatasetsBuild(io, o, deps);
    });
}

/** Adds `zhujiu results` (cli/results.ts) to `program`. */
function resultsCommand(program: Command, io: CliIo, deps: CliDeps): void {
  program
    .command('results')
    .description(
      "an evaluation run's item-level results, one record per finished item: prompt, answer (reasoning apart), extracted answer, score, judge grade and rationale, safety verdict, failure cause; without --run, lists the latest runs",
    )
    .option('--run <n>', 'the run (its number, as `zhujiu eval` prints it)', intArg('--run', 1))
    .option('--dataset <name>', "only this dataset's items")
    .option('--ability <name>', 'only items of this ability')
    .option('--failed', 'only items that failed (with their failure cause)')
    .addOption(
      new Option('--format <format>', 'JSON lines or CSV (RFC 4180, with a header row)')
        .choices(['jsonl', 'csv'])
        .default('jsonl'),
    )
    .option('--out <file>', 'write to FILE (atomically) instead of standard output')
    .action(async (o: ResultsFlags, cmd: Command) => {
      if (o.run === undefined && (o.dataset || o.ability || o.failed || o.out))
        cmd.error('error: --dataset, --ability, --failed and --out need --run N', { exitCode: 2 });
      const { runResults } = await import('./results.ts');
      await runResults(io, o, deps);
    });
}

/** Adds `zhujiu votes flagged` (cli/votes.ts) to `program`. */
function votesCommands(program: Command, io: CliIo, deps: CliDeps): void {
  program
    .command('votes')
    .description('stored votes: the flagged ones (docs/scoring.md §4.3)')
    .command('flagged')
    .description(
      'the flagged live votes (over arena.hygiene.daily_vote_cap, or cast faster than read_ms_per_char), newest first; left out of ratings and the board unless --include-flagged',
    )
    .option('--limit <n>', 'at most N votes (default 100, up to 10000)', intArg('--limit', 1))
    .option('--since <date>', 'only votes cast at or after this date (UTC)', dateArg)
    .option(
      '--json',
      'print {"votes":[{"battle","battle_id","source","platform","voter","choice","flag","detail","cast_at"}]}',
    )
    .action(async (o: VotesFlaggedFlags) => {
      const { runVotesFlagged } = await import('./votes.ts');
      await runVotesFlagged(io, o, deps);
    });
}

/** Adds `zhujiu submissions list|approve|reject` (cli/submissions.ts) to `program`. @returns `program`. */
function addSubmissionsCommands(program: Command, io: CliIo, deps: CliDeps): Command {
  const subs = program
    .command('submissions')
    .description(
      'model submissions made with /submit in chat: list, approve, reject (maintainers)',
    );
  subs
    .command('list')
    .description('list submissions, newest first (at most 200)')
    .addOption(
      new Option('--status <status>', 'only submissions of this status').choices([
        'pending',
        'approved',
        'rejected',
      ]),
    )
    .option(
      '--json',
      'print {"submissions":[{"id","name","base_url","model","description","organisation","licence","status","submitted_by","submitted_at","decided_by","decided_at","reason","api_key_env","runs"}]}',
    )
    .action(async (o: SubmissionsListFlags) => {
      const { runSubmissionsList } = await import('./submissions.ts');
      await runSubmissionsList(io, o, deps);
    });
  subs
    .command('approve')
    .description(
      'register submission ID as a model and create its runs (submissions.suites); a running bot or worker takes them up',
    )
    .argument('<id>', 'the submission number', intArg('<id>', 1))
    .option(
      '--api-key-env <VAR>',
      'the environment variable that holds its API key (set here and where the runs are worked)',
    )
    .option(
      '--suite <name>',
      'queue this suite instead of submissions.suites (repeatable)',
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option(
      '--json',
      'print {"submission":{…as list},"runs":[{"suite","run"}],"refused":[{"suite","reason"}]}',
    )
    .action(async (id: number, o: SubmissionsApproveFlags) => {
      const { runSubmissionsApprove } = await import('./submissions.ts');
      await runSubmissionsApprove(io, id, o, deps);
    });
  subs
    .command('reject')
    .description('reject submission ID; the submitter is told the reason')
    .argument('<id>', 'the submission number', intArg('<id>', 1))
    .requiredOption('--reason <text>', 'why (the submitter is told)')
    .option('--json', 'print {"submission":{…as list}}')
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
  const program = new Command('zhujiu')
    .description(
      'ZhuJiu Arena: evaluate LLMs with metrics, an LLM judge and a crowdsourced chat arena',
    )
    .version(packageVersion(), '-V, --version', 'print the version of zhujiu and exit')
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()) })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  program
    .command('bot')
    .description(
      'run the chat bot (Discord / Slack / terminal) with an in-process worker; the default of `npm start`',
    )
    .option('--no-worker', 'do not run the in-process worker')
    .action(async (o: { worker: boolean }) => {
      const { runLongLived } = await import('./serve.ts');
      await runLongLived('bot', { worker: o.worker }, deps);
    });

  program
    .command('worker')
    .description(
      'run queued evaluation runs and close due battles (posting needs a chat connection: the bot posts); start several against one DATABASE_URL',
    )
    .action(async () => {
      const { runLongLived } = await import('./serve.ts');
      await runLongLived('worker', { worker: true }, deps);
    });

  program
    .command('migrate')
    .description('apply pending database migrations (also done at every start)')
    .option(
      '--down',
      'roll back the last migration instead (drops what it created: with 0001, every table)',
    )
    .option('--yes', 'confirm --down')
    .option(
      '--upgrade-data-dir',
      'copy an embedded database folder made by an earlier zhujiu (PostgreSQL 17) into a PostgreSQL 18 one in its place, keeping the old one beside it as a backup',
    )
    .action(async (o: MigrateOptions) => {
      const { runMigrate } = await import('./migrate.ts');
      await runMigrate(io, o, deps);
    });

  program
    .command('eval')
    .description(
      'run an evaluation suite against a model in the foreground (progress on stderr, summary on stdout); `zhujiu eval --cancel RUN` cancels a run',
    )
    .option('--model <name>', 'the model (config/models.yaml, or one with imported answers)')
    .option('--suite <name>', 'the suite (config/suites/*.yaml; `zhujiu suites` lists them)')
    .option('--limit <n>', 'ask at most N items of each dataset', intArg('--limit', 1))
    .option(
      '--json',
      'print {"run","model","suite","datasets":[{"dataset","ability","method","metric","profile","score","n","earned","possible","failures"}]}',
    )
    .option(
      '--cancel <run>',
      'cancel run RUN instead (one running in another process stops at its next heartbeat)',
      intArg('--cancel', 1),
    )
    .action(async (o: EvalOptions & { cancel?: number }, cmd: Command) => {
      if (o.cancel !== undefined) {
        if (o.model || o.suite)
          cmd.error('error: --cancel RUN takes no --model or --suite', { exitCode: 2 });
        const { runEvalCancel } = await import('./eval.ts');
        return runEvalCancel(io, o.cancel, deps);
      }
      const { checkEvalFlags, runEval } = await import('./eval.ts');
      checkEvalFlags(o, (message) => cmd.error(message, { exitCode: 2 }));
      await runEval(io, o, deps);
    });

  const config = program.command('config').description('configuration tools');
  config
    .command('check')
    .description(
      'validate config/default.yaml, config/models.yaml, config/suites/*.yaml and the environment exactly as `bot` and `worker` do at start, then try the database connection (Postgres), or check that the PGlite data folder is free (not held by another zhujiu process), and ask each model endpoint GET /models once',
    )
    .option(
      '--no-connect',
      'skip the connection checks (database / data-folder lock, model endpoints)',
    )
    .option('--no-endpoints', 'skip asking each model endpoint GET /models')
    .action(async (o: ConfigCheckOptions) => {
      const { runConfigCheck } = await import('./config-check.ts');
      await runConfigCheck(io, o, deps);
    });

  const imp = program
    .command('import')
    .description('import recorded outputs, public arena votes or recorded judgments');
  imp
    .command('outputs')
    .description(
      'store recorded model outputs as responses (AlpacaEval model_outputs.json, JSONL {item, prompt, output}, or a GAOKAO-Bench result folder)',
    )
    .argument(
      '<file>',
      'the outputs file (with --format gaokao: the result folder, one JSON per keyword)',
    )
    .requiredOption('--model <name>', 'the model that produced the outputs')
    .addOption(
      new Option('--format <format>', 'file format')
        .choices(['alpaca_eval', 'jsonl', 'gaokao'])
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
    .action(async (file: string, o: ImportOutputsOptions) => {
      const { runImportOutputs } = await import('./import.ts');
      await runImportOutputs(io, file, o, deps);
    });
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
    .action(async (file: string, o: ImportBattlesOptions) => {
      const { runImportBattles } = await import('./import.ts');
      await runImportBattles(io, file, o, deps);
    });

  imp
    .command('judgments')
    .description(
      "store published judge outputs as judge scores (GAOKAO-Bench judged subjective files, GAOKAO-Bench teachers' grades with --format gaokao-human, AlpacaEval annotations); the judged answers need not be imported first",
    )
    .argument('<path>', 'a file, or a folder of them')
    .addOption(
      new Option('--format <format>', 'file format')
        .choices(['gaokao', 'gaokao-human', 'alpaca_eval'])
        .makeOptionMandatory(),
    )
    .requiredOption(
      '--judge <name>',
      'the judge, as stored with every score (e.g. gpt-4-1106-preview)',
    )
    .action(async (path: string, o: ImportJudgmentsFlags) => {
      const { runImportJudgments } = await import('./judge.ts');
      await runImportJudgments(io, path, o, deps);
    });

  const judge = program
    .command('judge')
    .description('Scoring Evaluation: judge reports and agreement between raters');
  judge
    .command('agree')
    .description(
      "agreement between two sets of labels on the same items (JSONL {item, label}, joined on item): Cohen's kappa (unweighted, linear, quadratic), exact, within-one, confusion matrix",
    )
    .argument('<a>', 'labels of rater A (rows of the confusion matrix)')
    .argument('<b>', 'labels of rater B')
    .option(
      '--json',
      'print {"n","kappa","kappa_linear","kappa_quadratic","exact","within_one","confusion"}',
    )
    .option(
      '--order <labels>',
      'category order for weighted kappa, lowest first, comma-separated (e.g. 1,0,2); numbers are ordered by value without it',
    )
    .action(async (a: string, b: string, o: JudgeAgreeOptions) => {
      const { runJudgeAgree } = await import('./judge-agree.ts');
      await runJudgeAgree(io, a, b, o);
    });
  judge
    .command('run')
    .description(
      "judge a model's stored answers to a suite's scoring datasets with their rubrics (and the safety-violation check where asked); judged items are skipped, judge failures retried",
    )
    .requiredOption(
      '--model <name>',
      'the judged model (its answers must be stored: run an evaluation or import outputs)',
    )
    .requiredOption('--suite <name>', 'the suite, e.g. zhujiu-scoring')
    .requiredOption('--judge <name>', 'the judge: a model of config/models.yaml')
    .option(
      '--attempts <n>',
      'attempts per item before it is stored as a judge failure',
      intArg('--attempts', 1),
    )
    .action(async (o: JudgeRunFlags) => {
      const { runJudgeRun } = await import('./judge.ts');
      await runJudgeRun(io, o, deps);
    });
  judge
    .command('export')
    .description(
      'a judge\'s own single-answer grades as the labels `judge agree` reads: one {"item": "<model> <dataset>/<key>", "label": <points>} per graded item',
    )
    .requiredOption('--judge <name>', 'the judge whose grades are exported')
    .option('--model <name>', "only this judged model's grades")
    .option('--dataset <name>', 'only this dataset')
    .option('--out <file>', 'write to FILE (atomically) instead of standard output')
    .action(async (o: JudgeExportFlags) => {
      const { runJudgeExport } = await import('./judge-export.ts');
      await runJudgeExport(io, o, deps);
    });
  judge
    .command('report')
    .description(
      "a model's judge scores: win rate against each baseline (AlpacaEval's definitions) and per-dataset judged scores",
    )
    .requiredOption('--model <name>', 'the judged model')
    .option('--baseline <name>', 'only pairwise judging against this baseline')
    .option('--judge <name>', 'only this judge')
    .option('--json', 'print {"pairwise":[…],"datasets":[…]}')
    .action(async (o: JudgeReportOptions) => {
      const { runJudgeReport } = await import('./judge.ts');
      await runJudgeReport(io, o, deps);
    });

  datasetCommands(program, io, deps);

  // The submissions commands, then `ratings` on the program they return.
  addSubmissionsCommands(program, io, deps)
    .command('ratings')
    .description(
      'Bradley–Terry ratings with bootstrap intervals and online Elo, from a file or the stored votes',
    )
    .option(
      '--battles <file>',
      'JSONL of {model_a, model_b, winner} or pair counts; default: the votes in the database',
    )
    .option(
      '--bootstrap <n>',
      'bootstrap rounds (0 = none; default: ratings.bootstrap of the config for stored votes, 1000 for a file)',
      intArg('--bootstrap', 0),
    )
    .option(
      '--seed <s>',
      'bootstrap seed (default: ratings.seed of the config for stored votes, 0 for a file)',
      intArg('--seed', 0),
    )
    .option(
      '--anchor <model=rating>',
      'shift so MODEL has RATING, e.g. mixtral-8x7b-instruct-v0.1=1114 (default: ratings.anchor of the config for stored votes)',
    )
    .option('--json', 'print {"models":[…]} instead of a table')
    .option(
      '--style-control',
      "control for answer length and markdown (FastChat's style control): battles whose answers are stored, or a file with conv_metadata",
    )
    .addOption(
      new Option('--ability <ability>', 'only stored battles of this ability').choices(ABILITIES),
    )
    .option(
      '--source <name>',
      "also count the stored votes of this imported source (repeatable); the community's own (arena) and ratings.include_sources always count",
      (v: string, prev: string[] = []) => [...prev, sourceArg(v)],
    )
    .option(
      '--include-named',
      'also rate battles marked "anony": false (the voter saw the models\' names; left out by default, as FastChat does)',
    )
    .option('--include-flagged', 'also rate flagged votes (`zhujiu votes flagged`)')
    .action(async (o: RatingsOptions) => {
      if (o.battles && o.source) {
        throw new AppError(
          'input_invalid',
          '--source picks stored votes; with --battles FILE the file is rated as it is: drop one of them',
        );
      }
      if (o.battles) {
        // A file: no database, so the drivers are never loaded.
        const { runRatings } = await import('./ratings.ts');
        await runRatings(o, { out: io.out });
      } else {
        const { runStoredRatings } = await import('./ratings-stored.ts');
        await runStoredRatings(io, o, deps);
      }
    });

  program
    .command('leaderboard')
    .description(
      'the ZhuJiu board: final scores with 95% intervals, method and ability scores, votes (docs/scoring.md §4–5)',
    )
    .argument('[name]', 'the ability, method or model of the view')
    .option(
      '--view <view>',
      'overall (default) | ability | method | model, or a bare ability/method/model name',
    )
    .option(
      '--source <name>',
      "also count this imported source's votes (repeatable; the community's arena votes always count)",
      (v: string, prev: string[] = []) => [...prev, sourceArg(v)],
    )
    .option(
      '--json',
      'print the view as JSON instead of a table: {"models":[…]} for the board, {"model","sv_rate","record","opponents","datasets"} for a model card, {"ability","models"} / {"method","models"} for one ability / method',
    )
    .option('--png <file>', 'also write the chart (PNG, always the whole board) to FILE')
    .option(
      '--judge <name>',
      "build the Scoring method from this judge's grades instead of judge.model's (a trial view: not stored, the community's board is unchanged)",
    )
    .option(
      '--all',
      'also show the models with no score in any method (judges, names known only from votes), left out by default',
    )
    .option('--include-named', 'also count votes marked "anony": false (a trial view, not stored)')
    .option('--include-flagged', 'also count flagged votes (`zhujiu votes flagged`; a trial view)')
    .action(async (name: string | undefined, o: LeaderboardFlags) => {
      const { runLeaderboard } = await import('./leaderboard.ts');
      await runLeaderboard(io, name, o, deps);
    });

  votesCommands(program, io, deps);

  resultsCommand(program, io, deps);

  const exp = program.command('export').description('export stored data in public formats');
  exp
    .command('battles')
    .description(
      'write the live votes of a source as Chatbot Arena battles (one JSON line per vote): model_a, model_b, winner, anonymised judge, turn, timestamps',
    )
    .option(
      '--source <name>',
      "the battles' source (default: arena, the community's own)",
      sourceArg,
    )
    .option('--since <date>', 'only votes made at or after this date (UTC)', dateArg)
    .addOption(
      new Option('--format <format>', 'line format')
        .choices(['fastchat', 'jsonl'])
        .default('fastchat'),
    )
    .option('--out <file>', 'write to FILE (atomically) instead of standard output')
    .action(async (o: ExportBattlesFlags) => {
      const { runExportBattles } = await import('./export.ts');
      await runExportBattles(io, o, deps);
    });

  return program;
}

/**
 * Runs the CLI. Errors become one clear message on stderr and exit code 1 (2 for usage errors); unexpected
 * errors print their stack. stdout closed by its reader (`… | head`, an `EPIPE`) ends any command quietly with
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
  if (io === defaultIo) watchStdout();
  try {
    takeRequestedExit();
    await program.parseAsync(argv as string[]);
    // A command that ends normally may ask for a status (130 after Ctrl-C, 1 when its work failed).
    const code = takeRequestedExit() ?? 0;
    process.exitCode = code;
    return code;
  } catch (err) {
    takeRequestedExit();
    let code = 1;
    if (isOutputClosed(err)) {
      code = 0; // the reader has what it wanted (`| head`): nothing to say
    } else if (err instanceof CommanderError) {
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
