/**
 * @module eval/datasets/knowledge/facts
 * The facts of the constructed knowledge sets, read from installed npm data packages (docs/scoring.md §2.8):
 *
 * - countries (`countries-list`, MIT: continent, currency, calling code, capital; `i18n-iso-countries`, MIT: the
 *   Chinese names; `world-countries`, ODbL-1.0: land borders and the region that confirms the continent);
 * - the Chinese calendar (`chinese-days`, MIT: public-holiday arrangements by year, solar-term dates, the lunar
 *   year's zodiac and stem-branch, lunar festivals);
 * - characters (`cnchar`, MIT: pinyin and stroke counts).
 *
 * Each fact lists the packages it came from; the order of every pool is fixed by the data (sorted keys), never by
 * the machine. Packages are loaded only here, when a build runs.
 */
import { AppError } from '../../../core/errors.ts';
import { createRng } from '../../../core/rng.ts';
import { loadPackage } from '../build/packages.ts';
import { dateForms, numberForms, pinyinForms, toneForms, toneOf } from './forms.ts';
import type { Relation } from './templates.ts';

/** One fact: what is asked (relation and slots) and what counts as right. */
export interface Fact {
  /** Stable id within its relation, e.g. `country_continent:JP`. */
  readonly key: string;
  readonly relation: Relation;
  readonly slots: Readonly<Record<string, string>>;
  /** Accepted answers; the first is the reference form. Empty for a completeness fact. */
  readonly answers: readonly string[];
  /** Completeness facts: the required elements, each with its accepted names (the first is shown). */
  readonly elements?: readonly (readonly string[])[];
  /** Timeliness facts: the date the fact is about (ISO), which the question names. */
  readonly asOf?: string;
  /** The npm packages the fact was read from. */
  readonly sources: readonly string[];
}

interface ListedCountry {
  readonly continent: string;
  readonly capital: string;
  readonly currency: readonly string[];
  readonly phone: readonly number[];
}
interface WorldCountry {
  readonly cca2: string;
  readonly cca3: string;
  readonly region: string;
  readonly borders: readonly string[];
}
interface IsoCountries {
  registerLocale(locale: unknown): void;
  getName(code: string, lang: string, o?: { select: 'all' }): string | string[] | undefined;
  getNames(lang: string): Record<string, string>;
  alpha3ToAlpha2(code: string): string | undefined;
}

/** Continents of countries-list in Chinese (the answers) and the world-countries region each must agree with. */
const CONTINENTS: Readonly<Record<string, { zh: readonly string[]; region: string }>> = {
  AS: { zh: ['亚洲'], region: 'Asia' },
  EU: { zh: ['欧洲'], region: 'Europe' },
  AF: { zh: ['非洲'], region: 'Africa' },
  NA: { zh: ['北美洲', '北美'], region: 'Americas' },
  SA: { zh: ['南美洲', '南美'], region: 'Americas' },
  OC: { zh: ['大洋洲'], region: 'Oceania' },
};

/** The country facts, by relation. */
export interface CountryFacts {
  readonly continent: Fact[];
  readonly currency: Fact[];
  readonly callingCode: Fact[];
  readonly capital: Fact[];
  readonly codeCountry: Fact[];
  readonly borders: Fact[];
  /** Chinese names of the countries and regions, for the concept set. */
  readonly names: { code: string; name: string }[];
}

const CL = 'countries-list';
const ISO = 'i18n-iso-countries';
const WC = 'world-countries';

function isoCountries(): IsoCountries {
  const iso = loadPackage(ISO) as IsoCountries;
  iso.registerLocale(loadPackage(`${ISO}/langs/zh.json`));
  return iso;
}

function zhNames(iso: IsoCountries, code: string): string[] {
  const all = iso.getName(code, 'zh', { select: 'all' });
  return (Array.isArray(all) ? all : all === undefined ? [] : [all]).filter((n) => n !== '');
}

