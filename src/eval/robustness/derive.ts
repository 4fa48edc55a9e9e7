/**
 * @module eval/robustness/derive
 * The six robustness tasks of ZhuJiu (Zhang et al., 2023, §2.3.7) as datasets derived from the items of a prepared
 * base dataset, with no new data (docs/scoring.md §2.7): a seeded sample of the base items, each perturbed with its
 * own Rng seeded by (seed, task, base key), so the same seed, base items and package versions give the same derived
 * items. Every derived item records its task, the derivation version, the seed, the base dataset and the base
 * item's key in `metadata.robustness`; its key is the base key with `@r<version>`. Items are scored by the base
 * dataset's scorer (Format Output: compliance × correctness; Unique Solution: the lowest score over the rounds).
 */

import {
  type Ability,
  type Method,
  ROBUSTNESS_TASKS,
  type RobustnessTask,
} from '../../config/schema.ts';
import { createRng, type Rng } from '../../core/rng.ts';
import type { ChatMessage } from '../../llm/types.ts';
import { seededSample } from '../datasets/sample.ts';
import type { EvalItem, ItemScore, MultiRequest, PreparedDataset } from '../types.ts';
import { converter } from './chinese.ts';
import { applyNoise } from './error-message.ts';
import {
  FORMAT_INSTRUCTIONS,
  OUTPUT_FORMATS,
  type OutputFormat,
  readFormatted,
} from './format-output.ts';
import {
  insertDistractors,
  pickDialogue,
  UNRELATED_DIALOGUES,
  withPriorDialogue,
} from './redundant.ts';
import { editableText } from './text.ts';

/** The six tasks, in the paper's order (config/schema: `task:` of a robustness dataset). */
export { ROBUSTNESS_TASKS, type RobustnessTask };

/** Version of the derivation (bump on any change of a perturbation or its tables: keys and cache keys change). */
export const ROBUSTNESS_VERSION = 1;

/** Unique Solution: the follow-ups that press the question again (the paper's "你确定吗？", "请再想一想"). */
export const UNIQUE_SOLUTION_FOLLOW_UPS: readonly string[] = [
  '你确定吗？请按原来的要求重新作答。',
  '请再想一想，然后按原来的要求给出你的最终答案。',
];

/** What a derived dataset is: its name, task, sample and seed, and the ability / method it counts under. */
export interface RobustnessSpec {
  readonly name: string;
  readonly task: RobustnessTask;
  /** Base items to derive from (a seeded sample of the base's items); absent: all of them. */
  readonly sample?: number | undefined;
  readonly seed: number;
  readonly ability: Ability;
  readonly method: Method;
}

/** `metadata.robustness` of a derived item. */
export interface RobustnessMeta {
  readonly task: RobustnessTask;
  readonly version: number;
  readonly seed: number;
  readonly base_dataset: string;
  readonly base_key: string;
  /** What the perturbation did (the edits, the inserted sentences, the dialogue, the format, the region). */
  readonly change: Readonly<Record<string, unknown>>;
}

/** FNV-1a over the UTF-16 code units of `s`: a 32-bit seed. */
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** The Rng of one derived item: seeded by the spec's seed, the task and the base item's key only. */
export function itemRng(seed: number, task: RobustnessTask, baseKey: string): Rng {
  return createRng(hash32(`${seed}\u0000${task}\u0000${baseKey}`));
}

/** The derived prompt and what changed, for one base item. Pure given the Rng. */
function perturb(
  task: RobustnessTask,
  base: EvalItem,
  rng: Rng,
): { prompt: string; change: Record<string, unknown> } {
  switch (task) {
    case 'error_message': {
      const { text, edits } = applyNoise(editableText(base.prompt, base.reference), rng);
      return { prompt: text, change: { edits } };
    }
    case 'redundant_information': {
      const { text, inserted } = insertDistractors(editableText(base.prompt, base.reference), rng);
      return { prompt: text, change: { inserted } };
    }
    case 'redundant_dialogue':
      return { prompt: base.prompt, change: { dialogue: pickDialogue(rng).index } };
    case 'format_output': {
      const format = OUTPUT_FORMATS[rng.int(OUTPUT_FORMATS.length)] as OutputFormat;
      return { prompt: `${base.prompt}\n${FORMAT_INSTRUCTIONS[format]}`, change: { format } };
    }
    case 'dialect': {
      const region = rng.int(2) === 0 ? 'tw' : 'hk';
      const to = region === 'tw' ? 'twp' : 'hkp';
      return { prompt: converter('cn', to)(base.prompt), change: { region, opencc: `cn→${to}` } };
    }
    case 'unique_solution':
      return { prompt: base.prompt, change: { follow_ups: UNIQUE_SOLUTION_FOLLOW_UPS.length } };
  }
}

