/**
 * The evaluation run's progress and summary messages (bot/eval-reporter.ts, with eval/summary.ts) in zh-CN
 * (docs/architecture.md "Languages"): Chinese through every renderer, with no English words but data (model,
 * suite, dataset and judge names, failure codes and their recorded messages) and names of things (EM, F1, CMRC);
 * and the English the command line prints, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { progressContent, summaryContent } from '../../../src/bot/eval-reporter.ts';
import { renderDiscordMessages } from '../../../src/chat/discord/render.ts';
import { renderPlain } from '../../../src/chat/shell/render.ts';
import { renderSlackMessages } from '../../../src/chat/slack/render.ts';
import {
  endedText,
  failureLine,
  formatDuration,
  type RunSummary,
  spanFigureLines,
} from '../../../src/eval/summary.ts';
import type { RunRow } from '../../../src/storage/eval-runs.ts';

const CJK = /[\u3400-\u9fff]/u;

/** The English words of `s` (3 or more Latin letters) once the data and names are taken out (longest first). */
function englishWords(s: string, data: readonly string[]): string[] {
  let rest = s;
  for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.replaceAll(d, ' ');
  return rest.match(/[A-Za-z]{3,}/gu) ?? [];
}

const RUN: RunRow = {
  id: 7,
  modelId: 1,
  model: 'qwen-7b',
  suite: 'mini',
  status: 'running',
  requestedBy: null,
  reportPlatform: 'discord',
  reportChannel: 'c1',
  reportMessage: null,
  done: 30,
  total: 90,
  failed: 2,
  promptTokens: 1200,
  completionTokens: 300,
  itemLimit: null,
  seed: 1,
  config: {},
  error: null,
  errorTexts: null,
  createdAt: new Date(0),
  startedAt: new Date(0),
  finishedAt: null,
  heartbeatAt: null,
  summaryPostedAt: null,
};

const SUMMARY: RunSummary = {
  run: { ...RUN, status: 'succeeded', finishedAt: new Date(125_000) },
  datasets: [
    {
      dataset: 'cmrc2018',
      ability: 'knowledge',
      method: 'metrics',
      metric: 'char_f1',
      profile: 'cmrc2018',
      score: 7.5,
      n: 6,
      earned: 4.5,
      possible: 6,
      failures: 0,
      judgeFailures: 0,
      span: { em: 50, f1: 75, average: 62.5 },
    },
    {
      dataset: 'open-qa',
      ability: 'language',
      method: 'scoring',
      metric: 'rubric',
      profile: 'rubric',
      score: 6,
      n: 3,
      earned: 18,
      possible: 30,
      failures: 1,
      judgeFailures: 1,
      judged: '3 of 4 judged',
      judge: 'judge-x',
    },
  ],
  failureReasons: [
    {
      code: 'judge_unparseable',
      message: 'no grade in the reply',
      n: 1,
      items: [{ dataset: 'open-qa', key: '4', head: '' }],
    },
  ],
  promptTokens: 1200,
  completionTokens: 300,
  wallMs: 125_000,
};

/** Data and names of things a Chinese message shows as they are. */
const DATA = [
  'qwen-7b',
  'mini',
  'cmrc2018',
  'open-qa',
  'judge-x',
  'judge_unparseable',
  'no grade in the reply',
  'AVERAGE',
  'CMRC',
  'eval.max_failure_rate',
];

/** The texts a rendered message shows: its string values, minus those of structural keys (block types, ids). */
function shownTexts(x: unknown, key = ''): string[] {
  if (typeof x === 'string') return ['type', 'style', 'block_id'].includes(key) ? [] : [x];
  if (Array.isArray(x)) return x.flatMap((y) => shownTexts(y, key));
  if (x && typeof x === 'object') return Object.entries(x).flatMap(([k, v]) => shownTexts(v, k));
  return [];
}

