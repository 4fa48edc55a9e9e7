/**
 * `/submit`'s typed arguments and the checks of a submission (eval/submissions.ts): values with spaces and quotes,
 * a URL's `https:` never taken for a key, every bad input named with its fix, and the suites an approval queues.
 */
import { describe, expect, it } from 'vitest';
import { parseSubmitText } from '../../../src/bot/commands/submit.ts';
import { baseUrlText, formProblemText } from '../../../src/eval/submission-problems.ts';
import {
  baseUrlIssue,
  type SubmissionInput,
  submissionProblems,
  submissionSuites,
} from '../../../src/eval/submissions.ts';

/** The problems of `s` in English (what `zhujiu submissions` and an English `/submit` say). */
const problemsOf = (s: SubmissionInput, configured: readonly string[]) =>
  submissionProblems(s, configured).map((p) => formProblemText(p, 'en'));

/** What is wrong with base URL `url`, in English. */
const baseUrlProblem = (url: string) => {
  const issue = baseUrlIssue(url);
  return issue && baseUrlText(issue, 'en');
};

const GOOD = {
  name: 'Acme Chat 7B',
  baseUrl: 'https://api.acme.example/v1',
  model: 'acme-chat-7b',
  description: 'A 7B chat model',
  organisation: 'Acme Lab',
  licence: 'Apache-2.0',
};

describe('parseSubmitText', () => {
  it('reads key:value and key=value, values running to the next key', () => {
    const a = parseSubmitText(
      'name:Acme Chat 7B url:https://api.acme.example/v1 model=acme-chat-7b description:A 7B chat model org:Acme Lab license:Apache-2.0',
    );
    expect(a.words).toEqual([]);
    expect(a.values).toEqual({
      name: 'Acme Chat 7B',
      url: 'https://api.acme.example/v1',
      model: 'acme-chat-7b',
      description: 'A 7B chat model',
      org: 'Acme Lab',
      licence: 'Apache-2.0',
    });
  });

  it('keeps a key word inside a quoted value, and drops the quotes', () => {
    const a = parseSubmitText(
      'name:"x" description:"a chat model: fast, model:free" org:“北京 Lab”',
    );
    expect(a.values).toEqual({
      name: 'x',
      description: 'a chat model: fast, model:free',
      org: '北京 Lab',
    });
  });

  it('gives the words before the first key (action, id, reason)', () => {
    expect(parseSubmitText('approve 3 api_key_env:ACME_KEY suites:a,b')).toEqual({
      words: ['approve', '3'],
      values: { api_key_env: 'ACME_KEY', suites: 'a,b' },
    });
    expect(parseSubmitText('reject 4 the endpoint is down').words).toEqual([
      'reject',
      '4',
      'the',
      'endpoint',
      'is',
      'down',
    ]);
    expect(parseSubmitText('list')).toEqual({ words: ['list'], values: {} });
  });
});

describe('submissionProblems', () => {
  it('accepts a complete submission', () => {
    expect(submissionProblems(GOOD, [])).toEqual([]);
  });

  it('names every missing field, a bad name, a configured name and a bad URL', () => {
    expect(problemsOf({ ...GOOD, description: ' ', licence: '' }, [])).toEqual([
      'missing description, licence',
    ]);
    expect(problemsOf({ ...GOOD, name: ' padded' }, [])[0]).toBe(
      'name " padded" starts or ends with a space; remove it',
    );
    expect(problemsOf({ ...GOOD, name: 'a\tb' }, [])[0]).toMatch(/U\+0009, a control/);
    expect(problemsOf(GOOD, ['Acme Chat 7B'])).toEqual([
      'name "Acme Chat 7B" is already a model of config/models.yaml; choose another name',
    ]);
    expect(problemsOf({ ...GOOD, description: 'x'.repeat(2001) }, [])).toEqual([
      'description is 2001 characters long, over 2000; shorten it',
    ]);
  });

  it('refuses a base URL that is not http(s), not a URL, or holds credentials', () => {
    expect(baseUrlProblem('ftp://acme.example/v1')).toBe(
      'base URL "ftp://acme.example/v1" is not http(s) (it is ftp:); give an http:// or https:// address',
    );
    expect(baseUrlProblem('api.acme.example')).toMatch(/is not a URL; give the endpoint's address/);
    expect(baseUrlProblem('https://sk-123:x@acme.example/v1')).toMatch(/never give a key in chat/);
    expect(baseUrlProblem('http://127.0.0.1:8000/v1')).toBeUndefined();
  });

  it('says every problem in Chinese too, the typed field names as they are', () => {
    const zh = submissionProblems(
      { ...GOOD, name: ' padded', baseUrl: 'ftp://acme.example/v1', licence: '' },
      [],
    ).map((p) => formProblemText(p, 'zh-CN'));
    expect(zh).toEqual([
      '缺少 licence',
      '名称“ padded”首尾有空格；请删除',
      '基础 URL“ftp://acme.example/v1”不是 http(s) 地址（它是 ftp:）；请给出 http:// 或 https:// 地址',
    ]);
  });
});

describe('submissionSuites', () => {
  it('keeps the configured suites that run, else falls back to zhujiu-metrics, else none', () => {
    expect(submissionSuites(['zhujiu', 'smoke'], ['smoke', 'zhujiu', 'zhujiu-metrics'])).toEqual([
      'zhujiu',
      'smoke',
    ]);
    expect(submissionSuites(['zhujiu'], ['smoke', 'zhujiu-metrics'])).toEqual(['zhujiu-metrics']);
    expect(submissionSuites(['zhujiu'], ['smoke'])).toEqual([]);
  });
});
