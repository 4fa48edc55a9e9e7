/**
 * @module eval/judge/judge-suite
 * `zhujiu judge run`: judges a model's stored answers to the scoring datasets of a suite (config/suites/*.yaml
 * entries with `method: scoring`) with each dataset's rubric, plus the safety-violation check where the dataset
 * asks for it (docs/scoring.md §3). Answers come from the responses table (an evaluation run's, or recorded
 * outputs); items the model has not answered are counted, not judged. Resumable: judged items are skipped and
 * judge failures asked again.
 */
import type { Kysely } from 'kysely';
import { filesOf } from '../../config/files.ts';
import type { LoadedConfig } from '../../config/loader.ts';
import type { AppError } from '../../core/errors.ts';
import type { Logger } from '../../core/logger.ts';
import { shellWord } from '../../core/shell-word.ts';
import { type CliMessageKey, listSaid, said, saidError } from '../../i18n/cli.ts';
import { closestNames, meantName } from '../../i18n/names.ts';
import { openLlmClient } from '../../llm/factory.ts';
import type { LlmClient } from '../../llm/types.ts';
import { latestAnswers } from '../../storage/judge-scores.ts';
import { findModel, knownModelNames } from '../../storage/models.ts';
import type { Database } from '../../storage/schema.ts';
import { prepareDataset } from '../datasets/prepare.ts';
import { type JudgeRunResult, judgeAnswers } from './judge.ts';
import { loadRubric } from './rubrics.ts';

/** What was judged in one dataset. */
export interface DatasetJudgeResult extends JudgeRunResult {
  readonly dataset: string;
  readonly rubric: string;
  /** Items of the dataset the model has no stored answer to. */
  readonly unanswered: number;
}

/** Options of {@link judgeSuite}. */
export interface JudgeSuiteOptions {
  readonly model: string;
  readonly suite: string;
  /** A model of config/models.yaml acting as the judge. */
  readonly judge: string;
  readonly maxAttempts?: number;
  /** Overrides the judge's client (tests). */
  readonly judgeClient?: LlmClient;
  /**
   * Stops the judging (Ctrl-C): requests in flight are aborted and their items left as they were (neither judged
   * nor failed); the datasets not reached are not listed. What was judged is kept; the next run skips it.
   */
  readonly signal?: AbortSignal;
}

/**
 * The client of the judge `name`, a model of the models file read (config/files.ts).
 * @throws AppError `input_invalid` (a usage mistake: exit 2) naming that file when it lists no such model.
 */
async function openJudgeClient(
  deps: { readonly db: Kysely<Database>; readonly logger: Logger; readonly config: LoadedConfig },
  name: string,
): Promise<LlmClient> {
  const { config } = deps;
  const models = filesOf(config).models;
  const cfg = judgeConfig(config, name);
  const opened = await openLlmClient(cfg, {
    db: deps.db,
    logger: deps.logger,
    apiKeyFor: config.apiKeyFor,
    apiKeyEmpty: config.apiKeyEmpty,
    entryIn: models,
  });
  return opened.client;
}

/**
 * The models-file entry of the judge `name`.
 * @throws AppError `input_invalid` (a usage mistake, exit 2) when the models file does not list it, naming the
 *   models it lists, closest first, with a "did you mean".
 */
function judgeConfig(config: LoadedConfig, name: string): LoadedConfig['models'][number] {
  const cfg = config.models.find((m) => m.name === name);
  if (cfg) return cfg;
  const names = config.models.map((m) => m.name);
  throw saidError(
    'input_invalid',
    said(names.length === 0 ? 'cli.judge.unknownJudge.none' : 'cli.judge.unknownJudge', {
      judge: name,
      models: filesOf(config).models,
      valid: closestNames(name, names),
      meant: meantName('cli.judge.didYouMean', name, names),
    }),
  );
}

