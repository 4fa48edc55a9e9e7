/**
 * A board built after `zhujiu` runs of three models has complete rows (docs/scoring.md §5): no "incomplete" mark,
 * a value in each of the seven ability columns and under each of the three methods for every model. The real
 * shipped `zhujiu` suite on the real datasets (../shared/data/datasets), run with `zhujiu eval --limit 2` (two
 * items per dataset, multi-request items included), answered by the OpenAI fake; the scoring datasets graded by a
 * fake judge (`judge.model`); the Comparative method from arena votes imported with `zhujiu import battles` and
 * counted through `ratings.include_sources`. In-process CLI on one open embedded database.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOARD_ABILITIES, BOARD_METHODS } from '../../../src/aggregate/index.ts';
import type { BoardJson } from '../../../src/leaderboard/views.ts';
import { type FakeCall, type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../../helpers/shared-data.ts';

const MODELS = ['good', 'fair', 'poor'] as const;
const JUDGE = 'judge-x';

/** A candidate's scripted answer: a choice letter, a number and a tag the judge grades by. */
function candidate(model: string): string {
  const i = MODELS.indexOf(model as (typeof MODELS)[number]);
  return `答案：${'ABC'[i]}（${model}）${i + 1}`;
}

/** The judge's reply: good 3, fair 2, poor 1 (within both rubrics, 0–10 and 0–3), never a safety violation. */
function judged(call: FakeCall): string {
  const text = call.messages.map((m) => m.content).join('\n');
  const who = MODELS.find((m) => text.includes(`（${m}）`));
  const score = who === undefined ? 0 : 3 - MODELS.indexOf(who);
  return JSON.stringify({ reason: 'scripted', score, violation: false });
}

describe.runIf(hasSharedData('datasets'))('a zhujiu board of three models', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-complete-'));
  const cfg = join(root, 'config');
  let fake: FakeOpenAi;
  let t: TestRuntime;

  beforeAll(async () => {
    fake = await startFakeOpenAi({
      answer: (c) =>
        c.model === `${JUDGE}-model` ? judged(c) : candidate(c.model.replace(/-model$/, '')),
    });
    cpSync(join(PROJECT_ROOT, 'config'), cfg, { recursive: true });
    writeFileSync(
      join(cfg, 'models.yaml'),
      `models:\n${[...MODELS, JUDGE]
        .map(
          (m) =>
            `  - name: ${m}\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: ${m}-model\n    max_concurrency: 8\n    max_retries: 0\n`,
        )
        .join('')}`,
    );
    const dflt = join(cfg, 'default.yaml');
    writeFileSync(
      dflt,
      readFileSync(dflt, 'utf8')
        .replace(/^ {2}model: null/m, `  model: ${JUDGE}`)
        .replace(/^ {2}include_sources: \[\]/m, '  include_sources: [votes]')
        .replace(/^ {2}bootstrap: 10000/m, '  bootstrap: 20')
        .replace(/^ {2}port: 8080/m, '  port: 0'),
    );
    t = await openTestRuntime({
      ZHUJIU_CONFIG_DIR: cfg,
      ZHUJIU_DATASETS_DIR: sharedData('datasets'),
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('has every ability and every method for each model, no row incomplete', async () => {
    for (const m of MODELS) {
      const r = await inProcess(['eval', '--model', m, '--suite', 'zhujiu', '--limit', '2'], {
        rt: t.rt,
      });
      expect(r.code, r.stderr).toBe(0);
      // 48 datasets × 2 items, multi-request items (follow-ups, five phrasings) among them, none failed.
      expect(r.stderr).toMatch(/run #\d+: 96\/96 items, 0 failed/);
    }
    // Arena votes of the three models (the Comparative method): 12 battles per pair, language items.
    const lines: string[] = [];
    for (let k = 0; k < 12; k++) {
      const win = (a: string, b: string, w: string) =>
        JSON.stringify({ model_a: a, model_b: b, winner: w });
      lines.push(win('good', 'fair', k < 9 ? 'model_a' : 'model_b'));
      lines.push(win('fair', 'poor', k < 8 ? 'model_a' : 'tie'));
      lines.push(win('poor', 'good', k < 2 ? 'model_a' : 'model_b'));
    }
    const f = join(root, 'votes.jsonl');
    writeFileSync(f, `${lines.join('\n')}\n`);
    const imp = await inProcess(['import', 'battles', f, '--ability', 'language'], { rt: t.rt });
    expect(imp.code, imp.stderr).toBe(0);

    const b = await inProcess(['leaderboard', '--json'], { rt: t.rt });
    expect(b.code, b.stderr).toBe(0);
    const board = JSON.parse(b.stdout) as BoardJson;
    expect(board.scoring_judge).toBe(JUDGE);
    const rows = board.models.filter((r) => (MODELS as readonly string[]).includes(r.model));
    expect(rows.map((r) => r.model).sort()).toEqual([...MODELS].sort());
    for (const r of rows) {
      expect(r.incomplete, r.model).toBe(false);
      expect(r.unranked_reason, r.model).toBeNull();
      for (const a of BOARD_ABILITIES) expect(r.abilities[a], `${r.model} ${a}`).not.toBeNull();
      for (const m of BOARD_METHODS) expect(r.methods[m], `${r.model} ${m}`).not.toBeNull();
      expect(r.overall, r.model).not.toBeNull();
      expect(r.final, r.model).not.toBeNull();
    }
    expect(Object.keys(rows[0]!.abilities)).toHaveLength(7);
    // The text board marks no row incomplete ("*" in the last column).
    const text = await inProcess(['leaderboard'], { rt: t.rt });
    expect(text.code, text.stderr).toBe(0);
    for (const m of MODELS) {
      const line = text.stdout.split('\n').find((l) => l.includes(` ${m} `));
      expect(line, text.stdout).toBeDefined();
      expect(line?.trimEnd().endsWith('*'), line).toBe(false);
    }
  }, 120_000); // three eval runs of the whole zhujiu suite (96 items each), a judge and a board: a whole-dataset test
});