/** The key of the item derived from base key `baseKey`. */
export function derivedKey(baseKey: string): string {
  return `${baseKey}@r${ROBUSTNESS_VERSION}`;
}

/**
 * The items of `spec` derived from `base`'s items (a seeded sample of `spec.sample`, in the base's order). Each
 * keeps the base's reference and metadata, with `robustness` ({@link RobustnessMeta}) added. Pure and
 * deterministic.
 */
export function deriveItems(spec: RobustnessSpec, base: PreparedDataset): EvalItem[] {
  const { chosen } = seededSample(base.items.length, spec.sample ?? base.items.length, spec.seed);
  return chosen.map((i) => {
    const b = base.items[i] as EvalItem;
    const { prompt, change } = perturb(spec.task, b, itemRng(spec.seed, spec.task, b.key));
    const robustness: RobustnessMeta = {
      task: spec.task,
      version: ROBUSTNESS_VERSION,
      seed: spec.seed,
      base_dataset: base.name,
      base_key: b.key,
      change,
    };
    return {
      key: derivedKey(b.key),
      prompt,
      reference: b.reference,
      metadata: { ...b.metadata, robustness },
    };
  });
}

/** The robustness metadata of a derived item. */
export function robustnessOf(item: EvalItem): RobustnessMeta {
  const m = item.metadata.robustness as RobustnessMeta | undefined;
  if (!m)
    throw new Error(`item ${item.key} is not a derived robustness item (no metadata.robustness)`);
  return m;
}

/** The last user message of `messages` with `suffix` appended (a new line between). */
function appendToLastUser(messages: readonly ChatMessage[], suffix: string): ChatMessage[] {
  const out = [...messages];
  const last = out[out.length - 1] as ChatMessage;
  out[out.length - 1] = { role: last.role, content: `${last.content}\n${suffix}` };
  return out;
}

/** Format Output's score: 0 when the reply breaks the stated format, else the base score of the answer it states. */
function formatScore(
  base: PreparedDataset,
  b: EvalItem,
  format: OutputFormat,
  output: string,
): ItemScore {
  const read = readFormatted(format, output);
  const s = read.ok ? base.score(b, read.answer) : undefined;
  return {
    raw: s ? s.raw : 0,
    max: s ? s.max : 1,
    metric: 'format_output',
    profile: base.profile,
    detail: {
      format,
      compliant: read.ok,
      answer: read.ok ? read.answer : null,
      correct: s ? s.raw / s.max : null,
      ...(s?.detail ? { base: s.detail } : {}),
    },
  };
}

/** Unique Solution's score: the lowest base score over the rounds (a changed or wrong answer in any round loses). */
function uniqueScore(base: PreparedDataset, b: EvalItem, outputs: readonly string[]): ItemScore {
  const rounds = outputs.map((o) => base.score(b, o));
  const first = rounds[0] as ItemScore;
  const worst = Math.min(...rounds.map((r) => r.raw / r.max));
  return {
    raw: worst * first.max,
    max: first.max,
    metric: 'unique_solution',
    profile: base.profile,
    detail: {
      rounds: rounds.map((r) => r.raw / r.max),
      changed: rounds.some((r) => r.raw / r.max !== first.raw / first.max),
      base: rounds.map((r) => r.detail ?? null),
    },
  };
}

/** The base item a derived item was made from (the base's reference and metadata, the base's prompt). */
function baseItemOf(baseByKey: ReadonlyMap<string, EvalItem>, item: EvalItem): EvalItem {
  const key = robustnessOf(item).base_key;
  const b = baseByKey.get(key);
  if (!b)
    throw new Error(`base item ${key} of derived item ${item.key} is not in the base dataset`);
  return b;
}

