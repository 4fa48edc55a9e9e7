/**
 * @module cli/known-names
 * Names a command's flag takes that neither the configuration nor the stored data know: such a name is a usage
 * mistake (`input_invalid`, exit 2: README "Command line"), refused with the known names, closest first (at most
 * 10), and a "did you mean". A name that is known but missing from the data asked for (a configured model without
 * stored answers, a dataset one run lacks) stays the command's own `not_found` (exit 1).
 */
import { filesOf } from '../config/files.ts';
import { AppError } from '../core/errors.ts';
import { type CliMessageKey, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import type { Runtime } from '../main.ts';
import { listDatasetNames } from '../storage/items.ts';
import { singleAnswerJudges } from '../storage/judge-scores.ts';
import { knownModelNames as storedOrConfigured } from '../storage/models.ts';
import { closestList, meantText } from './name-list.ts';

/** The model names the configuration (config/models.yaml) and the stored models know, without repeats. */
export async function knownModelNames(rt: Runtime): Promise<string[]> {
  return storedOrConfigured(
    rt.db.db,
    rt.config.models.map((m) => m.name),
  );
}

/** The judge names the configuration (its models, `judge.model`) and the stored models and grades know. */
async function knownJudgeNames(rt: Runtime): Promise<string[]> {
  const judge = rt.config.app.judge.model;
  const graded = await singleAnswerJudges(rt.db.db);
  return [...new Set([...graded, ...(judge ? [judge] : []), ...(await knownModelNames(rt))])];
}

/** The dataset names the configured suites and the stored datasets know. */
async function knownDatasetNames(rt: Runtime): Promise<string[]> {
  const configured = [...rt.config.suites.values()].flatMap((s) => s.datasets.map((d) => d.name));
  return [...new Set([...configured, ...(await listDatasetNames(rt.db.db))])];
}

const KINDS = {
  model: { key: 'cli.known.model', names: knownModelNames },
  judge: { key: 'cli.known.judge', names: knownJudgeNames },
  dataset: { key: 'cli.known.dataset', names: knownDatasetNames },
} as const satisfies Record<
  string,
  { key: CliMessageKey; names: (rt: Runtime) => Promise<string[]> }
>;

/**
 * Refuses `flag name` when neither the configuration nor the stored data know `name` as a `kind` (model, judge or
 * dataset): throws AppError `input_invalid` naming the flag, the config file read, the known names closest first
 * and a "did you mean", in `locale`. Returns quietly when the name is known.
 */
export async function requireKnownName(
  rt: Runtime,
  kind: keyof typeof KINDS,
  flag: string,
  name: string,
  locale: Locale,
): Promise<void> {
  const names = await KINDS[kind].names(rt);
  if (names.includes(name)) return;
  const files = filesOf(rt.config);
  throw new AppError(
    'input_invalid',
    tc(locale, KINDS[kind].key, {
      flag,
      name,
      models: files.models,
      suites: files.suites,
      list: closestList(locale, name, names),
      meant: meantText(locale, name, names),
    }),
  );
}
