/**
 * `zhujiu judge agree`, `zhujiu import judgments` and `zhujiu judge report` on the real published files:
 * in-process through `runCli`, the imports and reports on one open copy of the migrated template database.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/main.ts';
import {
  type CliResult,
  inProcess,
  openTestRuntime,
  type TestRuntime,
} from '../../helpers/run-cli.ts';
import { hasSharedData, sharedData } from '../../helpers/shared-data.ts';

/** `zhujiu ARGS…` in-process: on the file's open runtime when given, else with no database. */
const zhujiu = (args: string[], rt?: Runtime) => inProcess(args, rt ? { rt } : {});

const PANDA = ['outputs', 'pandalm'] as const;

describe('zhujiu judge agree', () => {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-agree-'));

  it('prints exactly the documented JSON keys; weighted kappa only for ordered labels', async () => {
    const a = join(dir, 'a.jsonl');
    const b = join(dir, 'b.jsonl');
    writeFileSync(a, '{"item":"1","label":3}\n{"item":"2","label":2}\n{"item":"3","label":0}\n');
    writeFileSync(b, '{"item":"1","label":3}\n{"item":"2","label":1}\n{"item":"4","label":1}\n');
    const r = await zhujiu(['judge', 'agree', a, b, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual([
      'n',
      'kappa',
      'kappa_linear',
      'kappa_quadratic',
      'exact',
      'within_one',
      'confusion',
    ]);
    expect(out).toMatchObject({ n: 2, exact: 0.5, within_one: 1 });
    expect(r.stderr).toContain('1 item(s) only in');
    const s1 = join(dir, 's1.jsonl');
    const s2 = join(dir, 's2.jsonl');
    writeFileSync(s1, '{"item":1,"label":"good"}\n{"item":2,"label":"bad"}\n');
    writeFileSync(s2, '{"item":1,"label":"good"}\n{"item":2,"label":"good"}\n');
    const u = JSON.parse((await zhujiu(['judge', 'agree', s1, s2, '--json'])).stdout);
    expect([u.kappa_linear, u.kappa_quadratic, u.within_one]).toEqual([null, null, null]);
    const o = JSON.parse(
      (await zhujiu(['judge', 'agree', s1, s2, '--json', '--order', 'bad,good'])).stdout,
    );
    expect(o.kappa_linear).not.toBeNull();
  });

  it('bad input: file:line and the fix, exit 1 (a missing file too)', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"item":"1","label":3}\n{"item":"1","label":2}\n');
    const r = await zhujiu(['judge', 'agree', bad, bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${bad}:2: item "1" is already labelled on line 1`);
    const m = await zhujiu(['judge', 'agree', join(dir, 'nope.jsonl'), bad]);
    expect(m.code).toBe(1);
    expect(m.stderr).toContain('nope.jsonl: cannot read (no such file); check the path');
    // A folder, a Latin-1 file, a binary file: one line, exit 1, through the product's UTF-8 reader.
    const good = join(dir, 'good.jsonl');
    writeFileSync(good, '{"item":"1","label":3}\n{"item":"2","label":2}\n');
    const folder = await zhujiu(['judge', 'agree', dir, good]);
    expect([folder.code, folder.stderr.trim()]).toEqual([
      1,
      `error [import_invalid]: ${dir}: cannot read (a folder, not a file); check the path`,
    ]);
    const latin1 = join(dir, 'latin1.jsonl');
    writeFileSync(latin1, Buffer.from('{"item":"caf\xe9","label":1}\n', 'latin1'));
    const l = await zhujiu(['judge', 'agree', latin1, good]);
    expect(l.code).toBe(1);
    expect(l.stderr).toContain(`${latin1}:1: not UTF-8 text: byte offset 12`);
    const bin = join(dir, 'bin.jsonl');
    writeFileSync(bin, Buffer.from([0x7b, 0x0a, 0x00, 0x01, 0x02]));
    const bi = await zhujiu(['judge', 'agree', good, bin]);
    expect(bi.code).toBe(1);
    expect(bi.stderr).toContain(
      `${bin}:2: not a text file (it contains NUL bytes, the first NUL at byte offset 2)`,
    );
    // No item in common: a data problem (exit 1), not a usage mistake.
    const other = join(dir, 'other.jsonl');
    writeFileSync(other, '{"item":"9","label":1}\n{"item":"8","label":2}\n');
    const none = await zhujiu(['judge', 'agree', other, good]);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('they are joined on "item"');
  });

  it('a file of another kind is named with the command that fits, in one line', async () => {
    const battles = join(dir, 'battles.jsonl');
    writeFileSync(battles, '{"model_a":"a","model_b":"b","winner":"model_a"}\n'.repeat(200));
    const labels = join(dir, 'labels.jsonl');
    writeFileSync(labels, '{"item":"1","label":1}\n');
    const r = await zhujiu(['judge', 'agree', labels, battles]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `error [import_invalid]: ${battles}:1: this looks like arena battles ({model_a, model_b, winner}); rate them with ` +
        `\`zhujiu ratings --battles ${battles}\` or import them with \`zhujiu import battles ${battles}\`; ` +
        'judge agree takes JSON Lines of {"item": ..., "label": ...}',
    );
    const outputs = join(dir, 'outputs.json');
    writeFileSync(outputs, '[{"instruction":"hi","output":"yo"}]\n');
    const o = await zhujiu(['judge', 'agree', outputs, labels]);
    expect(o.stderr).toContain(
      `import them with \`zhujiu import outputs ${outputs} --model NAME\``,
    );
    // Rows of an unknown kind: the same problem on many lines is one line naming them.
    const odd = join(dir, 'odd.jsonl');
    writeFileSync(odd, '{"id":1,"score":2}\n'.repeat(500));
    const u = await zhujiu(['judge', 'agree', odd, labels]);
    expect(u.code).toBe(1);
    const lines = u.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`${odd}:1: "item" must be`);
    expect(lines[0]).toContain('(also on lines 2, 3, 4 and 496 more)');
  });

  it.skipIf(!hasSharedData(...PANDA, 'testset-v1.json'))(
    'PandaLM: annotator 1 vs 2 kappa 0.8520; GPT-3.5 vs majority kappa 0.4929, QWK 0.5882 with --order 1,0,2',
    async () => {
      const items = JSON.parse(readFileSync(sharedData(...PANDA, 'testset-v1.json'), 'utf8')) as {
        idx: number;
        annotator1: number;
        annotator2: number;
        annotator3: number;
      }[];
      const gpt = JSON.parse(
        readFileSync(sharedData(...PANDA, 'gpt-3.5-turbo-testset-v1.json'), 'utf8'),
      ) as { idx: number; gpt_result: string }[];
      const lines = (rows: { item: number; label: number }[]) =>
        rows.map((r) => JSON.stringify(r)).join('\n');
      const f1 = join(dir, 'a1.jsonl');
      const f2 = join(dir, 'a2.jsonl');
      const fm = join(dir, 'majority.jsonl');
      const fg = join(dir, 'gpt.jsonl');
      writeFileSync(f1, lines(items.map((x) => ({ item: x.idx, label: x.annotator1 }))));
      writeFileSync(f2, lines(items.map((x) => ({ item: x.idx, label: x.annotator2 }))));
      writeFileSync(
        fm,
        lines(
          items.map((x) => {
            const v = [x.annotator1, x.annotator2, x.annotator3];
            return {
              item: x.idx,
              label: v.find((l) => v.filter((y) => y === l).length >= 2) ?? -1,
            };
          }),
        ),
      );
      const map: Record<string, number> = { '1': 1, '2': 2, Tie: 0 };
      writeFileSync(
        fg,
        lines(
          gpt
            .filter((g) => g.gpt_result in map)
            .map((g) => ({ item: g.idx, label: map[g.gpt_result] as number })),
        ),
      );
      const a = JSON.parse((await zhujiu(['judge', 'agree', f1, f2, '--json'])).stdout);
      expect(a.kappa.toFixed(4)).toBe('0.8520');
      const g = await zhujiu(['judge', 'agree', fg, fm, '--json', '--order', '1,0,2']);
      const j = JSON.parse(g.stdout);
      expect([j.n, j.kappa.toFixed(4), j.kappa_quadratic.toFixed(4)]).toEqual([
        974,
        '0.4929',
        '0.5882',
      ]);
      expect(g.stderr).toContain('0 item(s) only in');
      expect(g.stderr).toContain('25 only in');
      const text = await zhujiu(['judge', 'agree', fg, fm, '--order', '1,0,2']);
      expect(text.stdout).toContain("Cohen's kappa 0.4929");
      expect(text.stdout).toContain('quadratic 0.5882');
    },
  );
});

