/**
 * @module config/start-checks
 * The checks a configuration must pass before `bot` or `worker` starts, beyond the files' own schemas (which
 * {@link loadConfig} applies): settings that are each valid but do not work together, and environment variables
 * the configuration names but that are not set. `zhujiu config check` and the start-up of `bot` / `worker` run
 * this same function, so a setup that `config check` calls OK does not then fail at start for these reasons.
 *
 * Every problem is one line naming where to fix it: `file:line:col key: message` for a key of the YAML files, or
 * `environment NAME: message` for a variable.
 *
 * A problem of one model that the files themselves do not have (its `api_key_env` variable is unset in this
 * environment) does not stop the start: that model is disabled ({@link disabledModels}), with a warning, and
 * everything else (the arena of recorded models, the other endpoints) works. Only asking that model is refused.
 */
import { AppError, type Said } from '../core/errors.ts';
import { type CliMessageKey, listSaid, said, sayCli, tc } from '../i18n/cli.ts';
import { type Locale, t } from '../i18n/index.ts';
import { DEFAULT_CONFIG_FILES, filesOf } from './files.ts';
import type { LoadedConfig } from './loader.ts';

/**
 * Every start-up problem of `config` (empty when it can start).
 * - `DATABASE_URL` without `ZHUJIU_VOTER_SECRET` (processes sharing a database must hash voter ids alike).
 * - `SLACK_BOT_TOKEN` in Socket Mode without `SLACK_APP_TOKEN`, or in HTTP mode without `SLACK_SIGNING_SECRET`.
 * - `judge.model` or `arena.ask.classifier_model` naming no OpenAI-compatible model of models.yaml.
 */
export function startProblems(config: LoadedConfig, locale: Locale = 'en'): string[] {
  const { env, app } = config;
  const problems: string[] = [];
  if (env.DATABASE_URL && !env.ZHUJIU_VOTER_SECRET)
    problems.push(tc(locale, 'cli.start.voterSecret'));
  if (env.SLACK_BOT_TOKEN) {
    const mode = app.platforms.slack.mode;
    const where = `${config.locate('default', ['platforms', 'slack', 'mode'])} platforms.slack.mode`;
    if (mode === 'socket' && !env.SLACK_APP_TOKEN)
      problems.push(tc(locale, 'cli.start.slackAppToken', { where }));
    if (mode === 'http' && !env.SLACK_SIGNING_SECRET)
      problems.push(tc(locale, 'cli.start.slackSigningSecret', { where }));
  }
  // Settings that name a model: it must be an OpenAI-compatible model of models.yaml (one that can be called).
  for (const setting of ['judge.model', 'arena.ask.classifier_model'] as const) {
    const problem = namedModelProblem(config, setting);
    if (problem) problems.push(sayCli(locale, problem));
  }
  return problems;
}

/** The settings that name a model to call: where each is in config/default.yaml and what it is for. */
const NAMED_MODELS = {
  'judge.model': { path: ['judge', 'model'], what: 'cli.start.judgeWhat' },
  'arena.ask.classifier_model': {
    path: ['arena', 'ask', 'classifier_model'],
    what: 'cli.start.classifierWhat',
  },
} as const satisfies Record<string, { path: readonly string[]; what: CliMessageKey }>;

/**
 * Why `setting` (`judge.model`, `arena.ask.classifier_model`) names no OpenAI-compatible model of models.yaml, as
 * catalogue data (located: `default.yaml:12:10 judge.model: …`), or undefined when it is null or names one.
 */
export function namedModelProblem(
  config: LoadedConfig,
  setting: keyof typeof NAMED_MODELS,
): Said | undefined {
  const { path, what } = NAMED_MODELS[setting];
  const name =
    setting === 'judge.model' ? config.app.judge.model : config.app.arena.ask.classifier_model;
  const callable = config.models.filter((m) => m.provider === 'openai').map((m) => m.name);
  if (name === null || callable.includes(name)) return undefined;
  const recorded = config.models.some((m) => m.name === name);
  return said(recorded ? 'cli.start.namedRecorded' : 'cli.start.namedUnknown', {
    at: config.locate('default', path),
    key: setting,
    name,
    what: said(what),
    configured: callable.length > 0 ? listSaid(callable) : said('cli.start.none'),
    models: filesOf(config).models,
  });
}

/**
 * Why a model's key is missing, as the end of a sentence: `its API key variable QWEN_API_KEY (config/models.yaml
 * api_key_env) is not set`, or `… is set but empty` when the variable exists with no value (`QWEN_API_KEY=`).
 * The one wording of `zhujiu eval`, `/eval`, `/models`, `config check` and the client factory.
 * @param variable the `api_key_env` variable.
 * @param empty true when it is set to an empty value.
 * @param locale the language (default English: logs, warnings and the command line).
 * @param models the models file as messages name it (config/files.ts; default `config/models.yaml`).
 */
export function missingKeyReason(
  variable: string,
  empty: boolean,
  locale: Locale = 'en',
  models: string = DEFAULT_CONFIG_FILES.models,
): string {
  return t(locale, empty ? 'modelKey.empty' : 'modelKey.unset', { variable, models });
}

/** A configured model that cannot be called in this environment, and why. */
export interface DisabledModel {
  readonly name: string;
  /** Why, as the end of a sentence: `its API key variable QWEN_API_KEY (config/models.yaml api_key_env) is not set`. */
  readonly reason: string;
  /** The variable to set. */
  readonly variable: string;
  /** The models file that names the variable, as messages show it (config/files.ts). */
  readonly file?: string;
  /** True when the variable is set to an empty value (else unset). */
  readonly empty: boolean;
  /** Marked `arena: true` (a live model of `/ask`). */
  readonly live: boolean;
  /** The warning line, located: `models.yaml:6:18 models[1].api_key_env: QWEN_API_KEY is not set …`. */
  readonly warning: string;
}

/**
 * The OpenAI-compatible models of `config` whose `api_key_env` names a variable that is unset or empty: they are
 * disabled (not offered to `/ask`, not usable as judge or classifier, `/eval` and `zhujiu eval` refuse them), while
 * the bot starts with the rest. In models.yaml order.
 */
export function disabledModels(
  config: Pick<LoadedConfig, 'models' | 'apiKeyFor'> &
    Partial<Pick<LoadedConfig, 'locate' | 'apiKeyEmpty' | 'files'>>,
  locale: Locale = 'en',
): DisabledModel[] {
  const out: DisabledModel[] = [];
  config.models.forEach((m, i) => {
    if (m.provider !== 'openai' || !m.api_key_env) return;
    if (config.apiKeyFor(m.name) !== undefined) return;
    const empty = config.apiKeyEmpty?.(m.name) ?? false;
    out.push({
      name: m.name,
      variable: m.api_key_env,
      file: filesOf(config).models,
      empty,
      live: m.arena,
      reason: missingKeyReason(m.api_key_env, empty, 'en', filesOf(config).models),
      warning: tc(locale, empty ? 'cli.start.disabledEmpty' : 'cli.start.disabledUnset', {
        at: config.locate?.('models', ['models', i, 'api_key_env']) ?? filesOf(config).models,
        i: i + 1,
        variable: m.api_key_env,
        name: m.name,
      }),
    });
  });
  return out;
}

/**
 * Throws when {@link startProblems} finds any.
 * @throws AppError `config_invalid` listing every problem, one per line.
 */
export function assertStartable(config: LoadedConfig, locale: Locale = 'en'): void {
  const problems = startProblems(config, locale);
  if (problems.length > 0) throw new AppError('config_invalid', problems.join('\n'));
}
