/**
 * @module eval/datasets/knowledge/build
 * Builds ZhuJiu's knowledge sets (Zhang et al., "ZhuJiu", 2023, §2.3.1 and App. B) from the facts of installed
 * npm data packages (`facts.ts`): the four perspectives world, commonsense, linguistic knowledge and concept, with
 * the properties the paper gives each (world: accuracy, robustness, completeness, timeliness; the others: accuracy,
 * robustness), {@link ITEMS_PER_SET} items per set, as JSONL rows ({@link KnowledgeRow}). Deterministic: the same
 * package versions give the same bytes (seeded draws, sorted pools, fixed key order). docs/scoring.md §2.8.
 */
import { AppError } from '../../../core/errors.ts';
import { type SourcePackage, sourcePackage } from '../build/packages.ts';
import {
  calendarFacts,
  characterFacts,
  countryFacts,
  type Fact,
  shuffled,
  timelyFacts,
} from './facts.ts';
import { allPhrasings, KNOWLEDGE_TEMPLATE_VERSION, question } from './templates.ts';

/** Items per perspective and property, as ZhuJiu builds them. */
export const ITEMS_PER_SET = 100;

/** The four perspectives. */
export const PERSPECTIVES = ['world', 'commonsense', 'linguistic', 'concept'] as const;
/** The four properties. */
export const PROPERTIES = ['accuracy', 'robustness', 'completeness', 'timeliness'] as const;
/** One perspective. */
export type Perspective = (typeof PERSPECTIVES)[number];
/** One property. */
export type Property = (typeof PROPERTIES)[number];

/** One line of a built knowledge file. */
export interface KnowledgeRow {
  /** `<perspective>_<property>/<nnn>`, stable for the same package versions. */
  readonly id: string;
  readonly perspective: Perspective;
  readonly property: Property;
  readonly relation: string;
  /** The question asked (robustness: its first phrasing). */
  readonly question: string;
  /** Robustness: the five phrasings of the fact, each asked in its own conversation. */
  readonly variants?: readonly string[];
  /** Accepted answers (exact match after normalisation); empty for completeness. */
  readonly answers: readonly string[];
  /** Completeness: the required elements, each with its accepted names. */
  readonly elements?: readonly (readonly string[])[];
  /** The reference answer as text (what the judge is shown). */
  readonly reference: string;
  /** Timeliness: the ISO date the fact is about. */
  readonly as_of?: string;
  /** The fact's id (relation and entity), shared by items that ask the same fact. */
  readonly fact: string;
  /** The question wording's version. */
  readonly template: string;
  /** The npm packages the fact was read from, with installed version and licence. */
  readonly provenance: readonly SourcePackage[];
}

/** One built set. */
export interface KnowledgeSet {
  /** `<perspective>_<property>`; the file is `knowledge/<name>.jsonl`. */
  readonly name: string;
  readonly rows: readonly KnowledgeRow[];
}

/**
 * `count` facts drawn round-robin from the pools (each in seeded order, or as given when `seed` is null), facts
 * in `avoid` taken only after the others.
 * @throws AppError `internal` when the pools hold fewer than `count` facts.
 */
export function drawFacts(
  set: string,
  pools: readonly (readonly Fact[])[],
  count: number,
  seed: number | null,
  avoid: ReadonlySet<string> = new Set(),
): Fact[] {
  const queues = pools.map((p, i) => {
    const order = seed === null ? [...p] : shuffled(p, seed + i);
    return [...order.filter((f) => !avoid.has(f.key)), ...order.filter((f) => avoid.has(f.key))];
  });
  const total = queues.reduce((s, q) => s + q.length, 0);
  if (total < count)
    throw new AppError('internal', `${set}: only ${total} facts for ${count} items`);
  const out: Fact[] = [];
  for (let round = 0; out.length < count; round++)
    for (const q of queues) if (out.length < count && round < q.length) out.push(q[round] as Fact);
  return out;
}

