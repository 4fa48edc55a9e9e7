/**
 * The message catalogue: both languages have the same keys (also checked by the compiler) and, key by key, the
 * same placeholders; every message parses; the formatter fills parameters, chooses plural branches and escapes
 * HTML; a missing parameter is an error naming the key.
 */
import { describe, expect, it } from 'vitest';
import { formatMessage, placeholderNames } from '../../../src/i18n/format.ts';
import { CATALOGUE, html, LOCALES, localeFromTag, t, th } from '../../../src/i18n/index.ts';

describe('message catalogue', () => {
  it('has the same keys in every language', () => {
    const keys = LOCALES.map((l) => Object.keys(CATALOGUE[l]).sort());
    for (const k of keys) expect(k).toEqual(keys[0]);
  });

  it('has the same placeholders in every language, and every message parses', () => {
    const diff: string[] = [];
    for (const key of Object.keys(CATALOGUE.en) as (keyof typeof CATALOGUE.en)[]) {
      const names = LOCALES.map((l) => placeholderNames(CATALOGUE[l][key]).join(','));
      if (new Set(names).size > 1) diff.push(`${key}: ${names.join(' | ')}`);
    }
    expect(diff).toEqual([]);
  });

  it('gives Chinese text in zh-CN wherever the English has words of its own', () => {
    const cjk = /[\u3400-\u9fff]/;
    /** The message without its placeholders (innermost first, so plural branches go too). */
    const literal = (m: string) => {
      let s = m;
      for (let prev = ''; prev !== s; ) [prev, s] = [s, s.replace(/\{[^{}]*\}/g, '')];
      return s;
    };
    const untranslated = (Object.keys(CATALOGUE.en) as (keyof typeof CATALOGUE.en)[]).filter(
      (k) =>
        /[a-z]{2}/i.test(literal(CATALOGUE.en[k])) &&
        !cjk.test(CATALOGUE['zh-CN'][k]) &&
        // The other language's own name, and file-format and filter-value names typed as they are.
        ![
          'locale.name',
          'site.lang.switch',
          'runs.download.jsonl',
          'runs.filter.scoreHint',
        ].includes(k),
    );
    expect(untranslated).toEqual([]);
  });

  it('fills parameters, chooses plurals, escapes HTML', () => {
    expect(t('en', 'site.historyNote', { key: 'final', n: 1 })).toContain('1 day;');
    expect(t('en', 'site.historyNote', { key: 'final', n: 3 })).toContain('3 days;');
    expect(t('zh-CN', 'site.historyNote', { key: '综合分', n: 3 })).toContain('共 3 天');
    expect(th('en', 'site.noBoard', { cmd: html('<code>zhujiu leaderboard</code>') })).toBe(
      'No board yet: it is built when scores or votes arrive (or run <code>zhujiu leaderboard</code>).',
    );
    expect(th('en', 'site.model.title', { model: '<b>&' })).toBe('Model: &lt;b&gt;&amp;');
    expect(
      formatMessage('en', 'x', '{n, plural, =0 {none} one {# item} other {# items}}', { n: 0 }),
    ).toBe('none');
    expect(() => t('en', 'site.model.title')).toThrow(/"site.model.title".*"model"/);
    expect(() => formatMessage('en', 'x', '{n, select, a {b}}', { n: 1 })).toThrow(/plural/);
  });

  it('maps platform locale tags to a catalogue language', () => {
    expect(localeFromTag('zh-CN')).toBe('zh-CN');
    expect(localeFromTag('en-US')).toBe('en');
    expect(localeFromTag('en-GB')).toBe('en');
    expect(localeFromTag('zh-TW')).toBeUndefined();
    expect(localeFromTag('fr')).toBeUndefined();
    expect(localeFromTag(undefined)).toBeUndefined();
  });
});
