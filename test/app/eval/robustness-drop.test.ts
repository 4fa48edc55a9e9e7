/**
 * The robustness ability end to end against the OpenAI fake (docs/scoring.md §2.7): `fragile` answers the clean C3
 * items right and their perturbed copies wrong (after an unrelated conversation, and when pressed again), `steady`
 * answers everything right. After `zhujiu eval` of the clean suite and the robustness suite, `fragile` has a low
 * robustness score and its model card shows the drop (PDR = 1 − perturbed / clean) against its own clean items.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/main.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { type FixtureItem, tagOf, writeSmokeFixture } from '../../helpers/eval-fixtures.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';

const zhujiu = (args: string[], rt: Runtime) => inProcess(args, { rt });

const CLEAN = `name: clean
datasets:
  - name: c3
    loader: c3
    ability: language
    method: metrics
    path: c3/c3-m-dev.json
`;
const base = '    base:\n      name: c3\n      loader: c3\n      path: c3/c3-m-dev.json\n';
const ROBUST = `name: robust
datasets:
  - name: robust_redundant_dialogue_c3
    loader: robustness
    task: redundant_dialogue
    ability: robustness
    method: metrics
    seed: 7
${base}  - name: robust_unique_solution_c3
    loader: robustness
    task: unique_solution
    ability: robustness
    method: metrics
    seed: 7
${base}`;

describe('robustness against the OpenAI fake', () => {
  let root: string;
  let fake: FakeOpenAi;
  let t: TestRuntime;
  let items: Map<number, FixtureItem>;

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'zhujiu-robust-'));
    items = writeSmokeFixture(join(root, 'datasets'), { c3: 6, ocnli: 1, cmrc: 1 }).items;
    const cfg = join(root, 'config');
    mkdirSync(join(cfg, 'suites'), { recursive: true });
    writeFileSync(join(cfg, 'suites', 'clean.yaml'), CLEAN);
    writeFileSync(join(cfg, 'suites', 'robust.yaml'), ROBUST);
    writeFileSync(join(cfg, 'default.yaml'), 'http:\n  port: 0\n');
    // A request is perturbed when it has more than the question: an earlier conversation or a follow-up.
    fake = await startFakeOpenAi({
      answer: (call) => {
        const first = call.messages.findIndex((m) => /Q\d+/.test(m.content));
        const it = items.get(
          tagOf({ ...call, messages: [call.messages[first] ?? call.messages[0]!] }),
        );
        if (!it) return { status: 400, content: 'unknown item' };
        const perturbed = call.messages.length > 1;
        return call.model === 'fragile-model' && perturbed ? it.wrong : it.right;
      },
    });
    writeFileSync(
      join(cfg, 'models.yaml'),
      `models:\n${['fragile', 'steady']
        .map(
          (m) =>
            `  - name: ${m}\n    provider: openai\n    base_url: ${fake.baseUrl}\n    model: ${m}-model\n    max_retries: 0\n`,
        )
        .join('')}`,
    );
    t = await openTestRuntime({
      ZHUJIU_CONFIG_DIR: cfg,
      ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
      ZHUJIU_VOTER_SECRET: 'robustness-test-secret-0123456789',
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('runs the clean and robustness suites for both models; the fragile model gets a low robustness score and its card shows the drop', async () => {
    // Step 1: runs the clean and the robustness suites for both models
    {
      for (const model of ['fragile', 'steady'])
        for (const suite of ['clean', 'robust']) {
          const r = await zhujiu(['eval', '--model', model, '--suite', suite], t.rt);
          expect(r.code, r.stderr).toBe(0);
        }
      // Unique Solution asks each item three times, with the model's own earlier answers in the history.
      const pressed = fake.calls.filter((c) =>
        c.messages.some((m) => m.content.startsWith('你确定吗')),
      );
      expect(pressed.length).toBe(2 * 6 * 2);
      expect(pressed[0]?.messages.at(-2)?.role).toBe('assistant');
    }

    // Step 2: the fragile model gets a low robustness score and its card shows the drop
    {
      const board = JSON.parse((await zhujiu(['leaderboard', '--all', '--json'], t.rt)).stdout) as {
        models: { model: string; abilities: Record<string, number | null> }[];
      };
      const ability = (m: string) => board.models.find((r) => r.model === m)?.abilities.robustness;
      expect(ability('fragile')).toBe(0);
      expect(ability('steady')).toBe(10);
      const card = JSON.parse(
        (await zhujiu(['leaderboard', '--view', 'model', 'fragile', '--json'], t.rt)).stdout,
      ) as { robustness: unknown[] };
      expect(card.robustness).toEqual([
        {
          dataset: 'robust_redundant_dialogue_c3',
          base: 'c3',
          n: 6,
          perturbed: 0,
          clean: 10,
          pdr: 1,
        },
        { dataset: 'robust_unique_solution_c3', base: 'c3', n: 6, perturbed: 0, clean: 10, pdr: 1 },
      ]);
      const steady = JSON.parse(
        (await zhujiu(['leaderboard', '--view', 'model', 'steady', '--json'], t.rt)).stdout,
      ) as { robustness: { pdr: number }[] };
      expect(steady.robustness.map((d) => d.pdr)).toEqual([0, 0]);
      const text = (await zhujiu(['leaderboard', '--view', 'model', 'fragile'], t.rt)).stdout;
      expect(text).toContain('Robustness: score and drop against the clean base items');
      expect(text).toContain(
        'robust_redundant_dialogue_c3: 0.00 vs clean c3 10.00, drop 100.0% (6 items)',
      );
    }
  });
});
