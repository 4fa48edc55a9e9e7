/**
 * `zhujiu results`: a run made by `zhujiu eval` against the OpenAI fake (the mini suite: 2 items each of c3, ocnli
 * and cmrc2018), read back item by item as JSON lines and CSV, with the --dataset, --ability and --failed filters
 * and the errors for an unknown run, dataset or ability. In-process through `runCli` on one embedded database.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { RESULT_COLUMNS } from '../../../src/eval/item-results.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../fakes/openai.ts';
import { miniEvalFolder, tagOf } from '../../helpers/eval-fixtures.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-results-'));
let fake: FakeOpenAi;
let t: TestRuntime;
const zhujiu = (args: string[]) => inProcess(args, { rt: t.rt });

/** Items 0–1 are c3, 2–3 ocnli, 4–5 cmrc2018 (writeSmokeFixture). */
beforeAll(async () => {
  fake = await startFakeOpenAi();
  fake.setAnswer((call) => {
    const n = tagOf(call);
    if (n === 3) return { status: 400, content: 'the endpoint refused <this> request' };
    if (n === 0) return '<think>先读材料, "再"选。</think>答案：A';
    if (n === 1) return '答案：<b>B</b>, "quoted"\nsecond line';
    if (n === 4) return '答案4号';
    return '不知道';
  });
  const env = miniEvalFolder(root, fake.baseUrl, inject('pgliteTemplate'));
  t = await openTestRuntime(env);
  const r = await zhujiu(['eval', '--model', 'erry', '--suite', 'mini']);
  // One failed item of six is above eval.max_failure_rate: exit 1, every item stored.
  expect(r.stderr).toContain('6/6 items, 1 failed');
}, 120_000); // a guard only: opening the database and the run take seconds, more on a loaded machine
afterAll(async () => {
  await t?.close();
  await fake?.close();
  rmSync(root, { recursive: true, force: true });
});

type Rec = Record<(typeof RESULT_COLUMNS)[number], unknown>;
const lines = (s: string): Rec[] =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Rec);