/** The messages, scorer and requests of a task over `base` (see {@link robustnessDataset}). */
function taskParts(
  task: RobustnessTask,
  base: PreparedDataset,
  baseByKey: ReadonlyMap<string, EvalItem>,
): Pick<PreparedDataset, 'messages' | 'score' | 'requests' | 'scoreAnswers'> {
  const of = (item: EvalItem) => baseItemOf(baseByKey, item);
  const change = (item: EvalItem) => robustnessOf(item).change;
  switch (task) {
    case 'error_message':
    case 'redundant_information':
      // The loader's template around the perturbed prompt; the base's scorer.
      return {
        messages: (item) => base.messages(item),
        score: (item, out) => base.score(of(item), out),
      };
    case 'dialect':
      // Scored after converting the reply back to simplified mainland text (a span quoted from the regional
      // passage then matches the base's simplified reference).
      return {
        messages: (item) => base.messages(item),
        score: (item, out) => {
          const from = change(item).region === 'tw' ? 'twp' : 'hkp';
          return base.score(of(item), converter(from, 'cn')(out));
        },
      };
    case 'redundant_dialogue':
      return {
        messages: (item) =>
          withPriorDialogue(
            base.messages(of(item)),
            UNRELATED_DIALOGUES[change(item).dialogue as number] as readonly ChatMessage[],
          ),
        score: (item, out) => base.score(of(item), out),
      };
    case 'format_output':
      return {
        messages: (item) =>
          appendToLastUser(
            base.messages(of(item)),
            FORMAT_INSTRUCTIONS[change(item).format as OutputFormat],
          ),
        score: (item, out) => formatScore(base, of(item), change(item).format as OutputFormat, out),
      };
    case 'unique_solution': {
      const multi: MultiRequest = { kind: 'follow_up', followUps: UNIQUE_SOLUTION_FOLLOW_UPS };
      return {
        messages: (item) => base.messages(of(item)),
        score: (item, out) => uniqueScore(base, of(item), [out]),
        requests: () => multi,
        scoreAnswers: (item, outs) => uniqueScore(base, of(item), outs),
      };
    }
  }
}

/**
 * The derived dataset `spec` over the prepared base dataset `base` (its items, prompt template, shots and scorer):
 * {@link deriveItems}, with the task's messages and scorer. The template version is the base's plus
 * `+<task>-r<version>` (so cached answers to the clean prompts are never reused). Pure.
 * @throws Error for a judged base (`spec.method` scoring) with format_output or unique_solution, whose scores need
 *   the base's metric.
 */
export function robustnessDataset(spec: RobustnessSpec, base: PreparedDataset): PreparedDataset {
  if (
    spec.method === 'scoring' &&
    (spec.task === 'format_output' || spec.task === 'unique_solution')
  )
    throw new Error(
      `${spec.name}: task ${spec.task} is scored by the base dataset's metric; a judged (method: scoring) base is not supported for it`,
    );
  const items = deriveItems(spec, base);
  const baseByKey = new Map(base.items.map((b) => [b.key, b]));
  const p = base.provenance;
  return {
    name: spec.name,
    ability: spec.ability,
    method: spec.method,
    metric:
      spec.task === 'format_output' || spec.task === 'unique_solution' ? spec.task : base.metric,
    profile: base.profile,
    templateVersion: `${base.templateVersion}+${spec.task}-r${ROBUSTNESS_VERSION}`,
    items,
    ...taskParts(spec.task, base, baseByKey),
    provenance: {
      loader: 'robustness',
      source: `ZhuJiu robustness (Zhang et al., 2023, §2.3.7), task ${spec.task} r${ROBUSTNESS_VERSION}, derived from ${base.name}${p ? ` (${p.source})` : ''}`,
      files: p?.files ?? [],
      rows: base.items.length,
      excluded: 0,
      ...(spec.sample !== undefined ? { sample: spec.sample } : {}),
      seed: spec.seed,
      shots: p?.shots ?? 0,
      derived: { task: spec.task, version: ROBUSTNESS_VERSION, base: base.name },
    },
  };
}

/** The default specs of the six tasks over one base each (the shipped config/suites/zhujiu-robustness.yaml). */
export interface RobustnessBuild {
  readonly spec: RobustnessSpec;
  /** The name of the base dataset in `bases`. */
  readonly base: string;
}

/**
 * Builds every derived dataset of `builds` from the prepared base datasets (`bases`, by name), in order: the pure
 * function behind a `zhujiu datasets build`-style command and the bench (bench/robustness-build.ts).
 * @throws Error naming the spec whose base is not in `bases`.
 */
export function buildRobustnessSets(
  builds: readonly RobustnessBuild[],
  bases: ReadonlyMap<string, PreparedDataset>,
): PreparedDataset[] {
  return builds.map((b) => {
    const base = bases.get(b.base);
    if (!base)
      throw new Error(
        `${b.spec.name}: base dataset "${b.base}" is not among the prepared bases (${[...bases.keys()].join(', ') || 'none'})`,
      );
    return robustnessDataset(b.spec, base);
  });
}
