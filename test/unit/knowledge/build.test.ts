/** The knowledge builders on the installed data packages (no file is written; write.ts is tested in test/app). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../../src/core/errors.ts';
import { jsonl } from '../../../src/eval/datasets/build/registry.ts';
import {
  buildKnowledgeSets,
  drawFacts,
  type KnowledgeSet,
} from '../../../src/eval/datasets/knowledge/build.ts';
import type { Fact } from '../../../src/eval/datasets/knowledge/facts.ts';
import { parseKnowledge } from '../../../src/eval/datasets/knowledge/loader.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const installed = (p: string) =>
  (
    JSON.parse(readFileSync(join(PROJECT_ROOT, 'node_modules', p, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

let sets: KnowledgeSet[];
beforeAll(() => {
  sets = buildKnowledgeSets().sets;
});

const fact = (key: string): Fact => ({
  key,
  relation: 'char_pinyin',
  slots: { char: key },
  answers: ['a'],
  sources: ['cnchar'],
});

describe('drawFacts', () => {
  it('takes the pools in turn, in the given order when unseeded, avoided facts last', () => {
    const a = ['a1', 'a2', 'a3'].map(fact);
    const b = ['b1'].map(fact);
    expect(drawFacts('t', [a, b], 4, null).map((f) => f.key)).toEqual(['a1', 'b1', 'a2', 'a3']);
    expect(drawFacts('t', [a, b], 2, null, new Set(['a1'])).map((f) => f.key)).toEqual([
      'a2',
      'b1',
    ]);
    const seeded = drawFacts('t', [a], 3, 7).map((f) => f.key);
    expect(drawFacts('t', [a], 3, 7).map((f) => f.key)).toEqual(seeded);
    expect(new Set(seeded)).toEqual(new Set(['a1', 'a2', 'a3']));
  });

  it('refuses pools too small for the set', () => {
    let err: unknown;
    try {
      drawFacts('world_x', [[fact('a')]], 2, 1);
    } catch (e) {
      err = e;
    }
    expect(isAppError(err) && err.message).toBe('world_x: only 1 facts for 2 items');
  });
});

describe('the ten knowledge sets', () => {
  it('are the four perspectives with their properties, 100 items each, unique ids', () => {
    expect(sets.map((s) => `${s.name} ${s.rows.length}`)).toEqual([
      'world_accuracy 100',
      'world_robustness 100',
      'world_completeness 100',
      'world_timeliness 100',
      'commonsense_accuracy 100',
      'commonsense_robustness 100',
      'linguistic_accuracy 100',
      'linguistic_robustness 100',
      'concept_accuracy 100',
      'concept_robustness 100',
    ]);
    const ids = sets.flatMap((s) => s.rows.map((r) => r.id));
    expect(new Set(ids).size).toBe(1000);
  });

  it('name the source package, its installed version and licence on every item', () => {
    const seen = new Map<string, string>();
    for (const r of sets.flatMap((s) => s.rows)) {
      expect(r.provenance.length, r.id).toBeGreaterThan(0);
      for (const p of r.provenance) seen.set(p.package, `${p.version} ${p.licence}`);
    }
    expect(Object.fromEntries(seen)).toEqual({
      'countries-list': `${installed('countries-list')} MIT`,
      'i18n-iso-countries': `${installed('i18n-iso-countries')} MIT`,
      'world-countries': `${installed('world-countries')} ODbL-1.0`,
      'chinese-days': `${installed('chinese-days')} MIT`,
      cnchar: `${installed('cnchar')} MIT`,
    });
  });

  it('ask each robustness fact five distinct ways, preferring facts its accuracy set does not ask', () => {
    // (commonsense and concept reuse facts: some of their pools, e.g. the 24 solar terms, are too small.)
    for (const p of ['world', 'linguistic']) {
      const acc = new Set(sets.find((s) => s.name === `${p}_accuracy`)?.rows.map((r) => r.fact));
      const rob = sets.find((s) => s.name === `${p}_robustness`)?.rows ?? [];
      for (const r of rob) {
        expect(new Set(r.variants).size, r.id).toBe(5);
        expect(r.question).toBe(r.variants?.[0]);
        expect(acc.has(r.fact), r.id).toBe(false);
      }
    }
  });

  it('give completeness items their elements and timeliness items their date, newest first', () => {
    const comp = sets.find((s) => s.name === 'world_completeness')?.rows ?? [];
    expect(comp.every((r) => (r.elements?.length ?? 0) >= 2 && r.answers.length === 0)).toBe(true);
    const china = comp.find((r) => r.fact === 'country_borders:CN');
    if (china) expect(china.reference).toContain('俄罗斯');
    const timely = sets.find((s) => s.name === 'world_timeliness')?.rows ?? [];
    const dates = timely.map((r) => r.as_of as string);
    expect(dates.every((d) => /^\d{4}-\d{2}-\d{2}$/.test(d))).toBe(true);
    expect(dates[0]?.slice(0, 4)).toBe(dates.sort().at(-1)?.slice(0, 4));
    expect(new Set(timely.map((r) => r.relation))).toEqual(
      new Set(['holiday_start', 'holiday_length', 'solar_term_date']),
    );
  });

  it('are read back by the knowledge loader (building twice: test/app/cli/datasets-build.test.ts)', () => {
    for (const s of sets) {
      const parsed = parseKnowledge([{ name: `${s.name}.jsonl`, text: jsonl(s.rows) }]);
      expect(parsed.problems, s.name).toEqual([]);
      expect(parsed.items).toHaveLength(100);
    }
  });

  it('know a few facts the data states', () => {
    const rows = sets.flatMap((s) => s.rows);
    const byFact = (f: string) => rows.find((r) => r.fact === f);
    const check = (f: string, answer: string) => {
      const r = byFact(f);
      if (r) expect(r.answers[0], f).toBe(answer);
    };
    check('next_solar_term:冬至', '小寒');
    check('previous_solar_term:立春', '大寒');
    check('year_zodiac:2024', '龙');
    check('year_ganzhi:2024', '甲辰');
    check('festival_lunar_date:端午节', '五月初五');
    check('term_category:天干:甲', '天干');
  });
});
