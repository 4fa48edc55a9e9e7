/**
 * @module i18n/en-cli
 * The English messages of the `zhujiu` command line (part of the catalogue: i18n/en.ts spreads them in):
 * `cli.<command path>.description`, `.arg.<name>` and `.opt.<flag>` its help (cli/help-text.ts finds them by the
 * command's path; a JSON shape or a record shape in a help text is a parameter, since it is an interface, not
 * words); `cli.help.*` commander's own help words; `cli.usage.*` usage errors (exit 2); `cli.error.*` the error
 * printer; `cli.<command>.*` what the commands print and the refusals they give.
 */
export const enCli = {
  'cli.description':
    'ZhuJiu Arena: evaluate LLMs with metrics, an LLM judge and a crowdsourced chat arena',
  'cli.opt.version': 'print the version of zhujiu and exit',
  'cli.opt.help': 'display help for command',
  'cli.helpCommand': 'display help for command',
  'cli.helpCommand.arg': 'the command to show the help of, and its subcommand if it has any',
  'cli.help.usage': 'Usage:',
  'cli.help.arguments': 'Arguments:',
  'cli.help.options': 'Options:',
  'cli.help.globalOptions': 'Global Options:',
  'cli.help.commands': 'Commands:',
  'cli.help.choices': 'choices: {choices}',
  'cli.help.default': 'default: {value}',
  'cli.help.extra': '({items})',
  'cli.help.sep': ', ',
  'cli.help.optionsPlaceholder': '[options]',
  'cli.help.commandPlaceholder': '[command]',
  'cli.help.described': '{description} {extra}',

  'cli.usage.error': 'error: {message}',
  'cli.usage.seeHelp': '(run with --help for usage)',
  'cli.usage.unknownOption': "unknown option '{flag}'",
  'cli.usage.unknownCommand': "unknown command '{command}'",
  'cli.usage.missingArgument': "missing required argument '{arg}'",
  'cli.usage.optionValueMissing': "option '{flag}' argument missing",
  'cli.usage.requiredOption': "required option '{flag}' not specified",
  'cli.usage.tooManyArguments':
    'too many arguments. Expected {expected, plural, one {# argument} other {# arguments}} but got {got}: {args}.',
  'cli.usage.tooManyArgumentsFor':
    "too many arguments for '{command}'. Expected {expected, plural, one {# argument} other {# arguments}} but got {got}: {args}.",
  'cli.usage.invalidOptionValue': "option '{flag}' argument '{value}' is invalid. {why}",
  'cli.usage.invalidArgument':
    "command-argument value '{value}' is invalid for argument '{arg}'. {why}",
  'cli.usage.allowedChoices': 'Allowed choices are {choices}.',
  'cli.usage.didYouMean': '(Did you mean {names}?)',
  'cli.usage.didYouMeanOneOf': '(Did you mean one of {names}?)',
  'cli.usage.intTooLarge': '{flag} must be at most {max}, got "{value}"',
  'cli.usage.int': '{flag} must be an integer ≥ {min} in plain decimal digits, got "{value}"',
  'cli.usage.since':
    '--since must be a date like 2026-11-30 or 2026-11-30T12:00:00Z (UTC unless an offset is given), got "{value}"',
  'cli.usage.source': '--source "{value}": use 1–64 letters, digits and . _ : @ -',
  'cli.error.coded': 'error [{code}]: {message}',
  'cli.error.unexpected': 'unexpected error: {stack}',
  'cli.unhandled.rejection':
    'error [unhandled_rejection]: {message} (an operation failed that nothing was waiting for; the command stopped)',
  'cli.unhandled.fatal': 'fatal: {what}; exiting so that a supervisor restarts zhujiu',
  'cli.unhandled.uncaught': 'uncaught exception: {message}',
  'cli.unhandled.dbStopped': 'the embedded database stopped: {message}',
  'cli.install.broken':
    "zhujiu's installation is incomplete: {what} cannot be loaded. Run `npm run build` in the zhujiu folder (or `npm ci`, which also installs its dependencies again), then run the command again.",
  'cli.results.needsRun': '--dataset, --ability, --failed, --out and --bom need --run N',
  'cli.eval.cancelFlags': '--cancel RUN takes no --model or --suite',
  'cli.ratings.sourceWithFile':
    '--source picks stored votes; with --battles FILE the file is rated as it is: drop one of them',
  'cli.results.bomNeedsCsv':
    '--bom is for CSV (--format csv): JSON lines start with their first record; drop --bom or add --format csv',

  'cli.bot.description':
    'run the chat bot (Discord / Slack / terminal) with an in-process worker; the default of `npm start`',
  'cli.bot.opt.no-worker': 'do not run the in-process worker',
  'cli.worker.description':
    'run queued evaluation runs and close due battles (posting needs a chat connection: the bot posts); start several against one DATABASE_URL',
  'cli.db.inUse':
    'the embedded database in {dir} is in use by another zhujiu process ({owner}). Only one process can use an embedded database: stop that process first (e.g. stop the bot before `zhujiu import`), use another ZHUJIU_DATA_DIR, or set DATABASE_URL so that several processes share one Postgres. (The lock is {lock}; it is released when that process stops, and taken over {secs} s after it died.)',
  'cli.db.owner': 'pid {pid}{host}{since}',
  'cli.db.ownerHost': ' on {host}',
  'cli.db.ownerSince': ' since {since}',
  'cli.db.ownerUnknown': 'an unknown process',
  'cli.db.openHere':
    'the embedded database in {dir} is already open in this process; close it first',
  'cli.db.otherMajor':
    'the embedded database in {dir} was made by PostgreSQL {made} (an earlier zhujiu, on PGlite 0.4), and this zhujiu runs PostgreSQL {major}, which cannot open it. Run `zhujiu migrate --upgrade-data-dir` to copy everything it holds into a new folder in its place (the old one is kept beside it as a backup); or set ZHUJIU_DATA_DIR to a new folder (or DATABASE_URL to a Postgres server) to start afresh.',
  'cli.db.foreignFolder':
    'the embedded database folder {dir} holds {n, plural, one {# entry} other {# entries}} ({first}{n, plural, =1 {} other {, …}}) but no database (no PG_VERSION file): zhujiu would write its database among them. Set ZHUJIU_DATA_DIR to a new or empty folder, or to an existing zhujiu data folder; move those files away; or set DATABASE_URL to a Postgres server.',
  'cli.db.isFile':
    'the embedded database folder {dir} is a file, not a folder. Set ZHUJIU_DATA_DIR to a folder (it is created when missing), or DATABASE_URL to a Postgres server.',
  'cli.db.cannotUse': 'cannot use {dir} as the embedded database folder: {why}. {fix}',
  'cli.db.why.noWrite':
    'cannot write in {path} ({cause}), where the lock and the newly unpacked database go, beside the data folder',
  'cli.db.why.noWriteAbove':
    'cannot write in {path} ({cause}), where the missing folders of {dir} are created',
  'cli.db.why.noNewFolders':
    '{path} takes no new folders ({cause}), as system folders such as /proc and /sys do',
  'cli.db.why.fileInPath': '{path} is a file, not a folder ({cause})',
  'cli.db.why.diskFull': 'the disk holding {path} is full ({cause})',
  'cli.db.why.other': '{path}: {cause}',
  'cli.db.fix.writable':
    'Make {path} writable for this user, set ZHUJIU_DATA_DIR to a folder you can write, or set DATABASE_URL to a Postgres server.',
  'cli.db.fix.elsewhere':
    'Set ZHUJIU_DATA_DIR to a folder you can write, or DATABASE_URL to a Postgres server.',
  'cli.db.fix.space':
    'Free some space, set ZHUJIU_DATA_DIR to a folder on another disk, or set DATABASE_URL to a Postgres server.',
  'cli.db.unreadable':
    'cannot read the embedded database folder {dir} ({cause}). Make it readable and writable for this user (it may belong to another user: chown or chmod it), set ZHUJIU_DATA_DIR to another folder, or set DATABASE_URL to a Postgres server.',
  'cli.db.unwritable':
    'cannot write in the embedded database folder {dir} ({cause}). Make it writable for this user (it may belong to another user: chown or chmod it), set ZHUJIU_DATA_DIR to another folder, or set DATABASE_URL to a Postgres server.',
  'cli.db.noPostgres':
    'cannot connect to Postgres at {where}: {detail}. Check DATABASE_URL, or unset it to use the embedded database.',
  'cli.db.danglingLink':
    'the embedded database folder {dir} is a link to {to}, which does not exist. Create that folder, set ZHUJIU_DATA_DIR to a folder (or a link to one), or set DATABASE_URL to a Postgres server.',
  'cli.db.diskFull':
    'the disk holding the embedded database {dir} is full ({detail}): nothing more can be written. Free some space and run the same command again, set ZHUJIU_DATA_DIR to a folder on another disk, or set DATABASE_URL to a Postgres server.',
  'cli.db.cannotOpen':
    'cannot open the embedded database in {dir}: {detail}. Set ZHUJIU_DATA_DIR to another folder, move the damaged one away, or set DATABASE_URL to a Postgres server.',
  'cli.db.pglite': 'PGlite at {dir}',
  'cli.db.postgres': 'Postgres at {where}',
  'cli.db.newer':
    'the database was migrated by a newer version (it has {n, plural, one {migration} other {migrations}} {unknown}; this zhujiu knows up to {known}); upgrade zhujiu, or point DATABASE_URL / ZHUJIU_DATA_DIR at another database.',
  'cli.db.noMigration': 'none',
  'cli.db.migrationFailed': 'migration {name} failed: {detail}',
  'cli.db.migrationUnknown': '(unknown)',
  'cli.modelName.flag': '{flag} "{name}" {problem}',
  'cli.modelName.empty': 'is empty; give the model a name',
  'cli.modelName.tooLong': 'is {n} characters long, over {max}; use a shorter name',
  'cli.modelName.blank': 'is blank; give the model a name',
  'cli.modelName.unprintable':
    'holds {char}, a control, format or line-break character; use printable text only',
  'cli.modelName.outerSpace': 'starts or ends with a space; remove it',
  'cli.schema.emojiTaken':
    '"{emoji}" is already the emoji for {choice}: each choice needs its own emoji',
  'cli.schema.absoluteUrl':
    "must be an absolute {first} or {second} URL (or null for the platform's own)",
  'cli.schema.httpUrl': 'expected an http:// or https:// URL, e.g. {example}, got "{got}"',
  'cli.schema.locale': 'locale: use one of {locales} (e.g. locale: zh-CN)',
  'cli.schema.envVarName':
    'must be the name of an environment variable (capitals, digits and _), e.g. OPENAI_API_KEY',
  'cli.schema.sha256':
    'must be the SHA-256 of the file, 64 lower-case hex digits (`sha256sum FILE`)',
  'cli.schema.rubricName': 'must be a rubric name of config/rubrics/, e.g. ten_point',
  'cli.schema.suiteName': 'may hold lower-case letters, digits, . _ and - only',
  'cli.schema.regex': 'not a valid regular expression',
  'cli.schema.sourceName': 'a source name as given to `import battles --source`',
  'cli.schema.sourceArena':
    '"arena" (the bot\'s own votes) is always counted; list only imported sources',
  'cli.schema.cron': 'not a valid cron expression (e.g. "0 9 * * *")',
  'cli.schema.timezone': 'not an IANA time zone (e.g. "Asia/Shanghai")',
  'cli.schema.baseLoader': 'a base dataset needs a file format, not robustness',
  'cli.schema.pathOrFiles':
    'give `path:` or `files:` (relative to the datasets folder, ZHUJIU_DATASETS_DIR)',
  'cli.schema.metricsLoader': 'a metrics dataset needs `loader:` (its file format)',
  'cli.schema.scoringRubric':
    'a scoring dataset needs `rubric:` (ten_point or industry_0_3, from config/rubrics/)',
  'cli.schema.robustnessTask':
    'a robustness dataset needs `task:` (one of {tasks}) and `base:` (the dataset it is derived from)',
  'cli.schema.robustnessFiles':
    "a robustness dataset reads its base's files: give `path`, `files`, `prompts`, `shots` and `profile` under `base:`",
  'cli.schema.robustnessOnly': '`task:` and `base:` are for `loader: robustness` only',
  'cli.schema.description': 'give the description in at least one language: `en:` or `zh-CN:`',
  'cli.schema.suiteDatasets':
    'a suite needs `datasets:` (its own datasets) or `include:` (names of other suites), or both',
  'cli.schema.uniqueDatasets': 'dataset names must be unique within a suite',
  'cli.schema.env.databaseUrl': 'must be a postgres:// or postgresql:// URL',
  'cli.schema.env.voterSecret': 'must be at least 16 characters (e.g. `openssl rand -hex 32`)',
  'cli.schema.env.port': 'expected a port number from 0 to 65535, e.g. 8080',
  'cli.schema.env.portWhole': 'expected a whole port number from 0 to 65535, e.g. 8080',
  'cli.schema.env.problem': 'environment {name}: {msg}',
  'cli.schema.datasetName.empty': 'is empty; give the dataset a name',
  'cli.schema.datasetName.tooLong': 'is longer than {max} characters; use a shorter name',
  'cli.schema.datasetName.invalid':
    'is not a valid name: use letters, digits and . _ : @ + - only, starting with a letter or digit (no spaces or /)',
  'cli.schema.rubric.name': 'lower-case letters, digits and _ only, e.g. ten_point',
  'cli.schema.rubric.maxAboveMin': 'max must be greater than min',
  'cli.schema.rubric.wholeScale':
    'a whole-number scale (fractional: false) needs whole min and max; set fractional: true for 7.5-style grades',
  'cli.schema.env.oneOf': 'expected one of {choices}',
  'cli.migrate.description': 'apply pending database migrations (also done at every start)',
  'cli.migrate.opt.down':
    'roll back the last migration instead (drops what it created: with 0001, every table)',
  'cli.migrate.opt.yes': 'confirm --down',
  'cli.migrate.opt.upgrade-data-dir':
    'copy an embedded database folder made by an earlier zhujiu (PostgreSQL 17) into a PostgreSQL 18 one in its place, keeping the old one beside it as a backup',
  'cli.eval.description':
    'run an evaluation suite against a model in the foreground (progress on stderr, summary on stdout); `zhujiu eval --cancel RUN` cancels a run',
  'cli.eval.opt.model': 'the model (config/models.yaml, or one with imported answers)',
  'cli.eval.opt.suite': 'the suite (config/suites/*.yaml; `zhujiu suites` lists them)',
  'cli.eval.opt.limit': 'ask at most N items of each dataset',
  'cli.eval.opt.json': 'print {shape}',
  'cli.eval.opt.cancel':
    'cancel run RUN instead (one running in another process stops at its next heartbeat)',
  'cli.config.description': 'configuration tools',
  'cli.config.check.description':
    'validate config/default.yaml, config/models.yaml, config/suites/*.yaml and the environment exactly as `bot` and `worker` do at start, then try the database connection (Postgres), or check that the PGlite data folder is free (not held by another zhujiu process), and ask each model endpoint GET /models once',
  'cli.config.check.opt.no-connect':
    'skip the connection checks (database / data-folder lock, model endpoints)',
  'cli.config.check.opt.no-endpoints': 'skip asking each model endpoint GET /models',
  'cli.import.description': 'import recorded outputs, public arena votes or recorded judgments',
  'cli.import.outputs.description':
    'store recorded model outputs as responses (AlpacaEval model_outputs.json, JSONL {shape}, or a GAOKAO-Bench result folder)',
  'cli.import.outputs.arg.file':
    'the outputs file (with --format gaokao: the result folder, one JSON per keyword)',
  'cli.import.outputs.opt.model': 'the model that produced the outputs',
  'cli.import.outputs.opt.format': 'file format',
  'cli.import.outputs.opt.dataset':
    'dataset to file the items under (default: alpaca_eval, or the file name for jsonl)',
  'cli.import.outputs.opt.ability': 'ability dimension of the items',
  'cli.import.battles.description':
    'store public arena votes, JSONL {shape}, as closed battles with one vote each',
  'cli.import.battles.arg.file': 'the battles JSONL file',
  'cli.import.battles.opt.source': 'tag for the imported battles (default: the file name)',
  'cli.import.battles.opt.ability': 'ability dimension of the battles',
  'cli.import.judgments.description':
    "store published judge outputs as judge scores (GAOKAO-Bench judged subjective files, GAOKAO-Bench teachers' grades with --format gaokao-human, AlpacaEval annotations); the judged answers need not be imported first",
  'cli.import.judgments.arg.path': 'a file, or a folder of them',
  'cli.import.judgments.opt.format': 'file format',
  'cli.import.judgments.opt.judge':
    'the judge, as stored with every score (e.g. gpt-4-1106-preview)',
  'cli.judge.description': 'Scoring Evaluation: judge reports and agreement between raters',
  'cli.judge.agree.description':
    "agreement between two sets of labels on the same items (JSONL {shape}, joined on item): Cohen's kappa (unweighted, linear, quadratic), exact, within-one, confusion matrix",
  'cli.judge.agree.arg.a': 'labels of rater A (rows of the confusion matrix)',
  'cli.judge.agree.arg.b': 'labels of rater B',
  'cli.judge.agree.opt.json': 'print {shape}',
  'cli.judge.agree.opt.order':
    'category order for weighted kappa, lowest first, comma-separated (e.g. 1,0,2); numbers are ordered by value without it',
  'cli.judge.run.description':
    "judge a model's stored answers to a suite's scoring datasets with their rubrics (and the safety-violation check where asked); judged items are skipped, judge failures retried",
  'cli.judge.run.opt.model':
    'the judged model (its answers must be stored: run an evaluation or import outputs)',
  'cli.judge.run.opt.suite': 'the suite, e.g. zhujiu-scoring',
  'cli.judge.run.opt.judge': 'the judge: a model of config/models.yaml',
  'cli.judge.run.opt.attempts': 'attempts per item before it is stored as a judge failure',
  'cli.judge.export.description':
    "a judge's own single-answer grades as the labels `judge agree` reads: one {shape} per graded item",
  'cli.judge.export.opt.judge': 'the judge whose grades are exported',
  'cli.judge.export.opt.model': "only this judged model's grades",
  'cli.judge.export.opt.dataset': 'only this dataset',
  'cli.judge.export.opt.out': 'write to FILE (atomically) instead of standard output',
  'cli.judge.report.description':
    "a model's judge scores: win rate against each baseline (AlpacaEval's definitions) and per-dataset judged scores",
  'cli.judge.report.opt.model': 'the judged model',
  'cli.judge.report.opt.baseline': 'only pairwise judging against this baseline',
  'cli.judge.report.opt.judge': 'only this judge',
  'cli.judge.report.opt.json': 'print {shape}',
  'cli.suites.description':
    'list the evaluation suites (config/suites/*.yaml) with their datasets and item counts, read from the datasets folder (ZHUJIU_DATASETS_DIR)',
  'cli.suites.opt.json': 'print {shape} instead of a table',
  'cli.datasets.description': 'constructed datasets',
  'cli.datasets.build.description':
    "build the constructed datasets (ZhuJiu knowledge sets) from the installed npm data packages, deterministically, into the datasets folder's zhujiu-built/ with a manifest.json",
  'cli.datasets.build.opt.out': 'the output folder (default: <datasets folder>/zhujiu-built)',
  'cli.datasets.build.opt.json': 'print the manifest as JSON ({shape})',
  'cli.submissions.description':
    'model submissions made with /submit in chat: list, approve, reject (maintainers)',
  'cli.submissions.list.description': 'list submissions, newest first (at most 200)',
  'cli.submissions.list.opt.status': 'only submissions of this status',
  'cli.submissions.list.opt.json': 'print {shape}',
  'cli.submissions.approve.description':
    'register submission ID as a model and create its runs (submissions.suites); a running bot or worker takes them up',
  'cli.submissions.approve.arg.id': 'the submission number',
  'cli.submissions.approve.opt.api-key-env':
    'the environment variable that holds its API key (set here and where the runs are worked)',
  'cli.submissions.approve.opt.suite':
    'queue this suite instead of submissions.suites (repeatable)',
  'cli.submissions.approve.opt.json': 'print {shape}',
  'cli.submissions.reject.description': 'reject submission ID; the submitter is told the reason',
  'cli.submissions.reject.arg.id': 'the submission number',
  'cli.submissions.reject.opt.reason': 'why (the submitter is told)',
  'cli.submissions.reject.opt.json': 'print {shape}',
  'cli.ratings.description':
    'Bradley–Terry ratings with bootstrap intervals and online Elo, from a file or the stored votes',
  'cli.ratings.opt.battles': 'JSONL of {shape} or pair counts; default: the votes in the database',
  'cli.ratings.opt.bootstrap':
    'bootstrap rounds (0 = none; default: ratings.bootstrap of the config for stored votes, 1000 for a file)',
  'cli.ratings.opt.seed':
    'bootstrap seed (default: ratings.seed of the config for stored votes, 0 for a file)',
  'cli.ratings.opt.anchor':
    'shift so MODEL has RATING, e.g. mixtral-8x7b-instruct-v0.1=1114 (default: ratings.anchor of the config for stored votes)',
  'cli.ratings.opt.json': 'print {shape} instead of a table',
  'cli.ratings.opt.style-control':
    "control for answer length and markdown (FastChat's style control): battles whose answers are stored, or a file with conv_metadata",
  'cli.ratings.opt.ability': 'only stored battles of this ability',
  'cli.ratings.opt.source':
    "also count the stored votes of this imported source (repeatable); the community's own (arena) and ratings.include_sources always count",
  'cli.ratings.opt.include-named':
    'also rate battles marked "anony": false (the voter saw the models\' names; left out by default, as FastChat does)',
  'cli.ratings.opt.include-flagged': 'also rate flagged votes (`zhujiu votes flagged`)',
  'cli.leaderboard.description':
    'the ZhuJiu board: final scores with 95% intervals, method and ability scores, votes (docs/scoring.md §4–5)',
  'cli.leaderboard.arg.name': 'the ability, method or model of the view',
  'cli.leaderboard.opt.view':
    'overall (default) | ability | method | model | style; the NAME argument alone may be a bare ability, method or model name',
  'cli.leaderboard.opt.source':
    "also count this imported source's votes (repeatable; the community's arena votes always count)",
  'cli.leaderboard.opt.json':
    'print the view as JSON instead of a table: {board} for the board, {card} for a model card, {ability} / {method} for one ability / method',
  'cli.leaderboard.opt.png': 'also write the chart (PNG, always the whole board) to FILE',
  'cli.leaderboard.opt.judge':
    "build the Scoring method from this judge's grades instead of judge.model's (a trial view: not stored, the community's board is unchanged)",
  'cli.leaderboard.opt.all':
    'also show the models with no score in any method (judges, names known only from votes), left out by default',
  'cli.leaderboard.opt.include-named':
    'also count votes marked "anony": false (a trial view, not stored)',
  'cli.leaderboard.opt.include-flagged':
    'also count flagged votes (`zhujiu votes flagged`; a trial view)',
  'cli.votes.description': 'stored votes: the flagged ones (docs/scoring.md §4.3)',
  'cli.votes.flagged.description':
    'the flagged live votes (over arena.hygiene.daily_vote_cap, or cast faster than read_ms_per_char), newest first; left out of ratings and the board unless --include-flagged',
  'cli.votes.flagged.opt.limit': 'at most N votes (default 100, up to 10000)',
  'cli.votes.flagged.opt.since': 'only votes cast at or after this date (UTC)',
  'cli.votes.flagged.opt.json': 'print {shape}',
  'cli.results.description':
    "an evaluation run's item-level results, one record per finished item: prompt, answer (reasoning apart), extracted answer, score, judge grade and rationale, safety verdict, failure cause; without --run, lists the latest runs",
  'cli.results.opt.run': 'the run (its number, as `zhujiu eval` prints it)',
  'cli.results.opt.dataset': "only this dataset's items",
  'cli.results.opt.ability': 'only items of this ability',
  'cli.results.opt.failed': 'only items that failed (with their failure cause)',
  'cli.results.opt.format': 'JSON lines or CSV (RFC 4180, with a header row)',
  'cli.results.opt.out': 'write to FILE (atomically) instead of standard output',
  'cli.results.opt.bom':
    'start the CSV with a UTF-8 byte-order mark (bytes EF BB BF), so that Excel reads its Chinese as UTF-8; off by default, so a pipe gets plain CSV',
  'cli.export.description': 'export stored data in public formats',
  'cli.export.battles.description':
    'write the live votes of a source as Chatbot Arena battles (one JSON line per vote): model_a, model_b, winner, anonymised judge, turn, timestamps',
  'cli.export.battles.opt.source': "the battles' source (default: arena, the community's own)",
  'cli.export.battles.opt.since': 'only votes made at or after this date (UTC)',
  'cli.export.battles.opt.format': 'line format',
  'cli.export.battles.opt.out': 'write to FILE (atomically) instead of standard output',
  'cli.results.noRuns': 'no evaluation runs yet (start one with `zhujiu eval --model M --suite S`)',
  'cli.results.col.run': 'run',
  'cli.results.col.model': 'model',
  'cli.results.col.suite': 'suite',
  'cli.results.col.status': 'status',
  'cli.results.col.items': 'items (finished / failed / planned)',
  'cli.results.noSuchRun':
    '--run {run}: there is no evaluation run #{run}; `zhujiu results` without --run lists the runs (or open /runs on the HTTP server)',
  'cli.results.noDataset': '{flag} {name}: run #{run} has no such dataset; its datasets are {list}',
  'cli.results.noDatasetYet':
    '{flag} {name}: run #{run} has no such dataset; its datasets are (none: the run planned no items yet)',
  'cli.results.noAbility':
    '{flag} {name}: run #{run} has no items of this ability; its abilities are {list}',
  'cli.results.noAbilityYet':
    '{flag} {name}: run #{run} has no items of this ability; its abilities are (none)',
  'cli.judgeSuite.noScoring': 'suite {suite} has no scoring dataset (method: scoring)',
  'cli.results.written':
    '{n, plural, one {# item} other {# items}} of run #{run} ({model}, {suite}) ({format})',
  'cli.results.writtenTo':
    '{n, plural, one {# item} other {# items}} of run #{run} ({model}, {suite}) written to {out} ({format})',
  'cli.results.badScore':
    '{name} "{value}": use correct, wrong, or a range of the score fraction between 0 and 1 such as 0.5-1',
  'cli.eval.recentRun': '#{id} ({model} on {suite}, {status})',
  'cli.eval.none': '(none)',
  'cli.eval.noSuchRun': 'there is no run #{run}; recent runs: {recent}',
  'cli.eval.eta.seconds': '{s}s',
  'cli.eval.eta.minutes': '{m}m{s}s',
  'cli.eval.eta.hours': '{h}h{m}m',
  'cli.eval.bar': 'run #{run} [{bar}] {value}/{total} items | {failed} failed | {eta} left',
  'cli.eval.preparing': 'run #{run} preparing… (loading the datasets)',
  'cli.eval.active':
    'run #{id} of {model} on {suite} is {status} in another process ({done}/{total} items). Wait for it, or cancel it: `zhujiu eval --cancel {id}`.',
  'cli.eval.resumeLimit':
    'note: run #{run} keeps its own limit ({kept}), not --limit {asked}; to run with that limit instead, cancel it first (zhujiu eval --cancel {run})',
  'cli.eval.noLimit': 'none',
  'cli.eval.resuming': 'resuming run #{run} (left {status} by a process that stopped)',
  'cli.eval.progress': 'run #{run}: {done}/{total} items, {failed} failed, {rate} items/s',
  'cli.eval.stopped': 'stopped: run #{run} stays active; run the same command again to resume it',
  'cli.eval.stoppedBeforeRun': 'stopped before the run started: no run was made',
  'cli.eval.failed': 'error: run #{run} failed',
  'cli.eval.failedWith': 'error: run #{run} failed: {error}',
  'cli.eval.cancelled': 'error: run #{run} was cancelled before it finished',
  'cli.eval.allFailed':
    'error: run #{run}: every item failed ({n} of {n}), nothing was scored; see the failures above',
  'cli.eval.tooMany':
    'error: run #{run}: {problem}; its scores leave those items out (see the failures above)',
  'cli.eval.summary': 'run #{run}: {model} on {suite}: {ended}',
  'cli.eval.tableHead': 'dataset|ability|metric|profile|score/10|n|earned|failures',
  'cli.eval.tokens': 'tokens: {prompt} prompt + {completion} completion; wall time {wall}',
  'cli.eval.failures': 'failures: {line}',
  'cli.eval.barless': 'run #{run} {value}/{total} items | {failed} failed | {eta} left',
  'cli.config.reachable': '{db}, reachable, ',
  'cli.config.upToDate': '{where}migrations up to date ({n})',
  'cli.config.pending':
    '{where}migrations: {applied} applied, {n} to apply at the next start ({list})',
  'cli.config.pgliteNotChecked': 'embedded PGlite in {dir}, lock not checked (--no-connect)',
  'cli.config.pgliteNew':
    'embedded PGlite in {dir}, not created yet (the first start creates it; nothing holds it)',
  'cli.config.pgliteFree':
    'embedded PGlite in {dir}, free (no other zhujiu process holds it; one process at a time)',
  'cli.config.postgresNotChecked': 'Postgres (DATABASE_URL), connection not checked (--no-connect)',
  'cli.config.endpointsFailed':
    '{n, plural, one {an endpoint} other {# endpoints}} failed the connection check (GET /models; skip it with --no-endpoints):\n{list}',
  'cli.config.read': 'config read: {dir} (an endpoint failed: see below)',
  'cli.config.ok': 'config OK: {dir}',
  'cli.config.models': '  models: {n}{names}',
  'cli.config.suites': '  suites: {n}{names}',
  'cli.config.database': '  database: {database}',
  'cli.config.endpoint': '  endpoint: {endpoint}',
  'cli.config.warning': '  warning: {warning}',
  'cli.config.slack': 'slack ({mode} mode)',
  'cli.config.chat': '  chat: {chat}',
  'cli.config.terminal': 'terminal (no DISCORD_TOKEN / SLACK_BOT_TOKEN set)',
  'cli.config.names': ' ({names})',
  'cli.config.yamlSyntax': '{at}: YAML syntax error ({detail}){more}',
  'cli.config.yamlMore':
    '; {n, plural, one {# more syntax error follows} other {# more syntax errors follow}} from it',
  'cli.config.noFolder':
    'config folder {dir} does not exist (from {from}); fix the path or unset it to use ./config',
  'cli.config.folderIsFile':
    'config folder {dir} is a file, not a folder (from {from}); point it at the folder that holds default.yaml, or unset it to use ./config',
  'cli.config.fromCaller': 'the caller',
  'cli.config.unreadable':
    '{path}: cannot read ({code}); check the permissions of the config folder and its files',
  'cli.config.yamlMsg.unclosed':
    'a {open} is never closed: add the {close} that ends it; a {open} … {close} over several lines needs each line indented more than its key',
  'cli.config.yamlMsg.quote': 'a quoted text is never closed: add the closing {quote}',
  'cli.config.yamlMsg.comma': 'two items inside [ ] or { } need a comma between them',
  'cli.config.yamlMsg.commaOrColon':
    'the items inside { } need a comma between them and a colon after each key',
  'cli.config.yamlMsg.noValue':
    'a key has no value: write `key: value`, with a space after the colon',
  'cli.config.yamlMsg.mapColumn': 'the keys of one mapping must start at the same column',
  'cli.config.yamlMsg.seqColumn': 'the items (- …) of one list must start at the same column',
  'cli.config.yamlMsg.noDash':
    "a line is indented as a list's items but does not start with -: indent it as far as its item's keys, or start a new item with -",
  'cli.config.yamlMsg.plainStart':
    'a value without quotes cannot start with {char}: put the value in quotes',
  'cli.config.yamlMsg.escape':
    '{seq} is not an escape sequence of double-quoted text: write \\\\ for a backslash, or use single quotes',
  'cli.config.yamlMsg.comment': 'a comment (#) needs a space before it',
  'cli.config.yamlMsg.flowEnd': 'a closing ] or } must be indented more than its key',
  'cli.config.yamlCodeDetail': '{code}: {sentence}',
  'cli.config.fileProblems': '{text}',
  'cli.config.yamlCode.ALIAS_PROPS': 'an alias (*name) cannot have an anchor or a tag',
  'cli.config.yamlCode.BAD_ALIAS': 'an anchor or alias name is empty or ends in a colon',
  'cli.config.yamlCode.BAD_DIRECTIVE': 'a directive (a line starting with %) is not valid',
  'cli.config.yamlCode.BAD_DQ_ESCAPE': 'a double-quoted text has an invalid escape sequence',
  'cli.config.yamlCode.BAD_INDENT':
    'the indentation is wrong; align the keys of one mapping and the items of one list',
  'cli.config.yamlCode.BAD_PROP_ORDER': 'anchors and tags must come after the - or ? indicator',
  'cli.config.yamlCode.BAD_SCALAR_START':
    'a plain value cannot start with this character; put the value in quotes',
  'cli.config.yamlCode.BLOCK_AS_IMPLICIT_KEY':
    'a list or mapping cannot be a key; check the indentation and the colon',
  'cli.config.yamlCode.BLOCK_IN_FLOW':
    'a block value cannot be inside a collection written with brackets or braces',
  'cli.config.yamlCode.DUPLICATE_KEY': 'a key appears twice in one mapping; keep one',
  'cli.config.yamlCode.IMPOSSIBLE': 'the parser cannot read the text here; check it',
  'cli.config.yamlCode.KEY_OVER_1024_CHARS': 'a key is longer than 1024 characters',
  'cli.config.yamlCode.MISSING_CHAR':
    'a character is missing: a closing quote, a colon, a comma or the - of a list item',
  'cli.config.yamlCode.MULTILINE_IMPLICIT_KEY':
    'a key spans several lines; check the indentation and the quotes',
  'cli.config.yamlCode.MULTIPLE_ANCHORS': 'a value has more than one anchor',
  'cli.config.yamlCode.MULTIPLE_DOCS': 'the file holds more than one YAML document (---); keep one',
  'cli.config.yamlCode.MULTIPLE_TAGS': 'a value has more than one tag',
  'cli.config.yamlCode.NON_STRING_KEY': 'a key is not text',
  'cli.config.yamlCode.RESOURCE_EXHAUSTION': 'the aliases expand to too much data',
  'cli.config.yamlCode.TAB_AS_INDENT': 'a tab is used for indentation; indent with spaces',
  'cli.config.yamlCode.TAG_RESOLVE_FAILED': 'a tag (!name) is unknown or does not fit its value',
  'cli.config.yamlCode.UNEXPECTED_TOKEN': 'an unexpected character or token here',
  'cli.config.yamlCode.BAD_COLLECTION_TYPE': 'a tag expects another kind of collection',
  'cli.config.folderUnderFile':
    'config folder {dir} is under a file ({file} is a file, not a folder: ENOTDIR; from {from}); point it at the folder that holds default.yaml, or unset it to use ./config',
  'cli.interrupt.imported': 'imported',
  'cli.interrupt.written': 'written',
  'cli.interrupt.stopping':
    'interrupt: stopping; nothing will be {what} unless the commit is already under way',
  'cli.interrupt.committed':
    'interrupted while committing: the commit finished, so everything was {what} (see below)',
  'cli.interrupt.nothing': 'interrupted: nothing was {what}',
  'cli.import.outputs.done':
    'imported {n, plural, one {# response} other {# responses}} for {model} into dataset {dataset} ({rows, plural, one {# row} other {# rows}}, {skipped} already present{differing}) in {secs} s',
  'cli.import.differFile': '; {n} of them differ from the file and were kept as stored: {items}',
  'cli.import.differFiles': '; {n} of them differ from the files and were kept as stored: {items}',
  'cli.import.generatorMismatch':
    '{at}: "generator" is "{generator}" but --model is "{model}"; pass --model {word} or import the right file',
  'cli.import.gaokaoDataset':
    '--dataset does not apply to --format gaokao: items go to the datasets gaokao_<subject> of the gaokao-objective suite',
  'cli.import.gaokao.done':
    'imported {n, plural, one {# response} other {# responses}} for {model} from {files, plural, one {# GAOKAO-Bench file} other {# GAOKAO-Bench files}} into {datasets, plural, one {# dataset} other {# datasets}} ({counts}; {rows, plural, one {# item} other {# items}}, {skipped} already present{differing}) in {secs} s; score them with `zhujiu eval --model {word} --suite gaokao-objective`',
  'cli.import.andMore': '{shown} and {n} more',
  'cli.import.battles.done':
    'imported {n, plural, one {# battle} other {# battles}} ({n, plural, one {# vote} other {# votes}}) from source {source} ({rows, plural, one {# row} other {# rows}}, {skipped} already present{duplicates}, {models, plural, one {# model} other {# models}}) in {secs} s',
  'cli.import.battles.duplicates':
    ', skipped {n, plural, one {# duplicate line} other {# duplicate lines}} (the same vote, by its question_id, tstamp and judge, given again in the file)',
  'cli.import.battles.tstampType':
    '"tstamp" must be a number of Unix seconds (as FastChat writes it), got {value}; fix it or drop the key (a line without a time gets the time of the import)',
  'cli.import.battles.votedAtType':
    '"voted_at" must be an ISO 8601 time with a time zone (e.g. 2024-08-14T09:30:00.000Z), got {value}; fix it or drop the key (a line without a time gets the time of the import)',
  'cli.import.battles.timeRange':
    '"{field}" {value} ({when}) is not a plausible vote time: it must lie between 2000-01-01 and {latest} (a day after now); give Unix seconds (a value in milliseconds is 1,000 times too large)',
  'cli.import.datasetFromFile':
    'the dataset name taken from the file name, "{name}", {problem}; pass --dataset NAME',
  'cli.import.differInstruction': 'instruction "{text}" (line {line})',
  'cli.import.differItem': 'item "{key}" (line {line})',
  'cli.import.differItemOf': '{dataset} item "{key}"',
  'cli.sources.none': 'none',
  'cli.sources.item': '{source} ({votes} {n, plural, one {vote} other {votes}})',
  'cli.sources.missing':
    '--source {name}: no battles of that source are stored in {where}; stored sources: {stored}. Import them first (`zhujiu import battles FILE --source {name}`) or fix the name.',
  'cli.sources.elsewhere':
    'no votes from {counted}; {n, plural, one {another source holds} other {other sources hold}} votes: {stored}. See them with {commands}',
  'cli.export.done':
    'exported {votes, plural, one {# vote} other {# votes}} of {battles, plural, one {# battle} other {# battles}} from source {source} ({format})',
  'cli.export.doneTo':
    'exported {votes, plural, one {# vote} other {# votes}} of {battles, plural, one {# battle} other {# battles}} from source {source} to {out} ({format})',
  'cli.export.noSource':
    '--source {source}: no battles carry this source; check the name (the community\'s own votes are "arena", imports use their --source)',
  'cli.datasets.unwritable':
    'cannot write the constructed datasets into {out} ({why}); give --out a folder you can write',
  'cli.datasets.fileInPath': 'a file is in its path',
  'cli.datasets.built': 'built into {out}',
  'cli.datasets.builder':
    '{name}: {files, plural, one {# file} other {# files}}, {items, plural, one {# item} other {# items}}',
  'cli.datasets.from': '  from {from}',
  'cli.leaderboard.chart': 'chart written to {path}',
  'cli.leaderboard.chartWhole':
    'chart written to {path} (the chart shows the whole board, whatever the view)',
  'cli.leaderboard.style':
    'the style view is `/leaderboard style` in chat; on the command line use `zhujiu ratings --style-control`',
  'cli.leaderboard.noJudge':
    '--judge {judge}: no grades of this judge are stored; judges with grades: {known}. Grade with `zhujiu judge run --judge {judge}` first',
  'cli.leaderboard.noModel':
    'no model "{model}" on the board; models: {names}; pick one: `zhujiu leaderboard{sources} --view model NAME`',
  'cli.leaderboard.noModel.sources':
    '. Models known only from imported votes are on the board with `--source NAME` (or `ratings.include_sources`)',
  'cli.leaderboard.noModel.view':
    '. `--view` takes overall, ability NAME, method NAME or model NAME (a bare name is an ability, a method or else a model)',
  'cli.leaderboard.emptyPng':
    '--png {png}: the board is empty, so there is no chart to write (no model has scores or counted votes). Import outputs or votes first (`zhujiu import …`), or count imported votes with `--source NAME`.',
  'cli.ratings.votesNote': "Votes: the community's own (arena){imported}{notCounted}",
  'cli.ratings.plusImported': ' plus imported {list}',
  'cli.ratings.notCounted': '; not counted: {list} (add --source NAME to count one).',
  'cli.ratings.fullStop': '.',
  'cli.ratings.forAbility': ' for ability {ability}',
  'cli.ratings.noStyleVotes':
    'no votes on battles with stored answers from {sources} in the database ({db}){ability}: style control needs the answers (imported votes have none); vote in the arena, or pass --battles FILE with conv_metadata',
  'cli.ratings.noVotes':
    'no votes from {sources} in the database ({db}){ability}: {fix}vote in the arena, or pass --battles FILE',
  'cli.ratings.noVotes.addSource':
    'imported votes are counted only when asked: add {flags} (or list the source in ratings.include_sources of {default}), ',
  'cli.ratings.noVotes.import':
    'import battles (`zhujiu import battles FILE --source NAME`, then add --source NAME), ',
  'cli.ratings.or': ' or ',
  'cli.agree.na': 'n/a',
  'cli.agree.kappa': "Cohen's kappa {kappa}",
  'cli.agree.weighted': 'weighted kappa: linear {linear}, quadratic {quadratic}{unordered}',
  'cli.agree.unordered': ' (labels are unordered; pass --order to weight them)',
  'cli.agree.exact': 'exact agreement {exact} %',
  'cli.agree.withinOne': ', within one {within} %',
  'cli.agree.confusion': 'confusion (rows: A, columns: B):',
  'cli.agree.order':
    '--order "{order}": list at least two labels, lowest first, e.g. --order 1,0,2',
  'cli.agree.failed': '{a} and {b}: {reason}',
  'cli.agree.disjoint': ' (no item of one file is in the other; they are joined on "item")',
  'cli.agree.leftOut':
    'note: {onlyA} item(s) only in {a} and {onlyB} only in {b} are left out of n',
  'cli.judgeExport.noModel': '--model {model}: no such model',
  'cli.judgeExport.ofModel': ' of {model}',
  'cli.judgeExport.onDataset': ' on {dataset}',
  'cli.judgeExport.noGrades':
    '--judge {judge}: no grades{scope} by this judge are stored{failures}; judges with single-answer records: {judges}',
  'cli.judgeExport.failures':
    ' ({n, plural, one {# judge failure} other {# judge failures}}; retry {n, plural, one {it} other {them}} with `zhujiu judge run`)',
  'cli.judgeExport.done':
    'exported {n, plural, one {# grade} other {# grades}} by {judge}{failures}',
  'cli.judgeExport.doneTo':
    'exported {n, plural, one {# grade} other {# grades}} by {judge} to {out}{failures}',
  'cli.judgeExport.leftOut':
    ' ({n, plural, one {# judge failure has no label and is left out} other {# judge failures have no label and are left out}})',
  'cli.suites.folder': 'datasets folder: {dir} (set ZHUJIU_DATASETS_DIR to change it)',
  'cli.suites.unavailable': 'unavailable (see below)',
  'cli.suites.size': '{n, plural, one {# dataset} other {# datasets}}, {items}',
  'cli.suites.fromImports': 'items from imports',
  'cli.suites.items': '{n, plural, one {# item} other {# items}}',
  'cli.suites.itemsOf': '{n} of {rows, plural, one {# item} other {# items}}',
  'cli.suites.stored': 'stored items',
  'cli.suites.includes': ', includes {list}',
  'cli.suites.noFolder':
    'the datasets folder {dir} does not exist (the environment variable ZHUJIU_DATASETS_DIR sets it; default: datasets in the working folder); create it and put the dataset files there, or set ZHUJIU_DATASETS_DIR to the folder that holds them (README "Where the files are")',
  'cli.suites.unavailableNoFolder': 'unavailable (no datasets folder, see above)',
  'cli.suites.folderIsFile':
    'the datasets folder {dir} is a file, not a folder (the environment variable ZHUJIU_DATASETS_DIR sets it); set ZHUJIU_DATASETS_DIR to the folder that holds the dataset files (README "Where the files are")',
  'cli.suites.folderUnderFile':
    'the datasets folder {dir} is under a file ({file} is a file, not a folder: ENOTDIR; the environment variable ZHUJIU_DATASETS_DIR sets it); set ZHUJIU_DATASETS_DIR to the folder that holds the dataset files (README "Where the files are")',
  'cli.submissions.none': 'no submissions',
  'cli.submissions.noneWith': 'no {status} submissions',
  'cli.submissions.row': '#{id} {status} {name} | {model} at {url} | {organisation} | {licence}',
  'cli.submissions.reason': ' | reason: {reason}',
  'cli.submissions.runs': ' | runs {runs}',
  'cli.submissions.approved': 'submission #{id} approved: {name} is a model now',
  'cli.submissions.queued': 'run #{run} queued: {name} on {suite}',
  'cli.submissions.notQueued': 'not queued: {suite}: {reason}',
  'cli.submissions.rejected': 'submission #{id} rejected: {name}: {reason}',
  'cli.submissions.notQueuedAny': 'not queued: {reason}',
  'cli.migrate.downNeedsYes':
    'migrate --down rolls back the last migration and deletes the data in what it created (for 0001_initial: every table). Back up first, then run `zhujiu migrate --down --yes`.',
  'cli.migrate.nothingDown': 'nothing to roll back: no migration is applied in {db}',
  'cli.migrate.rolledBack':
    'rolled back {names} in {db} (what it created is gone); `zhujiu migrate` applies it again (every start does too)',
  'cli.migrate.upToDate': 'database is up to date ({db}): nothing to apply',
  'cli.migrate.created': 'created the database ({db}); it is up to date',
  'cli.migrate.createdApplied': 'created the database ({db}) and applied {names}; it is up to date',
  'cli.migrate.applied': 'applied {names}; database is up to date ({db})',
  'cli.migrate.upgradeAndDown':
    '--upgrade-data-dir and --down do different things: run one of them at a time.',
  'cli.migrate.upgradePostgres':
    '--upgrade-data-dir upgrades the embedded database folder (ZHUJIU_DATA_DIR), and DATABASE_URL is set: a Postgres server is upgraded with its own tools (pg_upgrade). Unset DATABASE_URL to upgrade the folder.',
  'cli.migrate.upgradeEmpty':
    '{dir} holds no embedded database yet: nothing to upgrade (zhujiu creates a PostgreSQL 18 folder there when it first runs)',
  'cli.migrate.upgradeCurrent': '{dir} is already a PostgreSQL 18 folder: nothing to upgrade',
  'cli.migrate.upgradeBackup': ' (the old folder is {backup})',
  'cli.migrate.upgradeFinished': 'finished an earlier upgrade of {dir}{backup}',
  'cli.migrate.upgraded':
    'upgraded {dir} to PostgreSQL 18: {tables, plural, one {# table} other {# tables}}, {rows, plural, one {# row} other {# rows}} copied and counted in {secs} s{applied}. The old folder is kept at {backup}: delete it once zhujiu runs as before.',
  'cli.migrate.upgradeCopied': 'copied {table}: {rows, plural, one {# row} other {# rows}}',
  'cli.migrate.thenApplied': ', then applied {names}',
  'cli.judge.board': 'board (judge {judge})',
  'cli.judge.noneChosen': 'none chosen: set judge.model',
  'cli.judge.trialBoard':
    "board with judge {judge}'s grades (a trial, not stored: `zhujiu leaderboard --judge {judge}`)",
  'cli.judge.scoringLine':
    '{where}: {model} scoring {scoring}, normalised {normalised}{abilities} (ten-point scale)',
  'cli.judge.pairwise':
    '{model} vs {baseline} (judge {judge}): win rate {rate} % ± {se} (standard error), discrete {discrete} %, {n} of {of} judged',
  'cli.judge.dataset':
    '{dataset} [{ability}] {rubric}, judge {judge}: {label}; {earned} / {possible} points ({ratio}); raw mean {raw}, SV mean {sv}, Δ {delta}, SV rate {svRate}, perfect {perfect}, pass {pass} (ten-point scale)',
  'cli.judge.noGrade': 'no grade',
  'cli.judge.safetyFailed': 'safety check failed',
  'cli.judge.more': ', … {n} more',
  'cli.judge.failuresOf': '  judge failures: {list}{more}',
  'cli.judge.noScores': 'no judge scores for {model}',
  'cli.judge.noScoresBy': 'no judge scores for {model} by {judge}',
  'cli.judge.imported':
    'imported {rows} judge {rows, plural, one {score} other {scores}} by {judge} for {models} from {files} {files, plural, one {file} other {files}} ({judged} judged, {failed, plural, one {# judge failure} other {# judge failures}}; {written} written) in {secs} s',
  'cli.judge.overMax':
    'note: {n} item(s) were credited above their points by the recorded judge and are kept as published: {items}',
  'cli.judge.which.eg': 'e.g. ',
  'cli.judge.which.item': 'item ',
  'cli.judge.which.items': 'items ',
  'cli.judge.failureLine':
    '{n, plural, one {# item} other {# items}} × {code} after {attempts, plural, one {# attempt} other {# attempts}}: {message}; {which}{items}',
  'cli.judge.runLine':
    '{dataset} ({rubric}, judge {judge}): {judged} of {of} judged, {failed, plural, one {# judge failure} other {# judge failures}}, {skipped} already judged, {calls, plural, one {# judge call} other {# judge calls}}{unanswered}',
  'cli.judge.unanswered':
    '; {n, plural, one {# item has} other {# items have}} no stored answer of {model}',
  'cli.judge.stopped':
    'stopped: what was judged is kept; run the same command again to judge the rest',
  'cli.judge.retry': 'judge failures are not scores; run the same command again to retry only them',
  'cli.judge.allFailed':
    'error: every item failed to be judged ({n} of {n}); nothing was judged. Check the judge {judge} (the failures above say why), then run the same command again',
  'cli.judge.tooMany':
    'error: {failed} of {total} answers have no grade of {judge} ({percent} %), above eval.max_failure_rate {max}; run the same command again to retry only them',
  'cli.judge.unknownSuite': '--suite {suite}: no such suite; the suites are {suites}{meant}',
  'cli.judge.unknownSuite.none':
    '--suite {suite}: no such suite; no suites are configured (config/suites/*.yaml)',
  'cli.judge.unknownModel':
    '--model {model}: no such model: {models} does not list it and no answers of it are stored; the models are {valid}{meant}. Give one of them, or import its answers with `zhujiu import outputs FILE --model {word}`',
  'cli.judge.unknownModel.none':
    '--model {model}: no such model: {models} lists no models and no answers are stored; import its answers with `zhujiu import outputs FILE --model {word}`, or add it to {models} and run `zhujiu eval`',
  'cli.judge.noAnswers':
    '--model {model}: no answers of this model are stored; run an evaluation (`zhujiu eval --model {word}`) or import its outputs first',
  'cli.judge.unknownJudge':
    '--judge {judge}: not in {models}; add it there (any OpenAI-compatible endpoint), or give one of the models it lists: {valid}{meant}',
  'cli.judge.unknownJudge.none':
    '--judge {judge}: not in {models}; add it there (any OpenAI-compatible endpoint)',
  'cli.rubric.missing':
    'rubric "{name}": {file} does not exist; add it or use ten_point / industry_0_3',
  'cli.rubric.otherName': '{file}: name is "{named}" but the file is {name}.yaml',
  'cli.rubric.noScale': '{file}: a single-answer rubric needs `scale: {shape}`',
  'cli.judge.list': '{list}{more}',
  'cli.judge.didYouMean': ' (did you mean "{name}"?)',
  'cli.judge.noModel':
    '--model {model}: no such model; import judgments or run an evaluation first (zhujiu import judgments …)',
  'cli.judge.noBaseline': '--baseline {model}: no such model',
  'cli.ratings.anchorForm':
    '--anchor must be MODEL=RATING, e.g. mixtral-8x7b-instruct-v0.1=1114 (got "{got}")',
  'cli.ratings.intMin': '--{name} must be an integer ≥ {min}, got {got}',
  'cli.ratings.intRange': '--{name} must be an integer from {min} to {max}, got {got}',
  'cli.ratings.noBattles':
    'no battles to rate: pass --battles FILE (JSONL of battles or pair counts), or run where the database is configured',
  'cli.ratings.anchorMissing':
    '--anchor model "{model}" is not in the data ({n, plural, one {# model} other {# models}}); check the name or drop --anchor',
  'cli.ratings.anchorUnknown':
    '--anchor model "{model}" is not in the data, the configuration or the stored models; the rated models are {list}{meant}',
  'cli.ratings.styleAnchor':
    '--anchor is not supported with --style-control (its ratings are on the 1000 + 400·r scale of FastChat); drop --anchor',
  'cli.ratings.styleNoBattles':
    'no battles to rate: pass --battles FILE (FastChat lines with conv_metadata), or run where the database is configured',
  'cli.ratings.noSpread':
    'every bootstrap round gave the model the same rating (its votes cannot vary under resampling, e.g. only ties), which is not certainty; no interval is shown; collect more votes for it',
  'cli.ratings.notRatedPrefix': 'not rated: ',
  'cli.ratings.excl.disconnected':
    'not rated: it has no votes against another model; vote on its battles',
  'cli.ratings.excl.above':
    'not rated: it never lost (ties count half) to the models it met, so its maximum-likelihood rating is +∞; it needs a loss or a tie against one of them',
  'cli.ratings.excl.below':
    'not rated: it never won (ties count half) against the models it met, so its maximum-likelihood rating is −∞; it needs a win or a tie against one of them',
  'cli.ratings.excl.unbounded':
    'not rated: linked to the rated models only through other unrated models; it needs votes against rated ones',
  'cli.ratings.exclName.disconnected': 'disconnected',
  'cli.ratings.exclName.above': 'unbounded above',
  'cli.ratings.exclName.below': 'unbounded below',
  'cli.ratings.exclName.unbounded': 'unbounded',
  'cli.ratings.excl.other': 'not rated: no finite maximum-likelihood rating',
  'cli.ratings.component':
    'component {component}: rated only against {members}; no battle links these models to component 1, so their ratings are on their own scale and must not be compared with component 1',
  'cli.ratings.head': 'rank|model|rating|95% CI|elo|votes|avg win',
  'cli.ratings.colon': ': ',
  'cli.ratings.tooFew': 'too few votes',
  'cli.ratings.none':
    'No model has a rating yet: no two models have both won (or tied) and lost against each other.',
  'cli.ratings.separate': 'Separate {note}.',
  'cli.ratings.components':
    '{n} separate comparison components: ratings, intervals and ranks compare only within one component.',
  'cli.ratings.infinite':
    '∞: in more than 2.5 % of the bootstrap rounds the model had only wins (∞) or only losses (−∞): too few votes for a finite bound; collect more votes for it',
  'cli.ratings.undefinedBound':
    '?: no bootstrap round gave the model a rating; collect more votes between it and the other models',
  'cli.ratings.notRated': 'not rated (no finite maximum-likelihood rating): {n}',
  'cli.ratings.inComponent': ', component {component}',
  'cli.ratings.excluded':
    '  {model}: {reason} ({n, plural, one {# vote} other {# votes}}{where}): {why}',
  'cli.ratings.named':
    'Left out: {n, plural, one {# battle} other {# battles}} marked "anony": false (the voter saw the models\' names); --include-named rates them.',
  'cli.ratings.method': 'Bradley–Terry MLE (Elo scale; {scale}{within}); {bootstrap}{elo}',
  'cli.ratings.anchored': 'anchored {anchor}',
  'cli.ratings.mean': 'mean 1000',
  'cli.ratings.within': ' within each component',
  'cli.ratings.ci': '95% CI from {rounds} bootstrap rounds, seed {seed}',
  'cli.ratings.noBootstrap': 'no bootstrap (rank from point ratings)',
  'cli.ratings.eloNone': '; elo needs ordered battles (—)',
  'cli.ratings.elo': '; elo: online, K=4',
  'cli.ratings.styleHead': 'rank|model|rating|95% CI|votes',
  'cli.ratings.style.length': 'answer length',
  'cli.ratings.style.header': 'headers',
  'cli.ratings.style.list': 'lists',
  'cli.ratings.style.bold': 'bold',
  'cli.ratings.style.ci': ' (95% CI {lo} – {hi})',
  'cli.ratings.style.constant': ' (the same in every battle: not fitted)',
  'cli.ratings.style.method':
    'Style-controlled Bradley–Terry (FastChat compute_style_control; 1000 + 400·r, L2 0.5); {battles, plural, one {# battle} other {# battles}}{leftOut}; {bootstrap}',
  'cli.ratings.style.leftOut': ', {n} without stored answers left out',
  'cli.ratings.style.noBootstrap': 'no bootstrap',
  'cli.ratings.style.coefficients':
    'Style coefficients (log-odds per standard deviation of (a − b) / (a + b + 1)):',
  'cli.ratings.duplicates':
    'Left out: {n, plural, one {# duplicate line} other {# duplicate lines}} (the same vote, by its question_id, tstamp and judge, given again in the file).',
  'cli.configFile.type.number': 'a number',
  'cli.configFile.type.int': 'a whole number',
  'cli.configFile.type.string': 'text',
  'cli.configFile.type.boolean': 'true or false',
  'cli.configFile.type.array': 'a list',
  'cli.configFile.type.object': 'a mapping (key: value lines)',
  'cli.configFile.value.nothing': 'nothing',
  'cli.configFile.value.text': 'text "{text}"',
  'cli.configFile.value.scalar': '{type} {value}',
  'cli.configFile.value.number': 'number',
  'cli.configFile.value.boolean': 'boolean',
  'cli.configFile.value.list': 'a list',
  'cli.configFile.value.mapping': 'a mapping',
  'cli.configFile.example': ', e.g. {example}',
  'cli.configFile.keysHere': '; the keys here are {keys}',
  'cli.configFile.unknownKey':
    '{at} {path}: unknown key "{key}": remove it or fix the spelling{near}',
  'cli.configFile.missingChoice': 'missing required key "{key}": add {choices}',
  'cli.configFile.or': ' or ',
  'cli.configFile.oneOf': 'expected one of {choices}, got {got}',
  'cli.configFile.expected': 'expected {what}{example}, got {got}',
  'cli.configFile.problem': '{at} {path}: {message}',
  'cli.configFile.datasetTwice':
    '{file}: dataset "{dataset}" of suite "{suite}" comes twice ({before} and {via}); dataset names must be unique within a suite with its includes: include only one of them, or rename one dataset',
  'cli.configFile.unknownInclude':
    '{where}: unknown suite "{suite}"; the suites of {dir}/ are {names}: fix the name or add the suite',
  'cli.configFile.includeCycle':
    '{where}: including suite "{suite}" makes a cycle ({loop}); remove one include of this chain',
  'cli.configFile.viaInclude': 'include "{suite}"',
  'cli.configFile.viaOwn': 'its own datasets',
  'cli.configFile.suiteTwice':
    '{file}: suite name "{name}" is used twice (also in {first}); give each suite its own name',
  'cli.configFile.modelTwice':
    '{at} models[{i}].name: model "{name}" is listed twice (first at {first}); give each model its own name or remove one',
  'cli.configFile.didYouMeanKeys': '; did you mean "{name}"? The keys here are {keys}',
  'cli.configFile.missingKeyOneOf':
    'missing required key "{key}": add `{key}:` with one of {choices}',
  'cli.configFile.missingKeyType': 'missing required key "{key}": add `{key}:` with {what}',
  'cli.configFile.meant': '; did you mean "{name}"?',
  'cli.start.voterSecret':
    'environment ZHUJIU_VOTER_SECRET: not set, but DATABASE_URL is: every process sharing the database must hash voter ids with the same secret. Set it, e.g. `export ZHUJIU_VOTER_SECRET=$(openssl rand -hex 32)`.',
  'cli.start.slackAppToken':
    '{where}: Socket Mode (the default) needs SLACK_APP_TOKEN (an xapp-… app-level token) beside SLACK_BOT_TOKEN. Set it, or use `mode: http` with SLACK_SIGNING_SECRET.',
  'cli.start.slackSigningSecret':
    "{where}: HTTP mode needs SLACK_SIGNING_SECRET beside SLACK_BOT_TOKEN to verify Slack's requests. Set it, or use `mode: socket` with SLACK_APP_TOKEN.",
  'cli.start.judgeWhat': 'scoring datasets of /eval and `zhujiu eval`',
  'cli.start.classifierWhat': "the ability of /ask's untagged prompts",
  'cli.start.namedRecorded':
    '{at} {key}: "{name}" is a recorded model, which cannot be called, so {what} cannot be judged. Name an OpenAI-compatible model of models.yaml (configured: {configured}), or set it to null.',
  'cli.start.namedUnknown':
    '{at} {key}: "{name}" is not a model of {models}, so {what} cannot be judged. Name an OpenAI-compatible model of models.yaml (configured: {configured}), or set it to null.',
  'cli.start.none': 'none',
  'cli.start.disabledUnset':
    '{at} models[{i}].api_key_env: {variable} is not set in the environment, so model "{name}" is disabled (it cannot be called; the rest works). Export it with the key and restart, or remove api_key_env if the endpoint needs no key.',
  'cli.start.disabledEmpty':
    '{at} models[{i}].api_key_env: {variable} is set but empty in the environment, so model "{name}" is disabled (it cannot be called; the rest works). Give it the key and restart, or remove api_key_env if the endpoint needs no key.',
  'cli.endpoint.notListed': ' (model id {model} is not among them)',
  'cli.endpoint.answers':
    'model {name}: {host} answers, {n, plural, one {# model} other {# models}} listed{listed}',
  'cli.endpoint.timeout': 'model {name}: no answer from {host} within {ms} ms (GET /models)',
  'cli.endpoint.unreachable':
    'model {name}: cannot reach {host} ({why}); check its base_url in {file} and that the server is up',
  'cli.endpoint.keyRefused':
    'model {name}: {host} refused the API key (HTTP {status}); check {variable} ({file} api_key_env)',
  'cli.endpoint.keyNeeded':
    'model {name}: {host} refused the request without an API key (HTTP {status}); set api_key_env of model {name} in {file}',
  'cli.endpoint.notFound':
    'model {name}: {url}/models is not found (HTTP 404); check its base_url in {file}',
  'cli.endpoint.noVersion':
    'model {name}: HTTP 404 from {host}: base_url {url} does not end in /v1; add it (e.g. {fixed}) in {file}',
  'cli.endpoint.http': 'model {name}: HTTP {status} from {host} (GET /models): {why}',
  'cli.endpoint.notList':
    'model {name}: {host} did not answer GET /models with a model list ({why}); check its base_url in {file}',
  'cli.stdout.failed':
    'cannot write the standard output ({cause}); free some space where it goes, or send it elsewhere (e.g. `> file` on another disk)',
  'cli.outFile.cannotWrite': '{flag} {path}: cannot write ({why})',
  'cli.outFile.isFolder': '{path} is a folder; give a file path inside it, e.g. {example}',
  'cli.outFile.noNewFiles': '{dir} takes no new files (ENOENT); pick a path in an ordinary folder',
  'cli.outFile.noFolder': 'the folder {dir} does not exist; create it or pick another path',
  'cli.outFile.notFolder': '{dir} is a file, not a folder; pick another path',
  'cli.outFile.noPermission': 'no permission to write in {dir} ({code}); pick a writable path',
  'cli.outFile.notRegular':
    '{path} is not a regular file (a named pipe, a device or a socket); give the path of a regular file',
  'cli.outFile.diskFull': 'the disk is full ({code}); free some space or pick another disk',
  'cli.outFile.other': '{code}; pick a writable path',
  'cli.outFile.extension':
    '{flag} {path}: the name ends in {ext}, a {kind} file, but {by} writes {format}; name the file {example}{alt}',
  'cli.outFile.extensionOr': ', or add {flag}',
  'cli.file.cannotRead': '{name}: cannot read ({why}); check the path',
  'cli.file.noPermission':
    "{name}: cannot read (no permission, {code}); check the file's permissions (and its folders')",
  'cli.file.ofFlag': '{flag} {error}',
  'cli.file.noSuchFile': 'no such file',
  'cli.file.isFolder': 'a folder, not a file',
  'cli.file.fileInPath': 'a file is in its path',
  'cli.file.otherUnicode':
    '{name}:1: not UTF-8 text: byte offset 0 (byte 1 of line 1) starts {shown}: the file is {encoding} text; nothing was read from this file. Save it as UTF-8 (`iconv -f {encoding} -t UTF-8 {name} > converted`, or "Save as… UTF-8" in an editor) and try again.',
  'cli.file.notUtf8':
    '{name}:{line}: not UTF-8 text: byte offset {offset} (byte {column} of line {line}) starts {shown}, which is not valid UTF-8; nothing was read from this file. Save it as UTF-8 ({example}) and try again.',
  'cli.file.cutShort':
    '{name}:{line}: not UTF-8 text: byte offset {offset} (byte {column} of line {line}) starts {shown}, an incomplete UTF-8 character: the file ends in the middle of a UTF-8 character, so it looks cut short (truncated, e.g. by an interrupted download or copy); nothing was read from this file. Get a complete copy of the file and try again (converting its encoding would not help).',
  'cli.file.lineCutShort':
    '{name}:{line}: not UTF-8 text: byte offset {offset} (byte {column} of line {line}) starts {shown}, an incomplete UTF-8 character: line {line} ends in the middle of a UTF-8 character, so it looks cut short (truncated, e.g. by an interrupted download, copy or write); nothing was read from this file. Get a complete copy of the file (or repair line {line}) and try again (converting its encoding would not help).',
  'cli.file.gbkExample':
    '`iconv -f GB18030 -t UTF-8 {name} > converted`: these bytes read as Chinese in GBK/GB18030',
  'cli.file.latinExample':
    'e.g. `iconv -f latin1 -t utf-8 {name} > converted` for Latin-1, or `-f GB18030` for Chinese in GBK',
  'cli.file.notText':
    '{name}:{line}: not a text file (it contains NUL bytes, the first NUL at byte offset {offset}); nothing was read from this file. Give a UTF-8 text file (JSON, JSONL or YAML).',
  'cli.json.invalid': '{at}: not valid JSON ({reason}){hint}',
  'cli.json.hint': '; {hint}',
  'cli.json.reason': '{expected}, found {found}',
  'cli.json.expect.closeString': "expected '{quote}' to close the string",
  'cli.json.expect.escapeControl':
    "expected '{quote}' or a character escaped with '{backslash}' (control characters must be escaped)",
  'cli.json.expect.hex': 'expected four hex digits after \\u',
  'cli.json.expect.escape': 'expected one of {escapes} after {backslash}',
  'cli.json.expect.digit': 'expected a digit',
  'cli.json.expect.digitAfterPoint': "expected a digit after '.'",
  'cli.json.expect.digitExponent': 'expected a digit in the exponent',
  'cli.json.expect.value': 'expected a value',
  'cli.json.expect.valueKinds':
    'expected a value (an object, array, string, number, true, false or null)',
  'cli.json.expect.keyOrClose': "expected a string key in double quotes or '{close}'",
  'cli.json.expect.key': 'expected a string key in double quotes',
  'cli.json.expect.colon': "expected ':' after the key",
  'cli.json.expect.commaOr': "expected ',' or '{close}'",
  'cli.json.expect.end': 'expected the end of the text after the value',
  'cli.json.expect.valid': 'the text is valid JSON',
  'cli.json.found.end': 'the end of the text',
  'cli.json.found.control': 'control character U+{code}',
  'cli.json.fixSyntax': 'fix the syntax at that line',
  'cli.json.oneAnnotation': 'expected one annotation object per line',
  'cli.json.eachLine': 'expected {shape} on each line',
  'cli.json.eachLineLike': 'each line must be one JSON object like {example}',
  'cli.problems.more':
    '… and {more, plural, one {# more problem} other {# more problems}} ({total} in total)',
  'cli.problems.also': ' (also on {n, plural, one {line} other {lines}} {shown}{more})',
  'cli.problems.alsoMore': ' and {n} more',
  'cli.outputs.answerString': 'must be a string (the model answer)',
  'cli.outputs.outputTooLong': 'is longer than {outputMax} characters',
  'cli.outputs.nonEmpty': 'must be a non-empty string',
  'cli.outputs.promptTooLong': 'is longer than {promptMax} characters; shorten it or drop the row',
  'cli.outputs.keyTooLong': 'is longer than {keyMax} characters; use a shorter key',
  'cli.outputs.itemId': 'must be a non-empty string or an integer id',
  'cli.outputs.missing': 'is missing',
  'cli.outputs.issue': '"{key}" {msg}',
  'cli.outputs.sep': '; ',
  'cli.list.sep': ', ',
  'cli.outputs.notText': '{at}: not a text file (it contains NUL bytes); expected UTF-8 JSON',
  'cli.outputs.battles':
    '{at}: this looks like arena battles ({shape}), not model outputs; import it with `zhujiu import battles {file}`',
  'cli.outputs.pairCounts':
    '{at}: this looks like arena battles ({shape}), not model outputs; rate it with `zhujiu ratings --battles {file}`',
  'cli.outputs.arrayAsJsonl':
    '{at}: this is a JSON array, not one object per line; use --format alpaca_eval',
  'cli.outputs.emptyJsonl': '{at}: the file is empty; expected one JSON object per line',
  'cli.outputs.emptyArray': '{at}: the file is empty; expected a JSON array of {shape}',
  'cli.outputs.csv':
    '{at}: this looks like a CSV table, not JSON; zhujiu reads AlpacaEval JSON (an array of {alpaca}) or, with --format jsonl, one {jsonl} object per line: convert the table to one of them',
  'cli.outputs.looksJsonl':
    '{at}: this looks like JSON Lines (one object per line), not a JSON array: add --format jsonl',
  'cli.outputs.notArray':
    '{at}: expected a JSON array of {shape} (AlpacaEval model_outputs.json); use --format jsonl for one object per line',
  'cli.outputs.element': '{at}: element {i}: {issue}',
  'cli.outputs.rowIssues': '{at}: {issues}',
  'cli.outputs.instructionTwice':
    '{at}: instruction "{text}" appears again (first at line {prev}); keep one answer per instruction',
  'cli.outputs.itemTwice':
    '{at}: item "{key}" appears again (first at line {prev}); keep one answer per item',
  'cli.outputs.noRows': '{at}: no rows found',
  'cli.outputs.folder': '{file}: a folder, not a file; it holds {hints}',
  'cli.outputs.folderNoHint': '{file}: a folder, not a file; pass the outputs file itself',
  'cli.outputs.emptyJsonlName':
    '{at}: the file is empty; expected a JSON array of {shape} (--format alpaca_eval, the default); for a .jsonl file of one {jsonl} object per line add --format jsonl',
  'cli.outputs.rowIssue': 'row {msg}',
  'cli.gaokao.notFolder':
    '{dir}: a file, not a folder; --format gaokao reads a GAOKAO-Bench result folder (one JSON file per keyword){what}',
  'cli.gaokao.fileIs': '; this file is {words}: `{cmd}`',
  'cli.gaokao.outputsFile': '; for an outputs file use --format alpaca_eval or --format jsonl',
  'cli.gaokao.cannotRead':
    '{dir}: cannot read the folder ({code}); give the GAOKAO-Bench result folder (one JSON file per keyword)',
  'cli.gaokao.noFiles':
    '{dir}: no .json result files; expected GAOKAO-Bench objective results such as <model>_2010-2022_Physics_MCQs.json',
  'cli.labels.takes': 'judge agree takes JSON Lines of {shape}',
  'cli.labels.looksLike': '{at}: this looks like {what}; {takes}',
  'cli.labels.oneDocument': '{at}: this is one JSON document, not one object per line; {takes}',
  'cli.labels.battles':
    'arena battles ({shape}); rate them with `zhujiu ratings --battles {file}` or import them with `zhujiu import battles {file}`',
  'cli.labels.pairCounts':
    'arena pair counts ({shape}); rate them with `zhujiu ratings --battles {file}`',
  'cli.labels.outputs':
    'model outputs (a JSON array of {shape}); import them with `zhujiu import outputs {file} --model NAME`',
  'cli.labels.outputsJsonl':
    'model outputs ({shape}); import them with `zhujiu import outputs {file} --model NAME --format jsonl`',
  'cli.labels.annotations':
    'AlpacaEval annotations ({shape}); import them with `zhujiu import judgments {file} --format alpaca_eval --judge NAME`',
  'cli.judgments.noFilesBut': '{path}: no *{ext} files of this format in this folder, but {hints}',
  'cli.judgments.noFiles':
    '{path}: no *{ext} files in this folder; pass the folder that holds the judged files, or one file',
  'cli.judgments.cannotReadFolder':
    '{path}: cannot read the folder ({code}); check its permissions',
  'cli.judgments.otherKindOne':
    '{file}: this looks like {words}, not --format {format} judgments; import it with `{cmd}`',
  'cli.judgments.otherKindMany':
    '{n} files ({file}, …) look like {words}, not --format {format} judgments; import them with `{cmd}`',
  'cli.folderHint.kind': '{n} {words} ({files}): `{cmd}`',
  'cli.fileKind.gaokao_judged': 'GAOKAO-Bench judged result files',
  'cli.fileKind.gaokao_human': "GAOKAO-Bench human-graded result files (teachers' scores)",
  'cli.fileKind.gaokao_objective':
    'GAOKAO-Bench objective result files (model answers, not judgments)',
  'cli.fileKind.alpaca_annotations': 'AlpacaEval annotations',
  'cli.fileKind.alpaca_outputs': 'AlpacaEval model outputs (not judgments)',
  'cli.fileKind.outputs_jsonl': 'model outputs ({shape}; not judgments)',
  'cli.fileKind.battles': 'arena battles',
  'cli.fileKind.labels': '{shape} labels',
  'cli.fileKind.unknown': 'files of no kind zhujiu imports',
  'cli.json.found.char': "'{char}'",
  'cli.dataset.folder': 'datasets folder',
  'cli.dataset.cache': 'datasets cache',
  'cli.dataset.symlink':
    ' (a symlink leads out of it; name its target folder in ZHUJIU_DATASETS_ROOTS to allow it)',
  'cli.dataset.outside':
    'dataset path "{spec}" is outside the {what} {root}{symlink}; put the file inside that folder and give its path relative to it (ZHUJIU_DATASETS_DIR sets the folder)',
  'cli.dataset.downloadFailed':
    '{url}: download failed ({why}); check the URL and the network, or download it and give a local path',
  'cli.dataset.downloadHttp': '{url}: download failed with HTTP {status}; check the URL',
  'cli.dataset.checksum':
    '{url}: checksum mismatch: sha256 is {actual}, the suite expects {expected}; the file changed upstream or the checksum is wrong (nothing was cached)',
  'cli.dataset.noFile':
    '{path}: no such file (datasets folder {dir}); put the dataset files there or set ZHUJIU_DATASETS_DIR to the folder that holds them',
  'cli.dataset.where': 'suite {suite}, dataset {dataset}',
  'cli.dataset.profile': '{where}: profile "{profile}" is not one of {profiles} (loader {loader})',
  'cli.dataset.baseDiffers':
    '{where}: base "{base}" differs from the base of that name given earlier in the suite; give the same entry or another name',
  'cli.dataset.robustNeeds': '{where}: a robustness dataset needs `task:` and `base:`',
  'cli.dataset.problem': '{where}: {message}',
  'cli.dataset.noLoader':
    '{where}: no `loader:`; only metrics datasets with a loader can be prepared',
  'cli.dataset.metric':
    '{where}: metric "{metric}" does not fit loader {loader} (its metric is {its}); remove `metric:` or fix it',
  'cli.dataset.gaokaoPrompts':
    "{where}: the gaokao loader needs `prompts:` (GAOKAO-Bench's Obj_Prompt.json)",
  'cli.dataset.badRows': '{where}: {n} bad row(s); fix or remove them:\n{rows}{more}',
  'cli.dataset.noItems':
    '{where}: its files ({files}) hold no items; name the right file, or fill it (is it empty?)',
  'cli.dataset.moreRows': '\n({n} more)',
  'cli.dataset.shots':
    '{where}: shots {shots} needs {shots, plural, one {# row} other {# rows}} outside the sample, but only {left} {left, plural, one {is} other {are}} left; lower `shots:` or `sample:`',
  'cli.dataset.storedOnly':
    '{where}: only a zero-shot dataset of every item can be run over stored items',
  'cli.dataset.cacheUnwritable':
    'the datasets cache folder {dir} cannot be written ({why}; the environment variable ZHUJIU_DATASETS_CACHE sets it; default: data/datasets-cache in the working folder); set ZHUJIU_DATASETS_CACHE to a writable folder',
  'cli.dataset.cacheUnderFile': '{file} is a file, not a folder: ENOTDIR',
  'cli.outFile.unknown': 'unknown error',
  'cli.serve.started': 'zhujiu {kind}: data in {db}{logs}{health}',
  'cli.serve.logs': '; logs in {file}',
  'cli.serve.health': '; health on {url}',
  'cli.battles.format': '`import battles` takes JSON Lines, one {shape} object per line',
  'cli.battles.names': '"model_a" and "model_b" must be non-empty strings (model names)',
  'cli.battles.badName': '{problems}; fix the model name in the file (or drop the line)',
  'cli.battles.self': 'self-battle: "model_a" and "model_b" are both "{name}"; drop the line',
  'cli.battles.pairCounts':
    'this is a pair-count line; `import battles` takes one battle per line {shape} (pair counts can be rated directly with `zhujiu ratings --battles FILE`)',
  'cli.battles.noWinner': 'missing "winner"; use model_a, model_b, tie or tie (bothbad)',
  'cli.battles.badWinner': 'unknown "winner" {winner}; use model_a, model_b, tie or tie (bothbad)',
  'cli.battles.anony': '"anony" must be true or false, got {got}; drop it or fix the line',
  'cli.battles.outputsJsonl':
    '{at}: this looks like model outputs (JSON Lines of {shape}), not battles; import it with `zhujiu import outputs {file} --model NAME --format jsonl`',
  'cli.battles.outputsArray':
    '{at}: this looks like model outputs (a JSON array of {shape}), not battles; import it with `zhujiu import outputs {file} --model NAME`',
  'cli.battles.problem': '{at}: {msg}',
  'cli.battles.notText': 'not a text line (NUL bytes); expected UTF-8 JSONL',
  'cli.battles.notObject': 'expected an object {shape}',
  'cli.battles.array': '{at}: this is a JSON array; {format}',
  'cli.battles.none': '{at}: the file has no battles; {format}',
  'cli.battles.reserved':
    '--source "{source}"{from} is reserved for the votes cast through the bot; give the imported votes their own name, e.g. --source lmsys-2023',
  'cli.battles.fromFileName': ' (from the file name)',
  'cli.battles.notFile': '{file}: not a file; give the path of a JSONL file of battles',
  'cli.battles.misspeltKey': 'unknown key "{key}" (did you mean "{want}"?); rename it to "{want}"',
  'cli.battles.csv':
    '{at}: this looks like a CSV table, not JSON Lines; {format}: convert the table to one object per line',
  'cli.battles.notJsonl': '{at}: {file} is not JSON Lines (its first line is not JSON); {format}',
  'cli.battles.abilityDiffers':
    'source "{source}" already holds {n, plural, one {# imported battle} other {# imported battles}} {stored}, but this import gives its battles {given}; a source keeps one ability and lines already stored would be skipped, so nothing would change. Import again with {flag}, or give these battles their own --source NAME',
  'cli.battles.ofAbility': 'of ability "{ability}"',
  'cli.battles.noAbility': 'without an ability',
  'cli.battles.withoutFlag': 'no --ability',
  'cli.battles.otherFile':
    '{at}: source "{source}" already holds a different battle at this line: this is another file (or an edited one) under the same source name; import it with its own --source NAME',
  'cli.ratingsLine.at': '{source}:{line}: {msg}',
  'cli.ratingsLine.nothing': 'nothing',
  'cli.ratingsLine.nameNotString': '"{key}" must be a non-empty string (the model name), got {got}',
  'cli.ratingsLine.badName': '"{key}" "{name}" {problem}',
  'cli.ratingsLine.array':
    'this is a JSON array; battles are JSON Lines, one object per line like {example}{outputs}',
  'cli.ratingsLine.arrayOutputs':
    ' (a JSON array of {shape} is model outputs: `zhujiu import outputs {source} --model NAME`)',
  'cli.ratingsLine.notObject': 'expected a JSON object like {example}',
  'cli.ratingsLine.outputs':
    'this looks like model outputs, not battles; import it with `zhujiu import outputs {source} --model NAME{jsonl}`',
  'cli.ratingsLine.neither':
    'neither a battle (needs "winner", e.g. {battle}) nor pair counts (needs "model_a_wins", e.g. {pair})',
  'cli.ratingsLine.battleInPairs':
    'a battle line in a file of pair counts (detected at line {first}); put each kind in its own file',
  'cli.ratingsLine.pairInBattles':
    'a pair-count line in a file of battles (detected at line {first}); put each kind in its own file',
  'cli.ratingsLine.self': 'self-battle: "{name}" against itself; model_a and model_b must differ',
  'cli.ratingsLine.noWinner':
    'missing "winner"; use one of "model_a", "model_b", "tie", "tie (bothbad)"',
  'cli.ratingsLine.badWinner':
    'unknown winner {winner}; use one of "model_a", "model_b", "tie", "tie (bothbad)"',
  'cli.ratingsLine.anony': '"anony" must be true or false, got {got}; drop it or fix the line',
  'cli.ratingsLine.count': '"{key}" must be a non-negative integer, got {got}',
  'cli.styleLine.notJson': 'not valid JSON ({detail}); write one battle object per line',
  'cli.styleLine.notObject': 'not a JSON object; write one battle object per line',
  'cli.styleLine.name': '"{key}" must be a non-empty string (the model name)',
  'cli.styleLine.same': 'model_a and model_b are the same model; a battle needs two models',
  'cli.styleLine.winner': '"winner" must be one of {winners}',
  'cli.styleLine.metaObject': '"conv_metadata" must be an object',
  'cli.styleLine.metaField':
    "conv_metadata.{field} must be an integer ≥ 0 or an object of them (FastChat's style fields); re-export with `zhujiu export battles --format fastchat`",
  'cli.styleLine.noMetadata':
    "{source}: no battle line has conv_metadata (the answers' style counts), so style control has nothing to fit; export battles whose answers are stored with `zhujiu export battles --format fastchat`, or rate without --style-control",
  'cli.battles.emptyInput':
    '{source}: empty input ({n, plural, one {# line} other {# lines}}, none with data); give one battle per line like {example}',
  'cli.battles.allNamed':
    '{source}: {n, plural, one {its # battle is} other {all # battles are}} marked "anony": false (their voters saw the models\' names), which ratings leave out; pass --include-named to rate them',
  'cli.battles.conflict':
    'the vote `{identity}` is also line {line}, with another outcome: `{there}` there, `{here}` here. One vote has one outcome: delete the wrong line, then try again',
  'cli.files.csv': '{at}: this looks like a CSV table, not JSON; {format}: convert the table first',
  'cli.files.notJson':
    '{at}: this is not JSON (it starts with neither an object nor an array); {format}',
  'cli.files.labelsFormat': '`zhujiu judge agree` takes JSON Lines of {shape}',
  'cli.files.alpacaFormat':
    '`zhujiu import judgments --format alpaca_eval` takes JSON Lines of AlpacaEval annotations ({shape})',
  'cli.files.gaokaoFormat':
    '`zhujiu import judgments --format gaokao` takes GAOKAO-Bench judged result files (one JSON document each)',
  'cli.files.gaokaoHumanFormat':
    '`zhujiu import judgments --format gaokao-human` takes GAOKAO-Bench teacher-graded files (one JSON document each)',
  'cli.rows.at': '{at}: {reason}',
  'cli.rows.join': '{a}; {b}',
  'cli.rows.issue': '"{key}" {msg}',
  'cli.rows.lines': '{a}\n{b}',
  'cli.rows.ocnliLabel': '"label" must be entailment, neutral, contradiction or -, got "{label}"',
  'cli.rows.chidBlank': 'must contain the blank #idiom#',
  'cli.rows.notIndex': '"answer" {answer} is not an index of "{list}" ({n})',
  'cli.rows.c3Array': 'expected a JSON array of [sentences, questions, id] (the C3 format)',
  'cli.rows.c3Document': 'document {doc}: {issues}',
  'cli.rows.c3Question': 'document {doc} question {n}: {issue}',
  'cli.rows.c3Answer': '"answer" is not one of "choice"',
  'cli.rows.gaokaoPrompts': 'not a GAOKAO-Bench Obj_Prompt.json ({shape})',
  'cli.rows.gaokaoDataset':
    'keyword {keyword} belongs to dataset {dataset}, not {given}; move the file to that dataset',
  'cli.rows.gaokaoPrefix':
    'no prefix prompt for keyword {keyword} in the prompts file; add it or fix `prompts:`',
  'cli.rows.knowledgeElements': 'a completeness row needs "elements"',
  'cli.rows.knowledgeVariants': 'a robustness row needs "variants" (the phrasings)',
  'cli.rows.knowledgeAnswers': '"answers" is empty: give the accepted answers',
  'cli.rows.math23kAns':
    '"ans" {ans} is not a number, {percent}, {fraction} or an expression of those',
  'cli.rows.itemTwice': 'item "{key}" already appears at {prev}',
  'cli.rows.noOption': '"answer" {answer} has no option (there are {n})',
  'cli.rows.oneAnswer': 'needs at least one reference answer',
  'cli.rows.squad': 'not SQuAD-style JSON {shape}: {issues}',
  'cli.rows.emptyAnswers': 'question {id}: every reference answer is empty',
  'cli.rows.idRepeats': 'question id {id} repeats an earlier one',
  'cli.rows.gaokaoLetters': 'must be option letters A-G',
  'cli.rows.gaokaoFile': 'not a GAOKAO-Bench objective file: expected {shape}',
  'cli.rows.gaokaoKeyword': '"keyword"/"keywords" is missing',
  'cli.rows.gaokaoUnknownKeyword':
    'unknown objective keyword "{keyword}"; expected one of {keywords}',
  'cli.rows.gaokaoExample': 'example {i}: {reason}',
  'cli.rows.gaokaoIssue': '"{key}" {msg}',
  'cli.rows.gaokaoAnswer': '"answer" (or "standard_answer") is missing',
  'cli.rows.gaokaoOutput': '"model_output" is missing; this is not a result file of model outputs',
  'cli.rows.gaokaoRepeat': 'index {index} repeats the example at line {line}',
  'cli.rows.topLevel': '(top level)',
  'cli.rows.judgedFile':
    '{file}: {path}: {msg}; expected a GAOKAO-Bench judged result file {shape}',
  'cli.rows.judgedTwice': '{index} appears twice; each question once',
  'cli.rows.humanNoKeyword': 'no "keyword"',
  'cli.rows.humanFile':
    '{at}: {path}: {msg}; expected a GAOKAO-Bench human-graded result file {shape}',
  'cli.rows.humanNoModel':
    '{at}: no "model_name", and the file name is not <model>_{keyword}.json; add "model_name" to the file or name it as upstream does',
  'cli.rows.labelsItem': '"item" must be a non-empty string or an integer',
  'cli.rows.labelsLabel': '"label" must be a number or a non-empty string',
  'cli.rows.labelsTwice':
    'item "{item}" is already labelled on line {prev}; keep one label per item',
  'cli.rows.labelsNone': '{at}: no labels; expected {shape} lines',
  'cli.rows.annBaseline': 'must name the baseline model',
  'cli.rows.annModel': 'must name the judged model',
  'cli.rows.annPreference':
    'must be in [1, 2] (1 baseline better, 2 model better, 1.5 or 0 tie) or null',
  'cli.rows.annSelf':
    'generator_1 and generator_2 are both "{model}"; a model is not judged against itself',
  'cli.rows.annShape': '{at}: expected a JSON array of annotation objects, or one object per line',
  'cli.rows.annTwice':
    'the same instruction is judged again for {model} vs {baseline} (first on line {prev}); keep one',
  'cli.rows.annNone': '{at}: no annotations found',
  'cli.rows.humanTwice':
    "{file}: {model}'s {keyword} is also in {other}; import one run at a time (one folder per run)",
  'cli.rows.modelFromFile':
    '{at}: model "{model}" (from the file) {problem}; add a valid "model_name" to the file',
  'cli.rows.judgeDiffers':
    '{at}: {key} is "{named}" but --judge is "{judge}"; pass --judge {named}',
  'cli.rows.nameInFile': '{at}: "{key}" "{model}" {problem}; fix it in the file',
  'cli.rows.annTwiceFiles':
    '{path}: {model} vs {baseline} is judged twice on one instruction (line {line} of a later file); import one annotations file per model',
  'cli.rows.keywordTwice': '{at}: keyword {keyword} is also in {other}; keep one file per keyword',
  'cli.rows.modelDiffers':
    '{at}: "model_name" is "{named}" but --model is "{model}"; pass --model {named} or import the right folder',
  'cli.rows.promptDiffers':
    '{at}: item "{key}" is already in dataset "{dataset}" with a different prompt; give it another key, or import into another --dataset',
  'cli.known.model':
    '{flag} {name}: no such model: neither {models} nor the stored data know it; the models are {list}{meant}',
  'cli.known.judge':
    '{flag} {name}: no such judge: neither {models} nor the stored grades know it; the judges and models are {list}{meant}',
  'cli.known.dataset':
    '{flag} {name}: no such dataset: no suite of {suites} lists it and none is stored; the datasets are {list}{meant}',
  'cli.known.meant': '. Did you mean "{name}"?',
  'cli.files.ratingsFormat':
    '`zhujiu ratings --battles` takes JSON Lines of battles {battles} or of pair counts {pairs}',
  'cli.sources.meant': ' Did you mean "{name}"?',
  'cli.zod.missing': 'is missing: give {expected}',
  'cli.zod.type': 'must be {expected}, not {received}',
  'cli.zod.typeValue': 'must be {expected}, not {value}',
  'cli.zod.wholeNumber': 'must be a whole number, not {value}',
  'cli.zod.is': 'must be {value}',
  'cli.zod.oneOf': 'must be one of {values}',
  'cli.zod.or': ' or ',
  'cli.zod.text.empty': 'must not be empty',
  'cli.zod.text.min': 'is too short: at least {n, plural, one {# character} other {# characters}}',
  'cli.zod.text.max': 'is too long: at most {n, plural, one {# character} other {# characters}}',
  'cli.zod.text.exact': 'must be exactly {n, plural, one {# character} other {# characters}} long',
  'cli.zod.list.empty': 'must not be empty: give at least one item',
  'cli.zod.list.min': 'has too few items: at least {n, plural, one {# item} other {# items}}',
  'cli.zod.list.max': 'has too many items: at most {n, plural, one {# item} other {# items}}',
  'cli.zod.list.exact': 'must have exactly {n, plural, one {# item} other {# items}}',
  'cli.zod.bytes.min': 'is too small: at least {n, plural, one {# byte} other {# bytes}}',
  'cli.zod.bytes.max': 'is too large: at most {n, plural, one {# byte} other {# bytes}}',
  'cli.zod.bytes.exact': 'must be exactly {n, plural, one {# byte} other {# bytes}}',
  'cli.zod.number.min': 'must be at least {n}',
  'cli.zod.number.minStrict': 'must be greater than {n}',
  'cli.zod.number.max': 'must be at most {n}',
  'cli.zod.number.maxStrict': 'must be less than {n}',
  'cli.zod.number.exact': 'must be {n}',
  'cli.zod.date.min': 'must be {n} or later',
  'cli.zod.date.minStrict': 'must be later than {n}',
  'cli.zod.date.max': 'must be {n} or earlier',
  'cli.zod.date.maxStrict': 'must be earlier than {n}',
  'cli.zod.format.startsWith': 'must start with {text}',
  'cli.zod.format.endsWith': 'must end with {text}',
  'cli.zod.format.includes': 'must contain {text}',
  'cli.zod.format.regex': 'does not have the required form (it must match {pattern})',
  'cli.zod.format.url': 'must be a URL, e.g. https://example.com/',
  'cli.zod.format.other': 'is not a valid {format}',
  'cli.zod.multipleOf': 'must be a multiple of {n}',
  'cli.zod.unknownKeys': '{n, plural, one {unknown key} other {unknown keys}}: {keys}',
  'cli.zod.invalidKey': 'has a key that is not valid here',
  'cli.zod.invalidElement': 'has a value that is not valid here',
  'cli.zod.union': 'matches none of the forms this value may take',
  'cli.zod.invalid': 'is not valid',
  'cli.zod.type.string': 'a string',
  'cli.zod.type.number': 'a number',
  'cli.zod.type.int': 'a whole number',
  'cli.zod.type.nan': 'NaN (not a number)',
  'cli.zod.type.boolean': 'true or false',
  'cli.zod.type.bigint': 'a whole number',
  'cli.zod.type.symbol': 'a symbol',
  'cli.zod.type.undefined': 'nothing',
  'cli.zod.type.null': 'null',
  'cli.zod.type.date': 'a date',
  'cli.zod.type.array': 'a list',
  'cli.zod.type.object': 'an object',
  'cli.zod.type.tuple': 'a list',
  'cli.zod.type.record': 'an object',
  'cli.zod.type.map': 'a map',
  'cli.zod.type.set': 'a set',
  'cli.zod.type.file': 'a file',
  'cli.zod.type.function': 'a function',
  'cli.rating.tooManyModels': 'more than 1,048,576 distinct models',
  'cli.rating.selfBattle': 'self-battle: "{model}" against itself',
  'cli.rating.noBattles': 'no battles: the input holds no battle or pair-count rows',
  'cli.rating.badPairCount':
    'pair row {row} ({a} vs {b}): {key} must be a non-negative integer, got {value}',
  'cli.rating.fewerThanTwo':
    'fewer than two models can be rated ({n}); excluded: {excluded}. Add battles between models.',
  'cli.rating.excludedNone': 'none',
  'cli.rating.excludedModel': '{model} ({reason}, {n, plural, one {# vote} other {# votes}})',
  'cli.rating.anchorUnrated':
    'anchor model "{model}" has no finite rating ({reason}); choose another anchor',
  'cli.rating.anchorNotFinite': 'anchor rating must be a finite number, got {rating}',
  'cli.rating.anchorNoBattles':
    'anchor model "{model}" has no battles in the data; pick one of its models or drop the anchor',
  'cli.rating.notConnected':
    'no finite Bradley–Terry rating for: {excluded}; the comparison graph must be strongly connected (every model must both win or tie against and lose or tie against the others, through some chain). Add battles or remove these models.',
  'cli.agree.noPairs': 'no items are labelled by both raters',
  'cli.agree.orderTwice': '--order lists a label twice',
  'cli.agree.notInOrder':
    '{n, plural, one {label} other {labels}} {labels} {n, plural, one {is} other {are}} not in --order ({order}); list every label',
  'cli.eval.judgeNotConfigured':
    'judge.model "{judge}" ({default}) is not in {models}; add it there or change judge.model',
  'cli.datasets.noPackage':
    'the data package "{name}" is not installed; run `npm ci` in the zhujiu folder',
  'cli.llm.keyMissing':
    'model {model}: {reason}. Export it, e.g. `export {variable}=...`, or remove api_key_env for an endpoint that needs no key.',
  'cli.serve.portInUse':
    'the health/metrics port {where} is already in use (another zhujiu process?): give each process its own PORT, or PORT=0 to run without the health server',
  'cli.serve.cannotListen':
    'cannot listen on {where} ({code}): check ZHUJIU_HTTP_HOST / http.host and PORT / http.port',
  'cli.log.cannotOpen':
    'LOG_FILE: cannot open the log file {file} ({why}); set LOG_FILE to a writable file, or LOG_FILE=- to log to stderr',
  'cli.log.isFolder': 'it is a folder',
  'cli.log.fileInPath': 'part of its folder path is a file',
  'cli.log.noPermission': 'no permission ({code})',
  'cli.upgrade.notDb':
    '{dir} is not an embedded database folder (it has no PG_VERSION file): nothing to upgrade. Check ZHUJIU_DATA_DIR.',
  'cli.upgrade.otherVersion':
    'the embedded database in {dir} was made by PostgreSQL {made}; this zhujiu upgrades only PostgreSQL {old} folders (PGlite 0.4) to {new}. Open it with the zhujiu that made it.',
  'cli.upgrade.cannotOpen':
    'cannot open {dir} with PostgreSQL {old} (PGlite 0.4): {detail}. The folder is left as it was.',
  'cli.upgrade.otherSchemas':
    '{dir} holds tables outside the public schema ({tables}), which the upgrade would not carry over; the folder is left as it was. Export what they hold first.',
  'cli.upgrade.newer':
    '{dir} has migrations this zhujiu does not know ({names}): it was made by a newer zhujiu. Upgrade with that one; the folder is left as it was.',
  'cli.upgrade.lostTables':
    'the old folder has tables its migrations do not make ({tables}): the upgrade would lose them, so it stopped; the old folder is left as it was.',
  'cli.upgrade.columns':
    'table {table} has columns ({old}) in the old folder and ({new}) in the new one after the same migrations; the upgrade stopped and the old folder is left as it was.',
  'cli.upgrade.rows':
    'table {table} has {before, plural, one {# row} other {# rows}} in the old folder and {after} after the copy; the upgrade stopped and the old folder is left as it was.',
  'cli.upgrade.failed':
    'upgrading {dir} failed: {detail}. The old folder is left as it was; run `zhujiu migrate --upgrade-data-dir` again once the cause is fixed.',
  'cli.cause.with': '{phrase}, {detail}',
  'cli.cause.connection': 'connection error',
  'cli.cause.refused': 'connection refused',
  'cli.cause.reset': 'connection reset',
  'cli.cause.hostNotFound': 'host name not found',
  'cli.cause.dnsAgain': 'host name lookup failed for now',
  'cli.cause.timedOut': 'timed out',
  'cli.cause.hostUnreachable': 'host unreachable',
  'cli.cause.netUnreachable': 'network unreachable',
  'cli.cause.addressInUse': 'address already in use',
  'cli.cause.addressNotAvailable': 'address not available',
  'cli.cause.aborted': 'request aborted',
  'cli.cause.noPermission': 'no permission',
  'cli.cause.noSuchFile': 'no such file or folder',
  'cli.cause.readOnly': 'read-only file system',
  'cli.cause.diskFull': 'no space left on the disk',
  'cli.cause.isFolder': 'a folder, not a file',
  'cli.cause.fileInPath': 'a file is in the path',
  'cli.cause.exists': 'already exists',
  'cli.cause.tooManyFiles': 'too many open files',
  'cli.cause.busy': 'in use',
  'cli.cause.notEmpty': 'folder not empty',
  'cli.cause.linkLoop': 'too many levels of symbolic links',
  'cli.cause.nameTooLong': 'name too long',
  'cli.cause.io': 'input/output error',
  'cli.judge.overMaxItem': '{key} ({credit} of {score})',
  'cli.judge.failedItem': '{item} ({why})',
  'cli.datasets.source': '{package}@{version} ({licence})',
  'cli.item.label': '{dataset} "{key}"{prompt}',
  'cli.item.prompt': ' ("{head}")',
  'cli.item.id': 'id {id}',
  'cli.db.tookOver':
    'took over a stale lock of the embedded database ({why}; it was held by {owner})',
  'cli.db.stale.earlier': 'lock file of an earlier version, its process is gone',
  'cli.db.stale.ownPid': 'it names this process’s own pid (a restarted container reuses pids)',
  'cli.db.stale.reused': 'pid {pid} now belongs to another program',
  'cli.db.stale.gone': 'pid {pid} no longer runs',
  'cli.db.stale.notRefreshed': 'it was not refreshed for longer than the stale time',
  'cli.db.lockLost':
    'the embedded database lock was lost (the process stalled for too long?); stop this process',
  'cli.db.templateUnusable':
    'the prepared embedded database cannot be used; creating a new one instead (slower). Run `npm run build` to write it again',
  'cli.start.modelDisabledLog': 'model disabled: {warning}',
  'cli.start.classifierDisabled':
    'arena.ask.classifier_model "{name}" is disabled: /ask\'s untagged prompts stay unclassified',
  'cli.start.voterSecretGenerated':
    'ZHUJIU_VOTER_SECRET is not set: generated a voter-id secret for this data folder',
} as const satisfies Readonly<Record<string, string>>;
