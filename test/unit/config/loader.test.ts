import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, unknownKeyHint } from '../../../src/config/loader.ts';
import { isAppError } from '../../../src/core/errors.ts';
import { tc } from '../../../src/i18n/cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/** Every folder this file made, removed after its tests. */
const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-config-'));
  made.push(dir);
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  return dir;
}

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('config loader', () => {
  it('loads the shipped config', () => {
    const c = loadConfig({ configDir: join(PROJECT_ROOT, 'config'), env: {} });
    expect(c.app.arena.window_hours).toBe(24);
    expect(c.app.arena.emoji.discord).toEqual({
      left: '⬅️',
      equal: '🟰',
      right: '➡️',
      bothbad: '👎',
    });
    expect(c.suites.has('alpaca-eval')).toBe(true);
    expect(c.env.DATABASE_URL).toBeUndefined();
    expect(Object.isFrozen(c.app.arena)).toBe(true);
  });

  it('listeners bind 127.0.0.1 unless configured; ZHUJIU_HTTP_HOST and ZHUJIU_SLACK_HOST override (the image sets 0.0.0.0)', () => {
    const shipped = loadConfig({ configDir: join(PROJECT_ROOT, 'config'), env: {} }).app;
    expect([shipped.http.host, shipped.platforms.slack.host]).toEqual(['127.0.0.1', '127.0.0.1']);
    expect(shipped.database.start_retry_seconds).toBe(60);
    const bare = loadConfig({ configDir: dirWith({}), env: {} }).app;
    expect([bare.http.host, bare.platforms.slack.host]).toEqual(['127.0.0.1', '127.0.0.1']);
    const set = loadConfig({
      configDir: dirWith({ 'default.yaml': 'platforms:\n  slack:\n    host: 10.0.0.5\n' }),
      env: {},
    }).app;
    expect(set.platforms.slack.host).toBe('10.0.0.5');
    const env = loadConfig({
      configDir: join(PROJECT_ROOT, 'config'),
      env: { ZHUJIU_HTTP_HOST: '0.0.0.0', ZHUJIU_SLACK_HOST: '0.0.0.0' },
    }).app;
    expect([env.http.host, env.platforms.slack.host]).toEqual(['0.0.0.0', '0.0.0.0']);
  });

  it('reports a bad value as file:line:col path: message', () => {
    const dir = dirWith({
      'default.yaml': 'http:\n  port: 8080\narena:\n  window_hours: -3\n  vote_cap: 2\n',
    });
    const e = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir }));
    expect(isAppError(e, 'config_invalid')).toBe(true);
    // Review #19: the full path of the file, not one relative to the working directory.
    expect(e.message.startsWith(`${join(dir, 'default.yaml')}:4:17 arena.window_hours: `)).toBe(
      true,
    );
    expect(e.message).toMatch(/arena\.window_hours: must be greater than 0$/);
  });

  it('eval.max_failure_rate: 0.1 by default, a share 0–1, anything else refused at its line', () => {
    expect(
      loadConfig({ configDir: join(PROJECT_ROOT, 'config'), env: {} }).app.eval.max_failure_rate,
    ).toBe(0.1);
    expect(loadConfig({ configDir: dirWith({}), env: {} }).app.eval.max_failure_rate).toBe(0.1);
    const dir = dirWith({ 'default.yaml': 'eval:\n  max_failure_rate: 1.5\n' });
    const e = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir }));
    expect(isAppError(e, 'config_invalid')).toBe(true);
    expect(e.message.startsWith(`${join(dir, 'default.yaml')}:2:21 eval.max_failure_rate: `)).toBe(
      true,
    );
  });

  it('an unknown key at its own line, type errors in words with an example', () => {
    const dir = dirWith({
      'default.yaml':
        'http:\n  port: "eighty"\narena:\n  window_hours: 3\n  vote_cap: many\n  votecap: 9\n',
    });
    const e = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir }));
    const f = join(dir, 'default.yaml');
    const lines = e.message.split('\n');
    expect(lines).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:6:3 arena\\.votecap: unknown key "votecap": remove it or fix the spelling; did you mean "vote_cap"\\? The keys here are .*vote_cap`,
        ),
      ),
    );
    expect(lines).toContainEqual(
      `${f}:2:9 http.port: expected a number, e.g. 8080, got text "eighty"`,
    );
    expect(lines).toContainEqual(
      expect.stringMatching(
        /:5:13 arena\.vote_cap: expected a number, e\.g\. \d+, got text "many"$/,
      ),
    );
  });

  it("a number error in models.yaml gives that key's own default as the example, never a port", () => {
    const dir = dirWith({
      'models.yaml':
        'models:\n  - name: a\n    provider: openai\n    base_url: http://127.0.0.1:1/v1\n    model: x\n' +
        '    max_retries: 1.5\n    max_concurrency: many\n',
    });
    const e = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir }));
    expect(e.message).not.toContain('8080');
    expect(e.message).toMatch(
      /models\[1\]\.max_retries: expected a whole number, e\.g\. 2, got number 1\.5$/m,
    );
    expect(e.message).toMatch(
      /models\[1\]\.max_concurrency: expected a number, e\.g\. 4, got text "many"$/m,
    );
  });

  it('reports unknown keys, YAML syntax errors and every bad file at once', () => {
    const dir = dirWith({
      'default.yaml': 'arena:\n  windw_hours: 3\n',
      'models.yaml':
        'models:\n  - name: a\n    provider: openai\n    base_url: not-a-url\n    model: x\n',
      'suites/s.yaml': 'name: s\ndatasets: [\n',
    });
    const e = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir }));
    expect(e.message).toContain(
      'default.yaml:2:3 arena.windw_hours: unknown key "windw_hours": remove it or fix the spelling',
    );
    expect(e.message).toMatch(/models\.yaml:4:15 models\[1\]\.base_url: /);
    expect(e.message).toMatch(/suites\/s\.yaml:\d+:\d+: YAML syntax error \(/);
  });

  it('a misspelt key gets "did you mean", list positions count from 1, and the lines come in file order', () => {
    const dir = dirWith({
      'models.yaml':
        'models:\n  - name: a\n    provider: openai\n    base_url: http://127.0.0.1:1/v1\n    model: x\n' +
        '  - name: b\n    provider: openai\n    base_url: http://127.0.0.1:1/v1\n    model: y\n' +
        '    max_retires: 2\n    max_concurrency: many\n',
    });
    const e = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir }));
    const f = join(dir, 'models.yaml');
    const lines = e.message.split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /:10:5 models\[2\]\.max_retires: unknown key "max_retires": remove it or fix the spelling; did you mean "max_retries"\? The keys here are /,
    );
    expect(lines[1]).toBe(
      `${f}:11:22 models[2].max_concurrency: expected a number, e.g. 4, got text "many"`,
    );
    expect(e.message).toMatch(/The keys here are .*max_retries/);
    const zh = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir, locale: 'zh-CN' }));
    expect(zh.message).toContain('models[2].max_retires：未知的键“max_retires”');
    expect(zh.message).toContain('你是不是想写“max_retries”？此处可用的键有 ');
    expect(zh.message).not.toMatch(/[？。；，：][；，。：]/u);
  });

  it('the hint after an unknown key joins its parts without doubled punctuation, in both languages', () => {
    const known = ['vote_cap', 'voting_hours'];
    expect(unknownKeyHint('votecap', known, 'zh-CN')).toBe(
      '；你是不是想写“vote_cap”？此处可用的键有 vote_cap、voting_hours',
    );
    expect(unknownKeyHint('colour', known, 'zh-CN')).toBe(
      '；此处可用的键有 vote_cap、voting_hours',
    );
    expect(unknownKeyHint('votecap', known, 'en')).toBe(
      '; did you mean "vote_cap"? The keys here are vote_cap, voting_hours',
    );
    expect(unknownKeyHint('votecap', [], 'zh-CN')).toBe('');
    const message = tc('zh-CN', 'cli.configFile.unknownKey', {
      at: 'config.yaml:6:3',
      path: 'arena.votecap',
      key: 'votecap',
      near: unknownKeyHint('votecap', known, 'zh-CN'),
    });
    expect(message).not.toMatch(/[？。；，：！][；，。：？！]/u);
  });

  it('refuses a base_url or public_url that is not http(s), and names the providers of a model', () => {
    const dir = dirWith({
      'default.yaml': 'leaderboard:\n  public_url: "javascript:alert(1)"\n',
      'models.yaml':
        'models:\n  - name: a\n    provider: openai\n    base_url: localhost:8000\n    model: x\n' +
        '  - name: b\n    provider: openAI\n' +
        '  - name: c\n    provder: recorded\n',
    });
    const e = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir }));
    expect(e.message).toContain(
      'default.yaml:2:15 leaderboard.public_url: expected an http:// or https:// URL, e.g. https://arena.example.org, got "javascript:alert(1)"',
    );
    expect(e.message).toContain(
      'models.yaml:4:15 models[1].base_url: expected an http:// or https:// URL, e.g. http://127.0.0.1:8000/v1, got "localhost:8000"',
    );
    expect(e.message).toContain(
      'models.yaml:8:5 models[3].provider: missing required key "provider": add `provider: openai` or `provider: recorded`',
    );
    expect(e.message).toContain(
      'models.yaml:7:15 models[2].provider: expected one of openai, recorded, got text "openAI"; did you mean "openai"?',
    );
    // In Chinese the choices are listed with 、 (i18n/cli.ts listText), not ", ".
    const zh = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir, locale: 'zh-CN' }));
    expect(zh.message).toContain(
      'models[2].provider：应为 openai、recorded 之一，实际是文本“openAI”',
    );
  });

  it('validates the environment without echoing secrets', () => {
    const e = errorOf(() =>
      loadConfig({ configDir: dirWith({}), env: { DATABASE_URL: 'mysql://u:hunter2@x/db' } }),
    );
    expect(isAppError(e, 'env_invalid')).toBe(true);
    expect(e.message).toContain('DATABASE_URL: must be a postgres:// or postgresql:// URL');
    expect(e.message).not.toContain('hunter2');
    const e2 = errorOf(() =>
      loadConfig({ configDir: dirWith({}), env: { ZHUJIU_VOTER_SECRET: 'short' } }),
    );
    expect(e2.message).toContain('ZHUJIU_VOTER_SECRET: must be at least 16 characters');
  });

  it('takes the data folder and log level from the environment', () => {
    const c = loadConfig({
      configDir: dirWith({}),
      env: { ZHUJIU_DATA_DIR: '/tmp/x', LOG_LEVEL: 'debug', PORT: '0' },
      cwd: '/',
    });
    expect(c.dataDir).toBe('/tmp/x');
    expect(c.app.log.level).toBe('debug');
    expect(c.app.http.port).toBe(0);
  });
});

describe('a suite file (config/suites/*.yaml)', () => {
  const SUITE =
    'name: s\n' +
    'datasets:\n' +
    '  - name: zz\n' + //             3: no ability
    '    method: metrics\n' +
    '    loader: ocnlii\n' + //       5: a misspelt loader
    '    path: x.jsonl\n' +
    '  - name: b\n' +
    '    ability: 知识x\n' + //         8: a misspelt Chinese name
    '    method: metrics\n' +
    '    loader: ocnli\n' +
    '    path: y.jsonl\n' +
    '  - ability: knowledge\n' + //   12: no name
    '    method: metrics\n' +
    '    loader: c3\n' +
    '    path: z.jsonl\n';

  it('says a missing required key as missing, a misspelt value with a "did you mean", in the order of the file', () => {
    const dir = dirWith({ 'suites/s.yaml': SUITE });
    const f = join(dir, 'suites', 's.yaml');
    const lines = errorOf(() => loadConfig({ configDir: dir, env: {}, cwd: dir })).message.split(
      '\n',
    );
    expect(lines).toEqual([
      `${f}:3:5 datasets[1].ability: missing required key "ability": add \`ability:\` with one of knowledge, chinese_specific, language, reasoning, refusal, safety, robustness`,
      expect.stringMatching(
        new RegExp(
          `^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:5:13 datasets\\[1\\]\\.loader: expected one of c3, .*, got text "ocnlii"; did you mean "ocnli"\\?$`,
        ),
      ),
      expect.stringMatching(
        /:8:14 datasets\[2\]\.ability: expected one of knowledge, .*, got text "知识x"; did you mean "knowledge"\?$/,
      ),
      `${f}:12:5 datasets[3].name: missing required key "name": add \`name:\` with text`,
    ]);
    expect(lines.join('\n')).not.toMatch(/Invalid option/);
  });

  it('says the same in Chinese, the abilities by their Chinese names', () => {
    const dir = dirWith({ 'suites/s.yaml': SUITE });
    const lines = errorOf(() =>
      loadConfig({ configDir: dir, env: {}, cwd: dir, locale: 'zh-CN' }),
    ).message.split('\n');
    expect(lines[0]).toMatch(
      /:3:5 datasets\[1\]\.ability：缺少必需的键“ability”：请添加 `ability:`，值为 知识、中文特定、语言、推理、拒答、安全、鲁棒性 之一$/u,
    );
    expect(lines[1]).toMatch(
      /:5:13 datasets\[1\]\.loader：应为 c3、.*之一，实际是文本“ocnlii”；你是不是想写“ocnli”？$/u,
    );
    expect(lines[2]).toMatch(
      /:8:14 datasets\[2\]\.ability：.*实际是文本“知识x”；你是不是想写“知识”？$/u,
    );
    expect(lines[3]).toMatch(
      /:12:5 datasets\[3\]\.name：缺少必需的键“name”：请添加 `name:`，值为文本$/u,
    );
    expect(lines.join('\n')).not.toMatch(/无效选项/u);
  });

  it('takes an ability or a method by its display name in either language, as the command line does', () => {
    const dir = dirWith({
      'suites/s.yaml':
        'name: s\ndatasets:\n' +
        '  - name: a\n    ability: 知识\n    method: 指标评估\n    loader: c3\n    path: a.json\n' +
        '  - name: b\n    ability: Reasoning\n    method: Scoring\n    loader: alignbench\n    path: b.jsonl\n    rubric: ten_point\n' +
        '  - name: c\n    ability: 中文特定\n    method: 对比评估\n',
    });
    const suite = loadConfig({ configDir: dir, env: {}, cwd: dir }).suites.get('s');
    expect(suite?.datasets.map((d) => [d.name, d.ability, d.method])).toEqual([
      ['a', 'knowledge', 'metrics'],
      ['b', 'reasoning', 'scoring'],
      ['c', 'chinese_specific', 'comparative'],
    ]);
  });

  it('an environment variable with a fixed list of values gets the list and a "did you mean"', () => {
    const e = errorOf(() => loadConfig({ configDir: dirWith({}), env: { LOG_LEVEL: 'debg' } }));
    expect(e.message).toBe(
      'environment LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent; did you mean "debug"?',
    );
  });
});

describe('a config folder that cannot be read', () => {
  it('is an error naming the path, never the defaults (a suites path that is not a listable folder)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-config-unreadable-'));
    made.push(dir);
    writeFileSync(join(dir, 'suites'), 'not a folder');
    let err: unknown;
    try {
      loadConfig({ env: { ZHUJIU_CONFIG_DIR: dir } });
    } catch (e) {
      err = e;
    }
    expect(isAppError(err, 'config_invalid')).toBe(true);
    expect((err as Error).message).toBe(
      `${join(dir, 'suites')}: cannot read (ENOTDIR); check the permissions of the config folder and its files`,
    );
  });
});
