/**
 * The reasons services hand to chat (docs/architecture.md "Languages"): an evaluation run refused or not cancelled
 * (eval/refusal.ts), a submission refused (eval/submission-problems.ts), a battle not posted (arena/message.ts
 * `postRefusalText`) and the adapters' no-access errors (chat/no-access.ts) are codes with parameters, said in
 * zh-CN with no English words but data (model, suite, file and variable names), typed commands and config keys;
 * and in English as the command line and the logs have always said them.
 */
import { describe, expect, it } from 'vitest';
import { postRefusalText } from '../../../src/arena/message.ts';
import { handleEval } from '../../../src/bot/commands/eval.ts';
import { ChatNoAccessError, noAccessText } from '../../../src/chat/no-access.ts';
import type { CommandContext, MessageContent } from '../../../src/chat/port.ts';
import { missingKeyReason } from '../../../src/config/start-checks.ts';
import { type EvalRefusal, evalRefusalText } from '../../../src/eval/refusal.ts';
import type { EvalService } from '../../../src/eval/service.ts';
import {
  type SubmissionProblem,
  submissionProblemText,
} from '../../../src/eval/submission-problems.ts';

const CJK = /[\u3400-\u9fff]/u;

/** The English words of `s` (3 or more Latin letters) once code spans, data and allowed words are taken out. */
function englishWords(s: string, data: readonly string[]): string[] {
  let rest = s.replace(/`[^`]*`/gu, ' ');
  // Longest first, so that a name inside a longer one (API in ACME_API_KEY) leaves no part of it behind.
  for (const d of [...data].sort((a, b) => b.length - a.length)) rest = rest.replaceAll(d, ' ');
  return rest.match(/[A-Za-z]{3,}/gu) ?? [];
}

/** Config keys, files and names of things that stay as they are in Chinese. */
const NAMES = [
  '/submit list',
  '/arena',
  '/eval',
  'config/models.yaml',
  'config/default.yaml',
  'config/suites/*.yaml',
  'api_key_env',
  'judge.model',
  'method: scoring',
  'name、provider、base_url、model',
  'submissions.suites',
  'ZHUJIU_DATASETS_DIR',
  '../shared/data/datasets',
  'Where the files are',
  'README',
  'OpenAI',
  'API',
  'URL',
  'http(s)',
  'https://api.example.com/v1',
  'http://',
  'https://',
  'Discord',
  'Slack',
  'Missing Access',
  'Missing Permissions',
  'ACME_API_KEY',
  'eval',
];

const RUN = {
  id: 16,
  model: 'qwen',
  suite: 'mini',
  status: 'running',
  done: 3,
  total: 20,
} as const;

const REFUSALS: readonly EvalRefusal[] = [
  { code: 'unknown_suite', suite: 'mini-typo', valid: ['mini', 'smoke'] },
  { code: 'unknown_suite', suite: 'mini-typo', valid: [] },
  { code: 'unknown_model', model: 'gpt 4', valid: ['qwen'] },
  { code: 'unknown_model', model: 'gpt 4', valid: [] },
  {
    code: 'suite_not_evaluable',
    suite: 'alpaca-eval',
    datasets: [{ name: 'alpaca_eval', method: 'comparative' }],
    runnable: ['mini'],
  },
  { code: 'model_disabled', model: 'qwen', variable: 'QWEN_API_KEY', empty: false },
  { code: 'judge_disabled', suite: 'mini', judge: 'qwen', variable: 'QWEN_API_KEY', empty: true },
  { code: 'submission_key_unset', model: 'acme', variable: 'ACME_KEY' },
  { code: 'judge_missing', suite: 'mini' },
  { code: 'judge_not_openai', suite: 'mini', judge: 'rec' },
  { code: 'run_active', run: RUN },
  { code: 'files_missing', suite: 'mini', dir: '/data/datasets', files: ['a.jsonl', 'b.jsonl'] },
  { code: 'no_run', run: 99 },
  { code: 'run_finished', run: 16, status: 'succeeded' },
  { code: 'no_submission_suites', fallback: 'zhujiu-metrics' },
];

const DATA = [
  'mini-typo',
  'mini',
  'smoke',
  'gpt 4',
  'qwen',
  'alpaca_eval',
  'alpaca-eval',
  'QWEN_API_KEY',
  'ACME_KEY',
  'acme',
  'rec',
  '/data/datasets',
  'a.jsonl',
  'b.jsonl',
  'zhujiu-metrics',
];

describe('reasons handed to chat, in zh-CN', () => {
  it('every evaluation refusal is Chinese, in both surfaces', () => {
    for (const r of REFUSALS)
      for (const surface of ['chat', 'cli'] as const) {
        const zh = evalRefusalText(r, 'zh-CN', surface);
        expect(zh, r.code).toMatch(CJK);
        expect(englishWords(zh, [...DATA, ...NAMES]), `${r.code}: ${zh}`).toEqual([]);
      }
    expect(evalRefusalText(REFUSALS[0] as EvalRefusal, 'zh-CN', 'chat')).toBe(
      '未知的评测套件“mini-typo”。可用的评测套件：mini、smoke。',
    );
    expect(evalRefusalText({ code: 'run_active', run: RUN }, 'zh-CN', 'chat')).toBe(
      '模型 qwen 在评测套件 mini 上已有评测任务 #16（状态：进行中，3/20 题）。请等待它完成，或用 `/eval cancel 16` 取消它。',
    );
  });

  it('the English is what the command line and the logs say', () => {
    expect(evalRefusalText(REFUSALS[0] as EvalRefusal, 'en', 'chat')).toBe(
      'Unknown suite "mini-typo". Valid suites: mini, smoke.',
    );
    expect(evalRefusalText(REFUSALS[5] as EvalRefusal, 'en', 'cli')).toBe(
      'Model "qwen" is disabled: its API key variable QWEN_API_KEY (config/models.yaml api_key_env) is not set. Export it, e.g. `export QWEN_API_KEY=...`, and run the command again, or remove api_key_env if the endpoint needs no key.',
    );
    expect(evalRefusalText({ code: 'run_active', run: RUN }, 'en', 'cli')).toContain(
      'cancel it with `zhujiu eval --cancel 16`.',
    );
    expect(evalRefusalText(REFUSALS[11] as EvalRefusal, 'en', 'chat')).toContain(
      '2 of its dataset files are missing from the datasets folder /data/datasets (a.jsonl, b.jsonl).',
    );
    expect(missingKeyReason('QWEN_API_KEY', true, 'zh-CN')).toBe(
      '它的 API 密钥变量 QWEN_API_KEY（config/models.yaml 的 api_key_env）已设置但为空',
    );
  });

  it('every submission problem is Chinese', () => {
    const problems: readonly SubmissionProblem[] = [
      {
        code: 'invalid',
        problems: [
          { code: 'missing', fields: ['url', 'licence'] },
          { code: 'bad_name', name: 'a\tb', issue: { code: 'unprintable', char: 'U+0009' } },
          { code: 'name_configured', name: 'qwen' },
          { code: 'bad_url', issue: { code: 'credentials' } },
          { code: 'too_long', field: 'description', chars: 2001, max: 2000 },
        ],
      },
      { code: 'name_taken', name: 'acme', by: 'submission', id: 3 },
      { code: 'name_taken', name: 'acme', by: 'model' },
      { code: 'no_submission', id: 9 },
      { code: 'decided', id: 2, status: 'rejected' },
      { code: 'name_now_model', id: 2 },
      { code: 'name_now_configured', id: 2, name: 'acme' },
      { code: 'bad_key_variable', id: 2, variable: 'acme-key' },
      { code: 'key_unset', id: 2, variable: 'ACME_KEY', empty: false },
      { code: 'no_reason', id: 2 },
    ];
    const data = [
      'url',
      'licence',
      'description',
      'qwen',
      'acme-key',
      'ACME_KEY',
      'acme',
      'U+0009',
    ];
    for (const p of problems) {
      const zh = submissionProblemText(p, 'zh-CN');
      expect(zh, p.code).toMatch(CJK);
      expect(englishWords(zh, [...data, ...NAMES]), `${p.code}: ${zh}`).toEqual([]);
    }
    expect(submissionProblemText({ code: 'decided', id: 2, status: 'rejected' }, 'zh-CN')).toBe(
      '提交 #2 已经处理过了（已拒绝）。',
    );
    expect(submissionProblemText({ code: 'decided', id: 2, status: 'rejected' }, 'en')).toBe(
      'Submission #2 is already rejected.',
    );
  });

  it('a battle not posted and a channel the bot may not post in are Chinese', () => {
    const discord = { platform: 'discord', code: 50013, what: 'post message' } as const;
    const slack = { platform: 'slack', code: 'not_in_channel', botName: 'arena-bot' } as const;
    const texts = [
      postRefusalText({ code: 'no_battle' }, 'zh-CN'),
      postRefusalText({ code: 'no_battle', ability: 'reasoning' }, 'zh-CN'),
      postRefusalText({ code: 'not_connected', platform: 'slack' }, 'zh-CN'),
      postRefusalText({ code: 'no_access', access: discord }, 'zh-CN'),
      postRefusalText({ code: 'no_access', access: slack }, 'zh-CN'),
      noAccessText({ platform: 'slack', code: 'channel_not_found' }, 'zh-CN'),
    ];
    for (const s of texts) {
      expect(s).toMatch(CJK);
      expect(
        englishWords(s, [...NAMES, 'reasoning', 'slack', 'not_in_channel', 'channel_not_found']),
        s,
      ).toEqual([]);
    }
    expect(texts[3]).toBe(
      '机器人无权在这个频道发消息（Discord 50013 Missing Permissions）：请在这里授予它“查看频道”“发送消息”“嵌入链接”“附加文件”“添加反应”和“阅读消息历史”权限，然后重试',
    );
    // The error's own message stays English, for the logs.
    expect(new ChatNoAccessError(slack).message).toBe(
      'the bot is not in this channel (Slack says not_in_channel), so it cannot post here: invite it with `/invite @arena-bot` (or post from a channel it is in) and try again',
    );
  });
});

describe("/eval says the service's refusals in the right language", () => {
  /** A context of `/eval <text>` whose replies are kept, with the caller's platform language `locale`. */
  const ctx = (
    text: string,
    replies: [MessageContent, boolean][],
    locale?: 'en',
  ): CommandContext => ({
    platform: 'discord',
    eventId: `e-${text}`,
    name: 'eval',
    args: {},
    text,
    user: { id: 'u1', name: 'u1', roles: [] },
    channelId: 'c1',
    ...(locale ? { locale } : {}),
    reply: async (c, o) => {
      replies.push([c, o?.ephemeral === true]);
    },
  });
  // Only what handleEval asks of the service.
  const evals = {
    start: async () => ({
      ok: false,
      refusals: [{ code: 'unknown_suite', suite: 'mini-typo', valid: ['mini'] }],
      reason: 'Unknown suite "mini-typo". Valid suites: mini.',
    }),
    cancel: async (id: number) =>
      id === 16
        ? { ok: true, run: { ...RUN, status: 'cancelled' }, reason: '' }
        : {
            ok: false,
            refusal: { code: 'run_finished', run: id, status: 'succeeded' },
            reason: '',
          },
  } as unknown as EvalService;

  it("a refusal in the caller's language, a cancel in the configured one", async () => {
    const replies: [MessageContent, boolean][] = [];
    await handleEval(evals, ctx('qwen mini-typo', replies), undefined, 'zh-CN');
    await handleEval(evals, ctx('qwen mini-typo', replies, 'en'), undefined, 'zh-CN');
    await handleEval(evals, ctx('cancel 15', replies), undefined, 'zh-CN');
    await handleEval(evals, ctx('cancel 16', replies, 'en'), undefined, 'zh-CN');
    expect(replies.map(([c, only]) => [c.text, only])).toEqual([
      ['未知的评测套件“mini-typo”。可用的评测套件：mini。', true],
      ['Unknown suite "mini-typo". Valid suites: mini.', true],
      ['评测任务 #15 已经结束（状态：已完成）。', true],
      // Seen by the channel: the configured language, whatever the caller's.
      ['评测任务 #16（qwen，评测套件 mini）已取消，完成了 3/20 题。', false],
    ]);
  });

  it('several refusals are one line each, in chat as on the command line (never run together)', async () => {
    const two = {
      start: async () => ({
        ok: false,
        refusals: [
          { code: 'unknown_model', model: 'qwn', valid: ['qwen'] },
          { code: 'unknown_suite', suite: 'mini-typo', valid: ['mini'] },
        ],
        reason: '',
      }),
    } as unknown as EvalService;
    const replies: [MessageContent, boolean][] = [];
    await handleEval(two, ctx('qwn mini-typo', replies), undefined, 'zh-CN');
    const lines = (replies[0]?.[0].text ?? '').split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^未知的模型“qwn”。/u);
    expect(lines[1]).toBe('未知的评测套件“mini-typo”。可用的评测套件：mini。');
  });
});