function row(
  set: { perspective: Perspective; property: Property },
  index: number,
  f: Fact,
  packages: ReadonlyMap<string, SourcePackage>,
): KnowledgeRow {
  const name = `${set.perspective}_${set.property}`;
  const variants = set.property === 'robustness' ? allPhrasings(f.relation, f.slots) : undefined;
  const reference =
    f.elements !== undefined ? f.elements.map((e) => e[0]).join('、') : (f.answers[0] as string);
  return {
    id: `${name}/${String(index + 1).padStart(3, '0')}`,
    perspective: set.perspective,
    property: set.property,
    relation: f.relation,
    question: variants?.[0] ?? question(f.relation, index % 5, f.slots),
    ...(variants !== undefined ? { variants } : {}),
    answers: f.answers,
    ...(f.elements !== undefined ? { elements: f.elements } : {}),
    reference,
    ...(f.asOf !== undefined ? { as_of: f.asOf } : {}),
    fact: f.key,
    template: KNOWLEDGE_TEMPLATE_VERSION,
    provenance: f.sources.map((s) => packages.get(s) as SourcePackage),
  };
}

/** Facts of the concept set: a term and the category it belongs to. */
function conceptPools(
  cal: ReturnType<typeof calendarFacts>,
  countries: readonly { code: string; name: string }[],
): Fact[][] {
  const classes = '天干、地支、生肖、节气、传统节日、国家或地区';
  const pool = (category: string, terms: readonly string[], sources: string[]): Fact[] =>
    terms.map((term) => ({
      key: `term_category:${category}:${term}`,
      relation: 'term_category',
      slots: { term, classes },
      answers: category === '国家或地区' ? [category, '国家', '地区'] : [category],
      sources,
    }));
  return [
    pool('天干', cal.stems, ['chinese-days']),
    pool('地支', cal.branches, ['chinese-days']),
    pool('生肖', cal.animals, ['chinese-days']),
    pool('节气', cal.terms, ['chinese-days']),
    pool('传统节日', cal.festivals, ['chinese-days']),
    pool(
      '国家或地区',
      countries.map((c) => c.name),
      ['i18n-iso-countries', 'countries-list'],
    ),
  ];
}

/** The pools of each set (accuracy and robustness share them) and whether the draw is seeded. */
function setPools(): { name: string; pools: Fact[][]; seed: number | null }[] {
  const c = countryFacts();
  const t = timelyFacts();
  const cal = calendarFacts();
  const ch = characterFacts();
  const world = [c.continent, c.currency, c.callingCode, c.capital, c.codeCountry];
  const common = [cal.zodiac, cal.ganzhi, cal.nextTerm, cal.previousTerm, cal.festival];
  const ling = [ch.pinyin, ch.strokes, ch.tone];
  const concept = conceptPools(cal, c.names);
  return [
    { name: 'world_accuracy', pools: world, seed: 101 },
    { name: 'world_robustness', pools: world, seed: 102 },
    { name: 'world_completeness', pools: [c.borders], seed: 103 },
    // Timeliness asks the newest facts first (the latest year's holidays and terms), unshuffled.
    { name: 'world_timeliness', pools: [t.start, t.length, t.termDate], seed: null },
    { name: 'commonsense_accuracy', pools: common, seed: 201 },
    { name: 'commonsense_robustness', pools: common, seed: 202 },
    { name: 'linguistic_accuracy', pools: ling, seed: 301 },
    { name: 'linguistic_robustness', pools: ling, seed: 302 },
    { name: 'concept_accuracy', pools: concept, seed: 401 },
    { name: 'concept_robustness', pools: concept, seed: 402 },
  ];
}

/** The data packages the knowledge sets are built from. */
export const KNOWLEDGE_PACKAGES = [
  'chinese-days',
  'cnchar',
  'countries-list',
  'i18n-iso-countries',
  'world-countries',
] as const;

/**
 * Builds the ten knowledge sets from the installed packages. A robustness set prefers facts its accuracy set does
 * not ask.
 * @throws AppError `config_invalid` when a data package is missing; `internal` when a pool is too small.
 */
export function buildKnowledgeSets(): { sets: KnowledgeSet[]; packages: SourcePackage[] } {
  const packages = new Map(KNOWLEDGE_PACKAGES.map((p) => [p as string, sourcePackage(p)]));
  const used = new Map<string, Set<string>>();
  const sets: KnowledgeSet[] = [];
  for (const s of setPools()) {
    const [perspective, property] = s.name.split('_') as [Perspective, Property];
    const avoid = property === 'robustness' ? used.get(perspective) : undefined;
    const facts = drawFacts(s.name, s.pools, ITEMS_PER_SET, s.seed, avoid);
    if (property === 'accuracy') used.set(perspective, new Set(facts.map((f) => f.key)));
    sets.push({
      name: s.name,
      rows: facts.map((f, i) => row({ perspective, property }, i, f, packages)),
    });
  }
  return { sets, packages: [...packages.values()] };
}