/** Each render of a message: Discord's, Slack's (their shown texts) and the terminal's. */
function renders(c: Parameters<typeof renderPlain>[0]): string[] {
  return [
    ...renderDiscordMessages(c).map((m) => shownTexts(m).join('\n')),
    ...renderSlackMessages(c).map((m) => shownTexts(m).join('\n')),
    renderPlain(c),
  ];
}

describe('evaluation run messages in zh-CN', () => {
  it('the progress message, queued, preparing, running and ended, is Chinese', () => {
    const now = new Date(10_000);
    const texts = [
      progressContent({ ...RUN, status: 'queued' }, now, 'zh-CN').text,
      progressContent({ ...RUN, total: 0 }, now, 'zh-CN').text,
      progressContent(RUN, now, 'zh-CN').text,
      progressContent({ ...RUN, status: 'cancelled' }, now, 'zh-CN').text,
    ];
    expect(texts[2]).toBe(
      '评测任务 #7：qwen-7b，评测套件 mini：30/90 题，2 个失败，每秒 3.0 题，大约还需 20.0 秒',
    );
    expect(texts[3]).toBe('评测任务 #7：qwen-7b，评测套件 mini（已取消）：30/90 题，2 个失败');
    for (const s of texts) {
      expect(s).toMatch(CJK);
      expect(englishWords(s, DATA), s).toEqual([]);
    }
  });

  it('the summary message is Chinese through every renderer, above the failure rate too', () => {
    const c = summaryContent(SUMMARY, 0.05, 'zh-CN');
    expect(c.text).toBe('评测任务 #7 已结束，有 1 个评审失败：qwen-7b，评测套件 mini');
    expect(c.table?.columns).toEqual(['数据集', '能力', '得分 /10', '题数', '失败']);
    expect(c.table?.rows[1]).toEqual([
      'open-qa',
      '语言',
      '6.00',
      '4 道中已评判 3 道（评审模型 judge-x）',
      '1',
    ]);
    expect(c.footer).toContain('用时 2 分 05 秒。');
    expect(c.footer).toContain(
      '警告：10 道题中有 1 道失败（10.0%），超过了 eval.max_failure_rate 0.05；',
    );
    for (const r of renders(c)) {
      expect(r).toMatch(CJK);
      expect(englishWords(r, DATA), r).toEqual([]);
    }
    const failed = summaryContent(
      { ...SUMMARY, run: { ...SUMMARY.run, status: 'failed', error: 'boom' } },
      undefined,
      'zh-CN',
    );
    expect(failed.text).toBe('评测任务 #7 失败了：boom：qwen-7b，评测套件 mini');
  });

  it('the command line keeps its English', () => {
    expect(endedText(SUMMARY)).toBe('finished with 1 judge failure');
    expect(formatDuration(3_725_000)).toBe('1 h 02 min');
    expect(spanFigureLines(SUMMARY)).toEqual([
      'cmrc2018: EM 50.000, F1 75.000, AVERAGE 62.500 (CMRC 2018 official script, 0–100, 6 scored items)',
    ]);
    expect(failureLine(SUMMARY.failureReasons[0] as RunSummary['failureReasons'][number])).toBe(
      '1 item × judge_unparseable: no grade in the reply; item open-qa "4"',
    );
    // An item with the start of its prompt: ASCII quotes and brackets in English, full-width in Chinese.
    const withPrompt = {
      code: 'judge_unparseable',
      message: 'no grade in the reply',
      n: 2,
      items: [{ dataset: 'open-qa', key: '4', head: '长城有多长？' }],
    };
    expect(failureLine(withPrompt)).toBe(
      '2 items × judge_unparseable: no grade in the reply; e.g. open-qa "4" ("长城有多长？")',
    );
    expect(failureLine(withPrompt, 'zh-CN')).toMatch(/；例如 open-qa “4”（“长城有多长？”）$/u);
    expect(summaryContent(SUMMARY).text).toBe(
      'Evaluation run #7 finished with 1 judge failure: qwen-7b on mini',
    );
  });
});
