/**
 * The board's Scoring method is one judge's (docs/scoring.md §3): items its judge failed on stay failures, a trial
 * of another judge (`zhujiu judge run --judge good-7b`) moves no scoring figure, every view names the judge, and
 * the other judge's grades appear only when asked for (`zhujiu leaderboard --judge NAME`, not stored).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { overallPage } from '../../../src/leaderboard/page.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import {
  boardJson,
  methodContent,
  modelCardJson,
  modelContent,
  overallContent,
} from '../../../src/leaderboard/views.ts';
import type { Runtime } from '../../../src/main.ts';
import { upsertJudgeScores } from '../../../src/storage/judge-scores.ts';
import { judgeGrades } from '../../../src/storage/leaderboard.ts';
import { addRun } from '../../helpers/board-data.ts';
import { freshDb, type TestDb } from '../../helpers/db.ts';
import { inProcess, runtimeOn } from '../../helpers/run-cli.ts';

const MAIN = 'main-judge';
const TRIAL = 'good-7b';

describe('one judge on the board', () => {
  let db: TestDb;
  const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
  const service = (judge: string | null) =>
    new LeaderboardService({
      db: db.db,
      clock,
      logger: silentLogger,
      aggregation: { min_votes: 5, bootstrap: 50, seed: 1 },
      compute: 'inline',
      inlineChart: false,
      judge,
    });
  let ids: Map<string, number>;
  let models: Map<string, number>;
  const grade = (model: string, key: string, judge: string, raw: number | null) => ({
    modelId: models.get(model)!,
    itemId: ids.get(key)!,
    judge,
    rubric: 'ten_point',
    rubricVersion: '1',
    ...(raw === null
      ? { status: 'failed' as const, failureCode: 'unparseable', failureMessage: 'no score' }
      : { status: 'judged' as const, rawScore: raw, maxScore: 10, safetyFlag: false }),
  });

  beforeAll(async () => {
    db = await freshDb('pglite');
    // m1's run: the judge graded q0 (2 of 10) and failed on q1–q3; m2's run: every item 3 of 10.
    for (const [model, scores] of [
      ['m1', [{ key: 'q0', raw: 2, max: 10 }]],
      ['m2', ['q0', 'q1', 'q2', 'q3'].map((key) => ({ key, raw: 3, max: 10 }))],
    ] as const) {
      await addRun(db.db, {
        model,
        suite: 'scoring',
        dataset: 'know',
        ability: 'knowledge',
        method: 'scoring',
        scores,
        judge: MAIN,
      });
    }
    const items = await db.db.selectFrom('items').select(['id', 'key']).execute();
    ids = new Map(items.map((i) => [i.key, Number(i.id)]));
    const ms = await db.db.selectFrom('models').select(['id', 'name']).execute();
    models = new Map(ms.map((m) => [m.name, Number(m.id)]));
    // What the run stored as the judge's records (as the runner does).
    await upsertJudgeScores(db.db, [
      grade('m1', 'q0', MAIN, 2),
      grade('m1', 'q1', MAIN, null),
      grade('m1', 'q2', MAIN, null),
      grade('m1', 'q3', MAIN, null),
      ...['q0', 'q1', 'q2', 'q3'].map((k) => grade('m2', k, MAIN, 3)),
    ]);
  });
  afterAll(async () => {
    await db?.destroy();
  });

  it("a trial run of a second judge moves no scoring figure, failures stay failures, every view names the judge; with those two judges and no judge.model the Scoring method waits for one to be named; a grade whose SV check failed is that judge's failure (docs/scoring.md §3.4)", async () => {
    // Step: a trial run of a second judge moves no scoring figure; failures stay failures; every view names the judge
    {
      const svc = service(MAIN);
      try {
        const before = await svc.refresh();
        const m1 = () => modelCardJson(before.board, 'm1')!;
        expect(m1().model.methods.scoring).toBeCloseTo(2, 10);
        expect(m1().model.abilities.knowledge).toBeCloseTo(2, 10);
        expect(m1().datasets).toMatchObject([{ dataset: 'know', n: 1, failures: 3, score: 2 }]);
        expect(m1().scoring_judge).toBe(MAIN);
        expect(boardJson(before.board).scoring_judge).toBe(MAIN);

        // The trial: good-7b grades every answer, m1's failed items included.
        await upsertJudgeScores(db.db, [
          ...['q0', 'q1', 'q2', 'q3'].map((k) => grade('m1', k, TRIAL, 5)),
          ...['q0', 'q1', 'q2', 'q3'].map((k) => grade('m2', k, TRIAL, 1)),
        ]);
        const after = await svc.refresh();
        expect(after.id).toBeGreaterThan(before.id); // the inputs changed, so it was rebuilt …
        const pick = (s: typeof after) =>
          boardJson(s.board).models.map((r) => [r.model, r.methods, r.abilities, r.final]);
        expect(pick(after)).toEqual(pick(before)); // … to the same figures
        const card = modelCardJson(after.board, 'm1')!;
        expect(card.model.normalized.scoring).toBe(
          modelCardJson(before.board, 'm1')!.model.normalized.scoring,
        );
        expect(card.datasets).toMatchObject([{ n: 1, failures: 3, score: 2 }]);

        // Every view says whose grades these are, and where the other judge's are.
        const now = clock.now();
        const footer = overallContent(after, { now }).footer ?? '';
        expect(footer).toContain(
          'scoring = grades of judge main-judge (not shown: good-7b; `zhujiu leaderboard --judge NAME`)',
        );
        expect(methodContent(after, 'scoring', { now }).text).toBe(
          'scoring (judge main-judge): 2 of 2 models scored',
        );
        const mc = modelContent(after, 'm1', { now });
        expect(mc.sections?.[0]?.body).toContain('scoring (judge main-judge) 2.00');
        expect(mc.table?.rows[0]?.[2]).toBe('scoring (judge main-judge)');
        expect(overallPage(after, now)).toContain('scoring = grades of judge main-judge');

        // Asked for: the trial judge's board, built from its grades only and not stored.
        const trial = await svc.withJudge(TRIAL);
        expect(trial.board.scoringJudge).toBe(TRIAL);
        expect(modelCardJson(trial.board, 'm1')!.model.methods.scoring).toBeCloseTo(5, 10);
        expect(modelCardJson(trial.board, 'm2')!.model.methods.scoring).toBeCloseTo(1, 10);
        expect((await svc.latest())?.id).toBe(after.id);
        expect((await svc.refresh()).id).toBe(after.id);
      } finally {
        await svc.close();
      }
    }
    // Step: without judge.model and with two judges, the Scoring method waits for one to be named
    {
      const svc = service(null);
      try {
        const snap = await svc.refresh();
        expect(snap.board.scoringJudge).toBeNull();
        expect(boardJson(snap.board).models.every((r) => r.methods.scoring === null)).toBe(true);
        expect(overallContent(snap, { now: clock.now() }).footer).toContain(
          'scoring: no judge chosen (grades of good-7b, main-judge are stored; set judge.model or pass `zhujiu leaderboard --judge NAME`)',
        );
      } finally {
        await svc.close();
      }
    }
    // Step: a grade whose SV check failed is that judge's failure on the board, not a grade (docs/scoring.md §3.4)
    {
      const SV = 'sv-judge';
      await upsertJudgeScores(db.db, [
        { ...grade('m2', 'q0', SV, 8), safetyFlag: true },
        { ...grade('m2', 'q1', SV, 6), safetyFlag: false },
        {
          ...grade('m2', 'q2', SV, 7),
          safetyFlag: null,
          failureCode: 'safety_check_failed',
          failureMessage: 'safety check unparseable: no safety verdict found in the reply',
        },
        // as stored before the failure had its code: only the audit output says the check failed
        {
          ...grade('m2', 'q3', SV, 5),
          safetyFlag: null,
          judgeOutput: {
            reply: '[[5]]',
            safety: { failure: { code: 'unparseable' }, attempts: 3 },
          },
        },
      ]);
      const g = await judgeGrades(db.db, SV);
      expect(g.grades.map((x) => [x.itemId, x.score]).sort((a, b) => a[0]! - b[0]!)).toEqual([
        [ids.get('q0'), 0],
        [ids.get('q1'), 6],
      ]);
      expect(g.failures).toEqual([{ model: 'm2', dataset: 'know', failures: 2 }]);
    }
  }, 90_000);
});

describe('one judge on the board, from the CLI', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-one-judge-'));
  let db: TestDb;
  beforeAll(async () => {
    db = await freshDb('pglite');
    for (const [model, raw] of [
      ['m1', 2],
      ['m2', 3],
    ] as const) {
      await addRun(db.db, {
        model,
        suite: 'scoring',
        dataset: 'know',
        ability: 'knowledge',
        method: 'scoring',
        scores: [{ key: 'q0', raw, max: 10 }],
        judge: MAIN,
      });
    }
    const item = await db.db.selectFrom('items').select('id').executeTakeFirstOrThrow();
    const ms = await db.db.selectFrom('models').select(['id', 'name']).execute();
    const id = (n: string) => Number(ms.find((m) => m.name === n)!.id);
    const g = (model: string, judge: string, raw: number) => ({
      modelId: id(model),
      itemId: Number(item.id),
      judge,
      rubric: 'ten_point',
      rubricVersion: '1',
      status: 'judged' as const,
      rawScore: raw,
      maxScore: 10,
    });
    await upsertJudgeScores(db.db, [
      g('m1', MAIN, 2),
      g('m2', MAIN, 3),
      g('m1', TRIAL, 9),
      g('m2', TRIAL, 1),
    ]);
    writeFileSync(
      join(tmp, 'default.yaml'),
      `judge:\n  model: ${MAIN}\naggregation:\n  bootstrap: 20\n`,
    );
    rt = await runtimeOn(db, { ZHUJIU_CONFIG_DIR: tmp });
  });
  afterAll(async () => {
    await db?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });
  let rt: Runtime;
  const zhujiu = (...args: string[]) => inProcess(args, { rt });

  it("leaderboard --judge NAME shows that judge's board without storing it; judge report shows both figures", async () => {
    const scoring = (out: string) =>
      Object.fromEntries(
        (
          JSON.parse(out) as { models: { model: string; methods: { scoring: number } }[] }
        ).models.map((m) => [m.model, m.methods.scoring]),
      );
    const board = await zhujiu('leaderboard', '--json');
    expect(board.code, board.stderr).toBe(0);
    expect(JSON.parse(board.stdout).scoring_judge).toBe(MAIN);
    expect(scoring(board.stdout)).toEqual({ m1: 2, m2: 3 });
    const trial = await zhujiu('leaderboard', '--judge', TRIAL, '--json');
    expect(trial.code, trial.stderr).toBe(0);
    expect(JSON.parse(trial.stdout).scoring_judge).toBe(TRIAL);
    expect(scoring(trial.stdout)).toEqual({ m1: 9, m2: 1 });
    // The stored board is still judge.model's.
    const again = await zhujiu('leaderboard', '--view', 'method', 'scoring');
    expect(again.stdout).toContain('scoring (judge main-judge): 2 of 2 models scored');
    expect(again.stdout).toContain('scoring = grades of judge main-judge (not shown: good-7b;');
    // A judge nobody knows is a usage mistake (exit 2); a known model without grades is exit 1.
    const unknown = await zhujiu('leaderboard', '--judge', 'nobody');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--judge nobody: no such judge: neither');
    const bad = await zhujiu('leaderboard', '--judge', 'm1');
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toBe(
      'error [not_found]: --judge m1: no grades of this judge are stored; judges with grades: good-7b, main-judge. Grade with `zhujiu judge run --judge m1` first',
    );

    const rep = await zhujiu('judge', 'report', '--model', 'm1', '--json');
    expect(rep.code, rep.stderr).toBe(0);
    expect(JSON.parse(rep.stdout).board_scoring).toEqual([
      { judge: MAIN, stored: true, scoring: 2, normalized: 0, abilities: { knowledge: 2 } },
    ]);
    const text = await zhujiu('judge', 'report', '--model', 'm1', '--judge', TRIAL);
    expect(text.stdout).toContain(
      'board (judge main-judge): m1 scoring 2.00, normalised 0.00; knowledge 2.00 (ten-point scale)',
    );
    expect(text.stdout).toContain(
      "board with judge good-7b's grades (a trial, not stored: `zhujiu leaderboard --judge good-7b`): m1 scoring 9.00, normalised 10.00; knowledge 9.00 (ten-point scale)",
    );
  });

  it('judge export writes {item, label} lines that judge agree reads unchanged (round trip)', async () => {
    const a = join(tmp, 'main.jsonl');
    const b = join(tmp, 'trial.jsonl');
    const ea = await zhujiu('judge', 'export', '--judge', MAIN, '--out', a);
    expect(ea.code, ea.stderr).toBe(0);
    expect(ea.stdout.trim()).toBe(`exported 2 grades by ${MAIN} to ${a}`);
    expect(readFileSync(a, 'utf8')).toBe(
      '{"item":"m1 know/q0","label":2}\n{"item":"m2 know/q0","label":3}\n',
    );
    const stdout = await zhujiu('judge', 'export', '--judge', TRIAL, '--model', 'm1');
    expect(stdout.stdout).toBe('{"item":"m1 know/q0","label":9}\n');
    expect(stdout.stderr.trim()).toBe(`exported 1 grade by ${TRIAL}`);
    expect((await zhujiu('judge', 'export', '--judge', TRIAL, '--out', b)).code).toBe(0);
    const agree = await zhujiu('judge', 'agree', a, b, '--json');
    expect(agree.code, agree.stderr).toBe(0);
    const j = JSON.parse(agree.stdout);
    expect(j.n).toBe(2);
    expect(j.exact).toBe(0);

    // A judge nobody knows is a usage mistake (exit 2); a known model without grades is exit 1.
    const unknown = await zhujiu('judge', 'export', '--judge', 'nobody');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--judge nobody: no such judge: neither');
    const none = await zhujiu('judge', 'export', '--judge', 'm1');
    expect(none.code).toBe(1);
    expect(none.stderr.trim()).toBe(
      'error [not_found]: --judge m1: no grades by this judge are stored; judges with single-answer records: good-7b, main-judge',
    );
    const folder = await zhujiu('judge', 'export', '--judge', MAIN, '--out', tmp);
    expect(folder.code).toBe(1);
  });
});
