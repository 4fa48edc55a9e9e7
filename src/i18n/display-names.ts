/**
 * @module i18n/display-names
 * The display names of the abilities and of the evaluation methods in each language (the catalogue's `ability.*`
 * and `method.*` keys: i18n/en.ts and zh-CN.ts take them from here), and the one reader of a name a user typed
 * for them: the id itself (`knowledge`) or its display name in either language (`知识`, `对比评估`), wherever one
 * is asked for (the command line's `--ability`, `zhujiu leaderboard --view ability`, chat's `/ask`, `/arena`,
 * `/leaderboard`), with the "did you mean" of a misspelling.
 *
 * Light (no catalogue, no package): the command line's parser of `--ability` uses it while `zhujiu --help` loads
 * only the command line's texts (src/cli/index.ts).
 */
import { didYouMeanChoice } from '../text/edit-distance.ts';
import type { Locale } from './index.ts';

/** The English display names, by catalogue key (the ZhuJiu paper's terms are the ids). */
export const DISPLAY_NAMES_EN = {
  'method.metrics': 'metrics',
  'method.scoring': 'scoring',
  'method.comparative': 'comparative',
  'ability.knowledge': 'knowledge',
  'ability.chinese_specific': 'chinese_specific',
  'ability.language': 'language',
  'ability.reasoning': 'reasoning',
  'ability.refusal': 'refusal',
  'ability.safety': 'safety',
  'ability.robustness': 'robustness',
} as const;

/** A catalogue key of a display name. */
export type DisplayNameKey = keyof typeof DISPLAY_NAMES_EN;

/**
 * The Simplified Chinese display names, by catalogue key: the ZhuJiu paper's Chinese terms (指标评估, 打分评估,
 * 对比评估; 知识能力 …).
 */
export const DISPLAY_NAMES_ZH: Readonly<Record<DisplayNameKey, string>> = {
  'method.metrics': '指标评估',
  'method.scoring': '打分评估',
  'method.comparative': '对比评估',
  'ability.knowledge': '知识',
  'ability.chinese_specific': '中文特定',
  'ability.language': '语言',
  'ability.reasoning': '推理',
  'ability.refusal': '拒答',
  'ability.safety': '安全',
  'ability.robustness': '鲁棒性',
};

/** What a display name names: an ability dimension or an evaluation method. */
export type NameKind = 'ability' | 'method';

const NAMES: Readonly<Record<Locale, Readonly<Record<DisplayNameKey, string>>>> = {
  en: DISPLAY_NAMES_EN,
  'zh-CN': DISPLAY_NAMES_ZH,
};

/** The display name of `id` (an ability or a method of `kind`) in `locale`; the id itself when it has none. */
export function displayName(kind: NameKind, id: string, locale: Locale): string {
  return (NAMES[locale] as Readonly<Record<string, string>>)[`${kind}.${id}`] ?? id;
}

/**
 * The id of `ids` that `typed` stands for: the id itself or its English display name, case-insensitive, or its
 * Chinese display name, exactly; surrounding spaces are ignored. Undefined when it is none of them (an empty
 * `typed` included).
 * @param ids the ids a `kind` may take (config/abilities.ts `ABILITIES`, aggregate `BOARD_METHODS`).
 */
export function idOfName<T extends string>(
  typed: string,
  ids: readonly T[],
  kind: NameKind,
): T | undefined {
  const raw = typed.trim();
  const x = raw.toLowerCase();
  if (x === '') return undefined;
  return ids.find(
    (id) =>
      id.toLowerCase() === x ||
      displayName(kind, id, 'en').toLowerCase() === x ||
      displayName(kind, id, 'zh-CN') === raw,
  );
}

/**
 * What to suggest for `typed` when it looks like a misspelling (text/edit-distance.ts `didYouMean`) of one of
 * `ids` or of their display names in either language: the display name in `locale` when the closest is a name in
 * `locale`'s language, else the id (a Chinese name misspelt in English output is suggested as its id, which every
 * language takes). Undefined when nothing is that close, or `typed` already names one (see {@link idOfName}).
 */
export function meantId(
  typed: string,
  ids: readonly string[],
  kind: NameKind,
  locale: Locale,
): string | undefined {
  const raw = typed.trim();
  if (raw === '' || idOfName(raw, ids, kind) !== undefined) return undefined;
  // Each form a user may type, and the form suggested for it in `locale`.
  const shown = new Map<string, string>();
  for (const id of ids) {
    shown.set(id, id);
    for (const lang of ['en', 'zh-CN'] as const) {
      const name = displayName(kind, id, lang);
      if (!shown.has(name)) shown.set(name, lang === locale ? name : id);
    }
  }
  const close = didYouMeanChoice(raw, [...shown.keys()]);
  return close === undefined ? undefined : shown.get(close);
}

/** The ids of each kind, in the catalogue's order (config/abilities.ts `ABILITIES`; the board's methods). */
const IDS_OF: Readonly<Record<NameKind, readonly string[]>> = {
  ability: Object.keys(DISPLAY_NAMES_EN)
    .filter((k) => k.startsWith('ability.'))
    .map((k) => k.slice('ability.'.length)),
  method: Object.keys(DISPLAY_NAMES_EN)
    .filter((k) => k.startsWith('method.'))
    .map((k) => k.slice('method.'.length)),
};

/**
 * The kind whose ids `choices` are, every one of them and nothing else (the abilities of `--ability`, the methods of
 * a suite's `method:`), or undefined for any other list.
 */
export function kindOfChoices(choices: readonly string[]): NameKind | undefined {
  return (['ability', 'method'] as const).find(
    (kind) =>
      choices.length === IDS_OF[kind].length && IDS_OF[kind].every((id) => choices.includes(id)),
  );
}

/**
 * What to suggest for `typed`, refused by the fixed list `choices`: for the abilities or the methods
 * ({@link kindOfChoices}), {@link meantId} (an id or a display name in either language, suggested in `locale`);
 * for any other list, the misspelt or shortened value (text/edit-distance.ts `didYouMeanChoice`). Undefined when
 * nothing is close.
 */
export function meantChoice(
  typed: string,
  choices: readonly string[],
  locale: Locale,
): string | undefined {
  const kind = kindOfChoices(choices);
  return kind ? meantId(typed, choices, kind, locale) : didYouMeanChoice(typed, choices);
}

/**
 * `choices` as a refusal lists them in `locale`: the display names of the abilities or methods
 * ({@link kindOfChoices}: `知识`, `推理` … in Chinese, the ids in English), any other list as it is.
 */
export function choiceNames(choices: readonly string[], locale: Locale): string[] {
  const kind = kindOfChoices(choices);
  return kind ? choices.map((id) => displayName(kind, id, locale)) : [...choices];
}