const GAOKAO = ['outputs', 'gaokao_bench', 'gpt-4-0314_subjective_judged_by_gpt-4-1106-preview'];
const ALPACA = [
  'outputs',
  'alpaca_eval',
  'annotations_weighted_alpaca_eval_gpt4_turbo',
  'claude-2.jsonl',
];

describe.skipIf(!hasSharedData(...GAOKAO) || !hasSharedData(...ALPACA))(
  'zhujiu import judgments + judge report',
  () => {
    // One open copy of the migrated template database for every command below.
    // The two imports are the file's seed, made once; every test after them only reads (the reports write
    // nothing), so the tests run in any order.
    let t: TestRuntime;
    let g: CliResult;
    let a: CliResult;
    beforeAll(async () => {
      t = await openTestRuntime();
      g = await zhujiu(
        [
          'import',
          'judgments',
          sharedData(...GAOKAO),
          '--format',
          'gaokao',
          '--judge',
          'gpt-4-1106-preview',
        ],
        t.rt,
      );
      a = await zhujiu(
        [
          'import',
          'judgments',
          sharedData(...ALPACA),
          '--format',
          'alpaca_eval',
          '--judge',
          'weighted_alpaca_eval_gpt4_turbo',
        ],
        t.rt,
      );
    }, 120_000);
    afterAll(() => t?.close());

    it('imports the GAOKAO-Bench judgments with no endpoint', () => {
      expect(g.code, g.stderr).toBe(0);
      expect(g.stdout).toMatch(
        /imported 1030 judge scores by gpt-4-1106-preview for gpt-4-0314 from 18 files \(1030 judged, 0 judge failures/,
      );
    });

    it('imports the AlpacaEval annotations with no endpoint', () => {
      expect(a.code, a.stderr).toBe(0);
    });

    it('judge report --json rebuilds the published GAOKAO-Bench points', async () => {
      const rg = await zhujiu(['judge', 'report', '--model', 'gpt-4-0314', '--json'], t.rt);
      expect(rg.code, rg.stderr).toBe(0);
      const jg = JSON.parse(rg.stdout);
      expect(Object.keys(jg)).toEqual(['pairwise', 'datasets', 'board_scoring']);
      expect(Object.keys(jg.datasets[0])).toEqual([
        'dataset',
        'ability',
        'rubric',
        'judge',
        'n',
        'judged',
        'earned',
        'possible',
        'raw_mean',
        'sv_mean',
        'sv_rate',
        'failures',
      ]);
      // GAOKAO-Bench's published subjective points, 7672.83 / 11839, are these two together: its maths
      // (reasoning, docs/scoring.md §2.1) and its other subjects (knowledge).
      const points = (name: string) => {
        const x = jg.datasets.find((d: { dataset: string }) => d.dataset === name);
        return [x?.earned, x?.possible];
      };
      expect(points('gaokao_subjective')).toEqual([6596.83, 8291]);
      expect(points('gaokao_subjective_math')).toEqual([1076, 3548]);
    });

    it('judge report --baseline --json rebuilds the published AlpacaEval win rate', async () => {
      const ra = await zhujiu(
        ['judge', 'report', '--model', 'claude-2', '--baseline', 'gpt4_1106_preview', '--json'],
        t.rt,
      );
      expect(ra.code, ra.stderr).toBe(0);
      const ja = JSON.parse(ra.stdout);
      expect(Object.keys(ja.pairwise[0])).toEqual([
        'baseline',
        'judge',
        'n',
        'win_rate',
        'standard_error',
        'discrete_win_rate',
      ]);
      expect([
        ja.pairwise[0].win_rate.toFixed(4),
        ja.pairwise[0].standard_error.toFixed(4),
        ja.pairwise[0].discrete_win_rate.toFixed(4),
      ]).toEqual(['17.1882', '1.1748', '16.3354']);
    });

    it('judge report as text, and an unknown model', async () => {
      const text = await zhujiu(['judge', 'report', '--model', 'gpt-4-0314'], t.rt);
      expect(text.stdout).toContain('618 of 618 judged; 6596.83 / 8291 points (0.7957)');
      expect(text.stdout).toContain('412 of 412 judged; 1076 / 3548 points (0.3033)');
      // A name neither the config nor the stored data know is a usage mistake (exit 2).
      const missing = await zhujiu(['judge', 'report', '--model', 'nobody'], t.rt);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('--model nobody: no such model: neither');
    });
  },
);