/**
 * The refusal of `--model NAME` when no answers of it are stored: a name neither the models file nor the stored
 * models know is a usage mistake (`input_invalid`, exit 2) listing the known names, closest first, with a "did you
 * mean"; a configured model without stored answers is `not_found` (run an evaluation first).
 */
async function unknownModelError(
  db: Kysely<Database>,
  config: LoadedConfig,
  name: string,
): Promise<AppError> {
  const models = filesOf(config).models;
  if (config.models.some((m) => m.name === name))
    return saidError(
      'not_found',
      said('cli.judge.noAnswers', { model: name, word: shellWord(name) }),
    );
  const names = await knownModelNames(
    db,
    config.models.map((m) => m.name),
  );
  const key: CliMessageKey =
    names.length === 0 ? 'cli.judge.unknownModel.none' : 'cli.judge.unknownModel';
  return saidError(
    'input_invalid',
    said(key, {
      model: name,
      word: shellWord(name),
      models,
      valid: closestNames(name, names),
      meant: meantName('cli.judge.didYouMean', name, names),
    }),
  );
}

/**
 * Judges the model's answers to every scoring dataset of the suite.
 * @throws AppError `input_invalid` (a suite or judge the configuration lacks: a usage mistake), `not_found` (a
 *   model without stored answers, a suite without scoring datasets), `config_invalid` (a scoring dataset without
 *   a loader).
 */
export async function judgeSuite(
  deps: { readonly db: Kysely<Database>; readonly logger: Logger; readonly config: LoadedConfig },
  o: JudgeSuiteOptions,
): Promise<DatasetJudgeResult[]> {
  const { config, db } = deps;
  const suite = config.suites.get(o.suite);
  if (!suite) {
    const names = [...config.suites.keys()];
    throw saidError(
      'input_invalid',
      said(names.length === 0 ? 'cli.judge.unknownSuite.none' : 'cli.judge.unknownSuite', {
        suite: o.suite,
        suites: listSaid(names),
        meant: meantName('cli.judge.didYouMean', o.suite, names),
      }),
    );
  }
  // A judge the models file lacks is a usage mistake: said before any slower check.
  if (o.judgeClient === undefined) judgeConfig(config, o.judge);
  const entries = suite.datasets.filter((d) => d.method === 'scoring');
  if (entries.length === 0)
    throw saidError('not_found', said('cli.judgeSuite.noScoring', { suite: o.suite }));
  const model = await findModel(db, o.model);
  if (!model) throw await unknownModelError(db, config, o.model);
  const judge = o.judgeClient ?? (await openJudgeClient(deps, o.judge));
  const loc = {
    datasetsDir: config.datasetsDir,
    cacheDir: config.datasetsCacheDir,
    roots: config.datasetRoots ?? [],
  };
  const out: DatasetJudgeResult[] = [];
  for (const entry of entries) {
    if (o.signal?.aborted) break;
    const rubric = loadRubric(config.configDir, entry.rubric ?? 'ten_point');
    const safety = entry.safety_check
      ? loadRubric(config.configDir, 'safety_violation')
      : undefined;
    const ds = await prepareDataset(suite.name, entry, loc);
    const answers = await latestAnswers(db, model.id, entry.name);
    const targets = [];
    let unanswered = 0;
    for (const item of ds.items) {
      const a = answers.get(item.key);
      if (!a) {
        unanswered++;
        continue;
      }
      targets.push({
        itemId: a.itemId,
        question: item.prompt,
        reference: typeof item.reference === 'string' ? item.reference : null,
        answer: a.output,
        responseId: a.responseId,
      });
    }
    const r = await judgeAnswers({
      db,
      judge,
      rubric,
      ...(safety ? { safety } : {}),
      modelId: model.id,
      targets,
      ...(o.maxAttempts !== undefined ? { maxAttempts: o.maxAttempts } : {}),
      ...(o.signal ? { signal: o.signal } : {}),
    });
    out.push({ ...r, dataset: entry.name, rubric: `${rubric.name}@${rubric.version}`, unanswered });
  }
  return out;
}