describe('zhujiu results', () => {
  it('lists the runs without --run', async () => {
    const r = await zhujiu(['results']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^run {2}model {2}suite {2}status +items \(finished \/ failed \/ planned\)$/m,
    );
    expect(r.stdout).toMatch(/^ {2}1 {2}erry {3}mini {3}\w+ +\d+ \/ 1 \/ 6$/m);
  });

  it('lists the runs in Chinese: statuses in words, columns aligned by terminal columns', async () => {
    const r = await inProcess(['results'], { rt: t.rt, env: { LANG: 'zh_CN.UTF-8' } });
    expect(r.code, r.stderr).toBe(0);
    const [head, rule, row] = r.stdout.split('\n') as [string, string, string];
    expect(head).toMatch(/^评测任务 {2}模型 {2}评测套件 {2}状态 +题目（已完成 \/ 失败 \/ 计划）$/);
    expect(row).toMatch(/^ {7}1 {2}erry {2}mini {6}(已完成|失败) +\d+ \/ 1 \/ 6$/);
    // Each column starts where its header does, counting a Chinese character as two terminal columns.
    const starts = (l: string) => {
      const out: number[] = [];
      let col = 0;
      let prev = ' ';
      for (const ch of l) {
        if (ch !== ' ' && prev === ' ') out.push(col);
        col += /[\u4e00-\u9fff（）]/.test(ch) ? 2 : 1;
        prev = ch;
      }
      return out;
    };
    expect(starts(head).slice(0, 5)).toEqual(starts(rule));
    // The run number is right-aligned; the other columns start with their header.
    expect(starts(row).slice(1, 5)).toEqual(starts(rule).slice(1));
  });

  it('a --dataset or --ability the run lacks is refused in Chinese: the run as #1, abilities by their Chinese names', async () => {
    const r = await inProcess(['results', '--run', '1', '--ability', 'safety'], {
      rt: t.rt,
      env: { LANG: 'zh_CN.UTF-8' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^错误 \[not_found\]：--ability 安全：评测任务 #1 没有这项能力的题目；它的能力有：语言、推理$/m,
    );
  });

  it('an ability typed by its Chinese name is echoed by the name its reader uses, never only by its id', async () => {
    const zh = await inProcess(['results', '--run', '1', '--ability', '知识'], {
      rt: t.rt,
      env: { LANG: 'zh_CN.UTF-8' },
    });
    expect(zh.stderr.trim()).toBe(
      '错误 [not_found]：--ability 知识：评测任务 #1 没有这项能力的题目；它的能力有：语言、推理',
    );
    const en = await zhujiu(['results', '--run', '1', '--ability', '知识']);
    expect(en.stderr.trim()).toBe(
      'error [not_found]: --ability knowledge: run #1 has no items of this ability; its abilities are language, reasoning',
    );
  });

  it('jsonl: one record per item with prompt, answer, reasoning apart, extracted answer, score, failure cause', async () => {
    const r = await zhujiu(['results', '--run', '1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe('6 items of run #1 (erry, mini) (jsonl)');
    const recs = lines(r.stdout);
    expect(recs.map((x) => [x.dataset, x.ability, x.status])).toEqual([
      ['c3', 'language', 'done'],
      ['c3', 'language', 'done'],
      ['ocnli', 'reasoning', 'done'],
      ['ocnli', 'reasoning', 'failed'],
      ['cmrc2018', 'language', 'done'],
      ['cmrc2018', 'language', 'done'],
    ]);
    const [first, second, , failed, right] = recs as [Rec, Rec, Rec, Rec, Rec];
    expect(Object.keys(first)).toEqual([...RESULT_COLUMNS]);
    expect(first).toMatchObject({
      run: 1,
      model: 'erry',
      suite: 'mini',
      answer: '答案：A',
      reasoning: '先读材料, "再"选。',
      extracted: 'A',
      score: 1,
      max_score: 1,
      failure_code: null,
    });
    expect(String(first.prompt)).toContain('Q0');
    expect(second).toMatchObject({ extracted: 'B', score: 1, reasoning: null });
    expect(failed).toMatchObject({ status: 'failed', score: null, answer: null });
    expect(failed.failure_code).toBeTruthy();
    expect(String(failed.failure_message)).toContain('400');
    expect(right).toMatchObject({ answer: '答案4号', score: 1 });
    expect(recs.map((x) => x.item_id)).toEqual(
      [...recs.map((x) => x.item_id as number)].sort((a, b) => a - b),
    );
  });

  it('csv: RFC 4180 with a header row; commas, quotes and line breaks survive a parse', async () => {
    const r = await zhujiu(['results', '--run', '1', '--format', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\r\n')[0]).toBe(RESULT_COLUMNS.join(','));
    const rows = parse(r.stdout, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(6);
    expect(rows[1]?.answer).toBe('答案：<b>B</b>, "quoted"\nsecond line');
    expect(rows[0]?.reasoning).toBe('先读材料, "再"选。');
    expect(rows[3]?.score).toBe('');
    expect(JSON.parse(rows[0]?.detail ?? '')).toMatchObject({ extracted: 'A' });
  });

  it('--dataset, --ability and --failed filter; --out writes the file', async () => {
    const d = lines((await zhujiu(['results', '--run', '1', '--dataset', 'ocnli'])).stdout);
    expect(d.map((x) => x.dataset)).toEqual(['ocnli', 'ocnli']);
    const a = lines((await zhujiu(['results', '--run', '1', '--ability', 'reasoning'])).stdout);
    expect(a).toHaveLength(2);
    const f = await zhujiu(['results', '--run', '1', '--failed']);
    expect(lines(f.stdout).map((x) => [x.dataset, x.status])).toEqual([['ocnli', 'failed']]);
    const none = await zhujiu([
      'results',
      '--run',
      '1',
      '--dataset',
      'c3',
      '--failed',
      '--format',
      'csv',
    ]);
    expect(none.code).toBe(0);
    expect(none.stdout).toBe(`${RESULT_COLUMNS.join(',')}\r\n`);
    const out = join(root, 'r.csv');
    const w = await zhujiu(['results', '--run', '1', '--format', 'csv', '--out', out]);
    expect(w.code, w.stderr).toBe(0);
    expect(w.stdout.trim()).toBe(`6 items of run #1 (erry, mini) written to ${out} (csv)`);
    expect(parse(readFileSync(out, 'utf8'), { columns: true })).toHaveLength(6);
    expect(readdirSync(root).filter((x) => x.endsWith('.tmp'))).toEqual([]);
  });

  it('--bom starts the CSV with the UTF-8 byte-order mark (EF BB BF) for Excel; without it the bytes start with the header', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const withBom = join(root, 'bom.csv');
    const w = await zhujiu(['results', '--run', '1', '--format', 'csv', '--bom', '--out', withBom]);
    expect(w.code, w.stderr).toBe(0);
    const bytes = readFileSync(withBom);
    expect(bytes.subarray(0, 3)).toEqual(bom);
    expect(bytes.subarray(3, 7).toString()).toBe('run,');
    expect(parse(bytes, { columns: true, bom: true })).toHaveLength(6);
    const plain = join(root, 'plain.csv');
    expect((await zhujiu(['results', '--run', '1', '--format', 'csv', '--out', plain])).code).toBe(
      0,
    );
    expect(readFileSync(plain).subarray(0, 4).toString()).toBe('run,');
    // Standard output too: the mark only when asked, so a pipe gets plain CSV by default.
    const piped = await zhujiu(['results', '--run', '1', '--format', 'csv', '--bom']);
    expect(Buffer.from(piped.stdout).subarray(0, 3)).toEqual(bom);
    const bare = await zhujiu(['results', '--run', '1', '--format', 'csv']);
    expect(Buffer.from(bare.stdout).subarray(0, 4).toString()).toBe('run,');
  });

  it('--bom is refused for JSON lines and without --run (exit 2), in both languages', async () => {
    const jsonl = await zhujiu(['results', '--run', '1', '--bom']);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stdout).toBe('');
    expect(jsonl.stderr).toContain(
      'error: --bom is for CSV (--format csv): JSON lines start with their first record; drop --bom or add --format csv',
    );
    const zh = await inProcess(['results', '--run', '1', '--bom'], {
      rt: t.rt,
      env: { LANG: 'zh_CN.UTF-8' },
    });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toContain('--bom 只用于 CSV（--format csv）');
    const noRun = await zhujiu(['results', '--bom']);
    expect(noRun.code).toBe(2);
    expect(noRun.stderr).toContain('--dataset, --ability, --failed, --out and --bom need --run N');
  });

  it('a reader that closes stdout (EPIPE) ends it quietly with exit 0', async () => {
    let writes = 0;
    const stdout = new Writable({
      write(_chunk, _enc, cb) {
        writes++;
        cb(Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' }));
      },
    });
    stdout.on('error', () => {}); // as cli/io.ts watchStdout does for process.stdout
    const r = await inProcess(['results', '--run', '1', '--format', 'csv'], { rt: t.rt, stdout });
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(writes).toBe(1);
  });

  it('an unknown run (exit 1), dataset or ability (exit 2): one line naming it and what there is', async () => {
    const r = await zhujiu(['results', '--run', '99']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      'error [not_found]: --run 99: there is no evaluation run #99; `zhujiu results` without --run lists the runs (or open /runs on the HTTP server)',
    );
    // A dataset no suite and no stored run knows is a usage mistake (exit 2), closest names first, did-you-mean.
    const d = await zhujiu(['results', '--run', '1', '--dataset', 'ocnlii']);
    expect(d.code).toBe(2);
    expect(d.stderr).toMatch(
      /^error \[input_invalid\]: --dataset ocnlii: no such dataset: no suite of .*suites\/ lists it and none is stored; the datasets are ocnli, c3, cmrc2018\. Did you mean "ocnli"\?\n$/,
    );
    expect(d.stdout).toBe('');
    const a = await zhujiu(['results', '--run', '1', '--ability', 'safety']);
    expect(a.stderr).toContain('its abilities are language, reasoning');
    const u = await zhujiu(['results', '--run', '1', '--format', 'xml']);
    expect(u.code).toBe(2);
    const n = await zhujiu(['results', '--failed']);
    expect(n.code).toBe(2);
    expect(n.stderr).toContain('need --run N');
  });
});
