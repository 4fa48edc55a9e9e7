/**
 * The `cmrc2018` profile against CMRC 2018's official evaluation script (ymcui/cmrc2018
 * `baseline/cmrc2018_evaluate.py`, `calc_em_score` / `calc_f1_score`) on every row of
 * ../shared/data/reference/cmrc2018/official_scores.trial.jsonl (its README says how the rows were scored): exact
 * match equal, F1 within 1e-6 (the file rounds F1 to 6 decimals).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { charF1, exactMatch } from '../../../src/eval/metrics/index.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

// A fixed amount of work (every row of the file, thousands of stored votes), not a time limit: on a machine busy
// with other work it may take longer than the project's default per test.
vi.setConfig({ testTimeout: 120_000 });

const FILE = ['reference', 'cmrc2018', 'official_scores.trial.jsonl'] as const;

interface Row {
  id: string;
  kind: string;
  prediction: string;
  references: string[];
  em: 0 | 1;
  f1: number;
}

describe.skipIf(!hasSharedData(...FILE))(
  'CMRC 2018 official scores, every row of the reference file',
  () => {
    it('gives the official EM on every row and the official F1 within 1e-6', () => {
      const rows = readFileSync(sharedData(...FILE), 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Row);
      expect(rows.length).toBe(30_560);
      const wrong: string[] = [];
      for (const r of rows) {
        const em = exactMatch(r.prediction, r.references, 'cmrc2018');
        const f1 = charF1(r.prediction, r.references, 'cmrc2018');
        if (em !== r.em || !(Math.abs(f1 - r.f1) <= 1e-6)) {
          wrong.push(
            `${r.id} ${r.kind} ${JSON.stringify(r.prediction)}: EM ${em}/${r.em}, F1 ${f1}/${r.f1}`,
          );
        }
      }
      expect(wrong.slice(0, 20)).toEqual([]);
      expect(wrong.length).toBe(0);
    });
  },
);
