/**
 * Names a flag takes that neither the configuration nor the stored data know are usage mistakes (exit 2, README
 * "Command line"), refused with the known names, closest first, and a "did you mean", in both languages: the
 * board's model, ability and method views (Chinese display names accepted), `judge report --model`,
 * `judge export --judge`, `ratings --anchor`; a refusal with two problems says each on its own line. Votes
 * imported without ability labels say why no model is ranked. In-process through `runCli` on one embedded database.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

describe('names no configuration or stored data knows', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-known-'));
  let t: TestRuntime;
  const zhujiu = (...args: string[]) => inProcess(args, { rt: t.rt });
  const zh = (...args: string[]) => inProcess(args, { rt: t.rt, env: { LANG: 'zh_CN.UTF-8' } });
  beforeAll(async () => {
    const cfg = join(tmp, 'config');
    cpSync(join(PROJECT_ROOT, 'config'), cfg, { recursive: true });
    writeFileSync(
      join(cfg, 'models.yaml'),
      'models:\n  - name: far\n    provider: openai\n    base_url: http://127.0.0.1:9/v1\n    model: f\n',
    );
    t = await openTestRuntime({ ZHUJIU_CONFIG_DIR: cfg });
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) {
      const winner = ['model_a', 'model_b', 'tie'][i % 3];
      lines.push(JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna-13b', winner }));
    }
    // The file's name gives the source: `battles`, which the board does not count by default.
    writeFileSync(join(tmp, 'battles.jsonl'), `${lines.join('\n')}\n`);
    const r = await zhujiu('import', 'battles', join(tmp, 'battles.jsonl'));
    expect(r.code, r.stderr).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('--source: a misspelled stored source is exit 2 with a did-you-mean', async () => {
    const r = await zhujiu('ratings', '--source', 'battels');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Did you mean "battles"?');
  });

  it('leaderboard NAME: a model nobody knows is exit 2 with a did-you-mean; a known one off the board exit 1', async () => {
    const typo = await zhujiu('leaderboard', '--source', 'battles', 'gpt4');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(
      /^error \[input_invalid\]: no model "gpt4" on the board; models: gpt-4, vicuna-13b;/,
    );
    expect(typo.stderr).toContain('. Did you mean "gpt-4"?\n');
    const none = await zhujiu('leaderboard', 'nosuch-model');
    expect(none.code).toBe(2);
    expect(none.stderr).not.toContain('Did you mean');
    const zhTypo = await zh('leaderboard', '--source', 'battles', 'gpt4');
    expect(zhTypo.code).toBe(2);
    expect(zhTypo.stderr).toContain('。你是不是想输入“gpt-4”？');
    // Stored (imported votes) or configured, but not on this board: exit 1 as before.
    expect((await zhujiu('leaderboard', 'gpt-4')).code).toBe(1);
    expect((await zhujiu('leaderboard', 'far')).code).toBe(1);
  });

  it('abilities and methods: a misspelling gets a did-you-mean, the Chinese names are accepted', async () => {
    const typo = await zhujiu('leaderboard', '--view', 'ability', 'knowlege');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toBe(
      'error [input_invalid]: Unknown ability "knowlege". Use one of: knowledge, chinese_specific, language, reasoning, refusal, safety, robustness. Did you mean "knowledge"?\n',
    );
    const zhTypo = await zh('leaderboard', '--view', 'method', 'comparitive');
    expect(zhTypo.code).toBe(2);
    expect(zhTypo.stderr).toContain('你是不是想输入“comparative”？');
    // In Chinese the known abilities and methods are listed by their Chinese names.
    expect(zhTypo.stderr).toContain('请使用以下之一：指标评估、打分评估、对比评估。');
    const zhAbility = await zh('leaderboard', '--view', 'ability', '知识x');
    expect(zhAbility.code).toBe(2);
    expect(zhAbility.stderr).toContain(
      '请使用以下之一：知识、中文特定、语言、推理、拒答、安全、鲁棒性。你是不是想输入“知识”？',
    );
    for (const run of [zhujiu, zh]) {
      const ability = await run('leaderboard', '--view', 'ability', '知识', '--json');
      expect(ability.code, ability.stderr).toBe(0);
      expect(JSON.parse(ability.stdout)).toMatchObject({ ability: 'knowledge' });
      const method = await run('leaderboard', '--view', 'method', '对比评估', '--json');
      expect(method.code, method.stderr).toBe(0);
      expect(JSON.parse(method.stdout)).toMatchObject({ method: 'comparative' });
      // A bare Chinese name is the ability or method view too, not a model.
      expect((await run('leaderboard', '安全')).stdout).toMatch(
        /== (Ability: safety|能力：安全) ==/,
      );
    }
  });

  it('judge report --model, judge export --judge and ratings --anchor: unknown names exit 2', async () => {
    const report = await zhujiu('judge', 'report', '--model', 'gpt4');
    expect(report.code).toBe(2);
    expect(report.stderr).toMatch(
      /^error \[input_invalid\]: --model gpt4: no such model: neither \/.*\/models\.yaml nor the stored data know it; the models are gpt-4, far, vicuna-13b\. Did you mean "gpt-4"\?\n$/,
    );
    expect((await zhujiu('judge', 'report', '--model', 'gpt-4')).code).toBe(0);
    const judge = await zhujiu('judge', 'report', '--model', 'gpt-4', '--judge', 'fra');
    expect(judge.code).toBe(2);
    expect(judge.stderr).toContain('--judge fra: no such judge: neither');
    expect(judge.stderr).toContain('. Did you mean "far"?');
    const baseline = await zhujiu('judge', 'report', '--model', 'gpt-4', '--baseline', 'vicuna13b');
    expect(baseline.code).toBe(2);
    expect(baseline.stderr).toContain('Did you mean "vicuna-13b"?');
    const exp = await zh('judge', 'export', '--judge', 'nosuch');
    expect(exp.code).toBe(2);
    expect(exp.stderr).toMatch(/^错误 \[input_invalid\]：--judge nosuch：没有这个评审模型：/);
    const anchor = await zhujiu('ratings', '--source', 'battles', '--anchor', 'gpt4=1000');
    expect(anchor.code).toBe(2);
    expect(anchor.stderr).toBe(
      'error [input_invalid]: --anchor model "gpt4" is not in the data, the configuration or the stored models; the rated models are gpt-4, vicuna-13b. Did you mean "gpt-4"?\n',
    );
    // A configured model without votes here is a data problem (exit 1), as before.
    const far = await zhujiu('ratings', '--source', 'battles', '--anchor', 'far=1000');
    expect(far.code).toBe(1);
    expect(far.stderr).toContain('--anchor model "far" is not in the data (2 models)');
  });

  it('a misspelled --source gets a did-you-mean', async () => {
    const r = await zhujiu('leaderboard', '--source', 'battels');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/or fix the name\. Did you mean "battles"\?\n$/);
    const z = await zh('export', 'battles', '--source', 'battels');
    expect(z.code).toBe(2);
    expect(z.stderr).toMatch(/。你是不是想输入“battles”？\n$/);
  });

  it('eval with two unknown names says each on its own line', async () => {
    for (const run of [zhujiu, zh]) {
      const r = await run('eval', '--model', 'fake-god', '--suite', 'smok');
      expect(r.code).toBe(2);
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(2);
      expect(lines[0]).toMatch(/(Did you mean "smoke"\?|你是不是想输入“smoke”？)$/);
      expect(lines[1]).toMatch(/^(Unknown model "fake-god"|未知的模型“fake-god”)/);
    }
  });

  it('votes without an ability label: the unranked reason says so, the note says how to fix it', async () => {
    const en = await zhujiu('leaderboard', '--source', 'battles', '--all');
    expect(en.stdout).toContain(
      'not ranked: none of its 30 votes has an ability label (the note under the board says how to add one)',
    );
    expect(en.stdout).toContain('import them again with `--ability` under a new `--source`');
    const z = await zh('leaderboard', '--source', 'battles', '--all');
    expect(z.stdout).toContain('未排名：它的 30 票都没有能力标签（排行榜下方的说明写了如何补上）');
    expect(z.stdout).not.toContain('每项能力的投票都少于');
    // The source `battles` is not counted by default: the plain board says where the votes are.
    const plain = await zhujiu('leaderboard');
    expect(plain.stderr).toContain('another source holds votes: battles (30 votes)');
  });

  it('ratings --battles with a CSV table says so, as import battles does', async () => {
    const csv = join(tmp, 'votes.csv');
    writeFileSync(csv, 'model_a,model_b,winner\ngpt-4,vicuna-13b,model_a\n');
    const r = await zhujiu('ratings', '--battles', csv);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error [rating_input_invalid]: ${csv}:1: this looks like a CSV table, not JSON; \`zhujiu ratings --battles\` takes JSON Lines of battles {"model_a","model_b","winner"} or of pair counts {"model_a","model_b","model_a_wins","model_b_wins","tie","tie_bothbad"}: convert the table first\n`,
    );
    const z = await zh('ratings', '--battles', csv);
    expect(z.stderr).toContain('这看起来是 CSV 表格，不是 JSON');
  });
});

describe('a misspelled suite key', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-suitekey-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('is one error naming the key with a did-you-mean, not also a missing datasets:', async () => {
    const cfg = join(tmp, 'config');
    cpSync(join(PROJECT_ROOT, 'config'), cfg, { recursive: true });
    const file = join(cfg, 'suites', 'x.yaml');
    writeFileSync(
      file,
      'name: x\ndatasetz:\n  - name: c3\n    loader: c3\n    ability: language\n    method: metrics\n    path: c3/c3-m-dev.sample.json\n',
    );
    const env = { ZHUJIU_CONFIG_DIR: cfg, ZHUJIU_DATA_DIR: join(tmp, 'data'), DATABASE_URL: '' };
    const r = await inProcess(['config', 'check', '--no-connect'], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `error [config_invalid]: ${file}:2:1 datasetz: unknown key "datasetz": remove it or fix the spelling; did you mean "datasets"? The keys here are name, description, include, datasets\n`,
    );
    // Without the misspelling, a suite with neither key is still refused.
    writeFileSync(file, 'name: x\n');
    const empty = await inProcess(['config', 'check', '--no-connect'], { env });
    expect(empty.stderr).toContain('a suite needs `datasets:`');
  });
});