/** Reads the country facts (see the module comment). */
export function countryFacts(): CountryFacts {
  const listed = (loadPackage(CL) as { countries: Record<string, ListedCountry> }).countries;
  const world = loadPackage(WC) as readonly WorldCountry[];
  const iso = isoCountries();
  const region = new Map(world.map((w) => [w.cca2, w.region]));
  const out: CountryFacts = {
    continent: [],
    currency: [],
    callingCode: [],
    capital: [],
    codeCountry: [],
    borders: [],
    names: [],
  };
  for (const code of Object.keys(listed).sort()) {
    const c = listed[code] as ListedCountry;
    const names = zhNames(iso, code);
    const name = names[0];
    if (name === undefined) continue;
    out.names.push({ code, name });
    const slots = { country: name };
    const fact = (relation: Relation, answers: string[], sources: string[]): Fact => ({
      key: `${relation}:${code}`,
      relation,
      slots,
      answers,
      sources,
    });
    const cont = CONTINENTS[c.continent];
    if (cont && region.get(code) === cont.region)
      out.continent.push(fact('country_continent', [...cont.zh], [CL, ISO, WC]));
    if (c.currency.length === 1)
      out.currency.push(fact('country_currency', [c.currency[0] as string], [CL, ISO]));
    if (c.phone.length === 1) {
      const p = String(c.phone[0]);
      out.callingCode.push(fact('country_calling_code', [p, `+${p}`, `00${p}`], [CL, ISO]));
    }
    if (c.capital !== '' && !c.capital.includes(','))
      out.capital.push(fact('country_capital', [c.capital], [CL, ISO]));
    out.codeCountry.push({
      key: `code_country:${code}`,
      relation: 'code_country',
      slots: { code },
      answers: names,
      sources: [CL, ISO],
    });
  }
  out.borders.push(...borderFacts(world, iso));
  return out;
}

/** Countries with 2–8 land neighbours, every neighbour with a Chinese name. */
function borderFacts(world: readonly WorldCountry[], iso: IsoCountries): Fact[] {
  const out: Fact[] = [];
  for (const w of [...world].sort((a, b) => (a.cca2 < b.cca2 ? -1 : 1))) {
    const name = zhNames(iso, w.cca2)[0];
    if (name === undefined || w.borders.length < 2 || w.borders.length > 8) continue;
    const elements = w.borders.map((b) => zhNames(iso, iso.alpha3ToAlpha2(b) ?? ''));
    if (elements.some((e) => e.length === 0)) continue;
    elements.sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1));
    out.push({
      key: `country_borders:${w.cca2}`,
      relation: 'country_borders',
      slots: { country: name },
      answers: [],
      elements,
      sources: [WC, ISO],
    });
  }
  return out;
}

interface LunarDetail {
  readonly zodiac: string;
  readonly yearCyl: string;
  readonly lunarMonCN: string;
  readonly lunarDayCN: string;
}
interface ChineseDays {
  getLunarDate(date: string): LunarDetail;
  getSolarTerms(start: string, end: string): { date: string; name: string }[];
  getLunarFestivals(start: string, end: string): { date: string; name: string[] }[];
}

const CD = 'chinese-days';

function chineseDays(): ChineseDays {
  return loadPackage(CD) as ChineseDays;
}

/** The State Council's holiday names in chinese-days, as the questions name them (the 2015 one-off left out). */
const HOLIDAY_NAMES: Readonly<Record<string, string>> = {
  元旦: '元旦',
  春节: '春节',
  清明: '清明节',
  劳动节: '劳动节',
  端午: '端午节',
  中秋: '中秋节',
  国庆节: '国庆节',
};

/** One holiday of one year: its consecutive days off. */
interface HolidayBlock {
  readonly name: string;
  readonly year: number;
  readonly days: string[];
}

function holidayBlocks(): HolidayBlock[] {
  const data = loadPackage(`${CD}/dist/chinese-days.json`) as { holidays: Record<string, string> };
  const blocks: HolidayBlock[] = [];
  let last: { block: HolidayBlock; day: string } | undefined;
  for (const day of Object.keys(data.holidays).sort()) {
    const name = HOLIDAY_NAMES[(data.holidays[day] as string).split(',')[1] ?? ''];
    if (name === undefined) continue;
    const next = last && nextDay(last.day) === day && last.block.name === name;
    if (next && last) last.block.days.push(day);
    else blocks.push({ name, year: 0, days: [day] });
    last = { block: blocks.at(-1) as HolidayBlock, day };
  }
  // A block belongs to the year of its last day (the 元旦 holiday of 2023 began on 2022-12-31).
  return blocks.map((b) => ({ ...b, year: Number((b.days.at(-1) as string).slice(0, 4)) }));
}

function nextDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The timeliness facts, newest first: holiday start and length by year, solar-term dates of those years. */
export function timelyFacts(): { start: Fact[]; length: Fact[]; termDate: Fact[] } {
  const cd = chineseDays();
  const blocks = holidayBlocks().sort((a, b) =>
    (a.days[0] as string) > (b.days[0] as string) ? -1 : 1,
  );
  const start: Fact[] = [];
  const length: Fact[] = [];
  for (const b of blocks) {
    const slots = { year: String(b.year), holiday: b.name };
    const first = b.days[0] as string;
    const key = `${b.year}:${b.name}`;
    start.push({
      key: `holiday_start:${key}`,
      relation: 'holiday_start',
      slots,
      answers: dateForms(first),
      asOf: first,
      sources: [CD],
    });
    length.push({
      key: `holiday_length:${key}`,
      relation: 'holiday_length',
      slots,
      answers: numberForms(b.days.length, '天'),
      asOf: first,
      sources: [CD],
    });
  }
  const years = [...new Set(blocks.map((b) => b.year))].sort((a, b) => b - a);
  const termDate: Fact[] = [];
  for (const y of years) {
    const terms = cd.getSolarTerms(`${y}-01-01`, `${y}-12-31`).reverse();
    for (const t of terms)
      termDate.push({
        key: `solar_term_date:${t.date}`,
        relation: 'solar_term_date',
        slots: { year: String(y), term: t.name },
        answers: dateForms(t.date),
        asOf: t.date,
        sources: [CD],
      });
  }
  return { start, length, termDate };
}

/** Major lunar festivals asked about (names as chinese-days gives them). */
const FESTIVALS = [
  '春节',
  '元宵节',
  '端午节',
  '乞巧节',
  '中元(鬼)节',
  '中秋节',
  '重阳节',
  '腊八节',
  '下元节',
];

/** The calendar facts of the commonsense set, and the terms of the concept set. */
export interface CalendarFacts {
  readonly zodiac: Fact[];
  readonly ganzhi: Fact[];
  readonly nextTerm: Fact[];
  readonly previousTerm: Fact[];
  readonly festival: Fact[];
  /** Solar terms in order from 小寒, stems, branches, zodiac animals and festivals (concept set). */
  readonly terms: readonly string[];
  readonly stems: readonly string[];
  readonly branches: readonly string[];
  readonly animals: readonly string[];
  readonly festivals: readonly string[];
}

function cyclicFacts(
  cd: ChineseDays,
): Pick<CalendarFacts, 'zodiac' | 'ganzhi' | 'stems' | 'branches' | 'animals'> {
  const zodiac: Fact[] = [];
  const ganzhi: Fact[] = [];
  for (let y = 1950; y <= 2049; y++) {
    const l = cd.getLunarDate(`${y}-07-01`);
    const slots = { year: String(y) };
    zodiac.push({
      key: `year_zodiac:${y}`,
      relation: 'year_zodiac',
      slots,
      answers: [l.zodiac, `${l.zodiac}年`, `属${l.zodiac}`],
      sources: [CD],
    });
    ganzhi.push({
      key: `year_ganzhi:${y}`,
      relation: 'year_ganzhi',
      slots,
      answers: [l.yearCyl, `${l.yearCyl}年`],
      sources: [CD],
    });
  }
  const cycle = (f: (l: LunarDetail) => string, n: number) =>
    Array.from({ length: n }, (_, i) => f(cd.getLunarDate(`${1984 + i}-07-01`)));
  return {
    zodiac,
    ganzhi,
    stems: cycle((l) => l.yearCyl[0] as string, 10),
    branches: cycle((l) => l.yearCyl[1] as string, 12),
    animals: cycle((l) => l.zodiac, 12),
  };
}

