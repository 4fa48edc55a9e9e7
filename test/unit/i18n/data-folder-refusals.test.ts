/**
 * The refusals of a data folder (`cli.db.*`) read alike in both languages: each that tells the user to set
 * ZHUJIU_DATA_DIR also offers DATABASE_URL, and each ends with a full stop (the dangling link's said neither).
 */
import { describe, expect, it } from 'vitest';
import { enCli } from '../../../src/i18n/en-cli.ts';
import { zhCNCli } from '../../../src/i18n/zh-CN-cli.ts';

const refusals = (cat: Readonly<Record<string, string>>) =>
  Object.entries(cat).filter(([k, v]) => k.startsWith('cli.db.') && v.includes('ZHUJIU_DATA_DIR'));

describe('the data-folder refusals', () => {
  it('the dangling link ends with a full stop and offers DATABASE_URL', () => {
    expect(enCli['cli.db.danglingLink']).toMatch(/DATABASE_URL to a Postgres server\.$/u);
    expect(zhCNCli['cli.db.danglingLink']).toMatch(/DATABASE_URL 设为 PostgreSQL 服务器。$/u);
  });

  it('every refusal naming ZHUJIU_DATA_DIR also offers DATABASE_URL and ends with a full stop', () => {
    for (const [cat, stop] of [
      [enCli, '.'],
      [zhCNCli, '。'],
    ] as const) {
      const found = refusals(cat);
      expect(found.length).toBeGreaterThan(5);
      for (const [key, text] of found) {
        expect(text, key).toContain('DATABASE_URL');
        // A closing parenthesis may follow the stop of a sentence in brackets.
        expect(text.replace(/[)）]$/u, '').endsWith(stop), key).toBe(true);
      }
    }
  });
});