/** Reads the calendar facts (see {@link CalendarFacts}). */
export function calendarFacts(): CalendarFacts {
  const cd = chineseDays();
  const terms = cd.getSolarTerms('2024-01-01', '2024-12-31').map((t) => t.name);
  if (terms.length !== 24)
    throw new AppError('internal', `${CD}: ${terms.length} solar terms in 2024, not 24`);
  const nextTerm: Fact[] = [];
  const previousTerm: Fact[] = [];
  terms.forEach((t, i) => {
    const next = terms[(i + 1) % 24] as string;
    const prev = terms[(i + 23) % 24] as string;
    nextTerm.push({
      key: `next_solar_term:${t}`,
      relation: 'next_solar_term',
      slots: { term: t },
      answers: [next],
      sources: [CD],
    });
    previousTerm.push({
      key: `previous_solar_term:${t}`,
      relation: 'previous_solar_term',
      slots: { term: t },
      answers: [prev],
      sources: [CD],
    });
  });
  const festival: Fact[] = [];
  const found: string[] = [];
  for (const f of cd.getLunarFestivals('2024-01-01', '2024-12-31')) {
    for (const name of f.name.filter((n) => FESTIVALS.includes(n) && !found.includes(n))) {
      found.push(name);
      const l = cd.getLunarDate(f.date);
      const md = `${l.lunarMonCN}${l.lunarDayCN}`;
      festival.push({
        key: `festival_lunar_date:${name}`,
        relation: 'festival_lunar_date',
        slots: { festival: name },
        answers: [md, `农历${md}`],
        sources: [CD],
      });
    }
  }
  return { ...cyclicFacts(cd), nextTerm, previousTerm, festival, terms, festivals: found };
}

/** `items` shuffled with `seed` (Fisher–Yates over the seeded Rng, core/rng.ts): the same seed, the same order. */
export function shuffled<T>(items: readonly T[], seed: number): T[] {
  const a = [...items];
  const rng = createRng(seed);
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [a[i], a[j]] = [a[j] as T, a[i] as T];
  }
  return a;
}

/** Characters the linguistic sets draw from: this many, in a seeded order (spelling every character is slow). */
const CHARACTER_POOL = 400;

interface Cnchar {
  spell(ch: string, ...args: string[]): string;
  dict: { stroke: Record<string, string>; info: { polyWord: string } };
}

/**
 * The character facts of the linguistic set: {@link CHARACTER_POOL} characters with one reading, drawn in a
 * seeded order from cnchar's stroke table (sorted by code point first).
 */
export function characterFacts(): { pinyin: Fact[]; strokes: Fact[]; tone: Fact[] } {
  const cn = loadPackage('cnchar') as Cnchar;
  const poly = new Set(cn.dict.info.polyWord);
  const strokesOf = new Map<string, number>();
  for (const [n, chars] of Object.entries(cn.dict.stroke))
    for (const ch of chars) if (Number(n) > 0) strokesOf.set(ch, Number(n));
  const out = { pinyin: [] as Fact[], strokes: [] as Fact[], tone: [] as Fact[] };
  const chars = shuffled([...strokesOf.keys()].sort(), 17).filter((ch) => !poly.has(ch));
  for (const ch of chars) {
    if (out.pinyin.length >= CHARACTER_POOL) break;
    const py = cn.spell(ch, 'tone', 'low');
    if (!/^[a-zāáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜü]+$/u.test(py)) continue;
    const slots = { char: ch };
    const src = ['cnchar'];
    out.pinyin.push({
      key: `char_pinyin:${ch}`,
      relation: 'char_pinyin',
      slots,
      answers: pinyinForms(py),
      sources: src,
    });
    out.strokes.push({
      key: `char_strokes:${ch}`,
      relation: 'char_strokes',
      slots,
      answers: numberForms(strokesOf.get(ch) as number, '画'),
      sources: src,
    });
    const { tone } = toneOf(py);
    if (tone <= 4)
      out.tone.push({
        key: `char_tone:${ch}`,
        relation: 'char_tone',
        slots,
        answers: toneForms(tone),
        sources: src,
      });
  }
  return out;
}
