/**
 * `zhujiu`'s help and usage errors follow the POSIX locale of the command's environment (docs/architecture.md
 * "Languages"): every command's help page, rendered in both languages, takes each description from the catalogue
 * (in zh-CN every command, argument and option description has Chinese, and commander's own words are translated);
 * English stays word for word what it was; a usage error is in Chinese under `LANG=zh_CN.UTF-8`.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { describeCommands, wrapToWidth } from '../../../src/cli/help-text.ts';
import { buildProgram } from '../../../src/cli/index.ts';
import { textWidth } from '../../../src/cli/io.ts';
import { localeFromPosixEnv } from '../../../src/i18n/cli.ts';
import { inProcess } from '../../helpers/run-cli.ts';

const ZH = { LANG: 'zh_CN.UTF-8' };
const CJK = /[\u3400-\u9fff]/u;
const noop = { out: () => {}, err: () => {} };

/** Every command of `program` with its path (`['import', 'outputs']`), the program itself first. */
function commands(cmd: Command, path: string[] = []): { cmd: Command; path: string[] }[] {
  return [{ cmd, path }, ...cmd.commands.flatMap((c) => commands(c, [...path, c.name()]))];
}

describe('the command line language', () => {
  it('follows LC_ALL, then LC_MESSAGES, then LANG; zh* is Chinese, anything else English', () => {
    expect(localeFromPosixEnv({ LANG: 'zh_CN.UTF-8' })).toBe('zh-CN');
    expect(localeFromPosixEnv({ LANG: 'zh_CN' })).toBe('zh-CN');
    expect(localeFromPosixEnv({ LANG: 'C.UTF-8' })).toBe('en');
    expect(localeFromPosixEnv({ LANG: 'en_US.UTF-8' })).toBe('en');
    expect(localeFromPosixEnv({ LANG: 'POSIX' })).toBe('en');
    expect(localeFromPosixEnv({})).toBe('en');
    expect(localeFromPosixEnv({ LC_ALL: 'C', LANG: 'zh_CN.UTF-8' })).toBe('en');
    expect(localeFromPosixEnv({ LC_MESSAGES: 'zh_CN.UTF-8', LANG: 'C' })).toBe('zh-CN');
    expect(localeFromPosixEnv({ LC_ALL: '', LC_MESSAGES: 'zh_CN.UTF-8' })).toBe('zh-CN');
  });
});

describe('zhujiu help from the catalogue', () => {
  it('in zh-CN, every command, argument and option description is Chinese', () => {
    const program = buildProgram(noop, { env: ZH });
    const english: string[] = [];
    for (const { cmd, path } of commands(program)) {
      const where = `zhujiu ${path.join(' ')}`.trim();
      if (!CJK.test(cmd.description())) english.push(`${where}: ${cmd.description()}`);
      for (const a of cmd.registeredArguments)
        if (!CJK.test(a.description)) english.push(`${where} <${a.name()}>: ${a.description}`);
      for (const o of cmd.options)
        if (!CJK.test(o.description)) english.push(`${where} ${o.flags}: ${o.description}`);
    }
    expect(english).toEqual([]);
  });

  it("renders every command's help in both languages; zh-CN has no commander English left", async () => {
    const program = buildProgram(noop, { env: ZH });
    for (const { path } of commands(program)) {
      const zh = await inProcess([...path, '--help'], { env: ZH });
      expect(zh.code, path.join(' ')).toBe(0);
      expect(zh.stdout).toMatch(/^用法：zhujiu/u);
      if (path.length === 0) expect(zh.stdout).toMatch(/^用法：zhujiu \[选项\] \[命令\]$/mu);
      expect(zh.stdout).toContain('显示命令帮助');
      expect(zh.stdout).not.toMatch(
        /Usage:|Options:|Commands:|Arguments:|display help|choices:|default:|\[options\]|\[command\]/u,
      );
      // Wrapped to the 80 columns commander wraps English to (a line may be longer only for one unbreakable token,
      // such as a JSON shape); no line starts with closing punctuation.
      for (const line of zh.stdout.split('\n')) {
        if (textWidth(line) > 80) expect(line.trim(), path.join(' ')).not.toMatch(/\s/u);
        expect(line.trimStart(), path.join(' ')).not.toMatch(/^[，。、；：）]/u);
      }
      const en = await inProcess([...path, '--help'], { env: { LANG: 'C.UTF-8' } });
      if (path.length === 0) expect(en.stdout).toMatch(/^Usage: zhujiu \[options\] \[command\]$/mu);
      expect(en.stdout).toMatch(/^Usage: zhujiu/u);
      expect(en.stdout).not.toMatch(CJK);
    }
  });

  it('wraps Chinese between characters by terminal columns, closing punctuation kept on its line; English at spaces', () => {
    expect(wrapToWidth(`${'评测'.repeat(25)}，完成`, 40).split('\n')).toEqual([
      '评测'.repeat(10),
      `${'评测'.repeat(10)}`,
      `${'评测'.repeat(5)}，完成`,
    ]);
    expect(wrapToWidth('进度输出到 stderr，摘要输出到 stdout', 40)).toBe(
      '进度输出到 stderr，摘要输出到 stdout',
    );
    expect(wrapToWidth('进度输出到 stderr，摘要输出到 stdout 摘要输出到', 40).split('\n')).toEqual([
      '进度输出到 stderr，摘要输出到 stdout 摘',
      '要输出到',
    ]);
    const en = 'print the summary as one JSON document on stdout instead of the table, then exit';
    expect(wrapToWidth(en, 40)).toBe(
      'print the summary as one JSON document\non stdout instead of the table, then\nexit',
    );
    expect(wrapToWidth('短', 39)).toBe('短');
  });

  it('keeps English help as commander writes it (choices and default, the help command)', async () => {
    const r = await inProcess(['results', '--help']);
    expect(r.stdout).toContain(
      '--format <format>  JSON lines or CSV (RFC 4180, with a header row) (choices:\n                     "jsonl", "csv", default: "jsonl")',
    );
    const top = await inProcess(['--help']);
    expect(top.stdout).toMatch(/help \[command\] +display help for command/u);
  });

  it('fails naming the key when a command has no help text in the catalogue', () => {
    const program = buildProgram(noop, { env: {} });
    program.command('no-such-command');
    expect(() => describeCommands(program, 'en')).toThrow(/"cli\.no-such-command\.description"/u);
  });
});

describe('usage errors in the command line language', () => {
  it('an unknown option, a bad value, a missing option: Chinese under LANG=zh_CN.UTF-8, exit 2', async () => {
    const unknown = await inProcess(['eval', '--bogus'], { env: ZH });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('错误：未知选项“--bogus”\n（加上 --help 查看用法）\n');
    const bad = await inProcess(['results', '--run', 'x'], { env: ZH });
    expect(bad.stderr).toContain(
      '错误：选项“--run <n>”的值“x”无效。--run 必须是不小于 1 的整数，只用十进制数字书写，收到的是“x”',
    );
    const choice = await inProcess(['results', '--format', 'x'], { env: ZH });
    expect(choice.stderr).toContain('可选值为 jsonl、csv。');
    const missing = await inProcess(['import', 'outputs', 'f.json'], { env: ZH });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('错误：未指定必需的选项“--model <name>”');
    const typo = await inProcess(['evl'], { env: ZH });
    expect(typo.stderr).toContain('（你是不是想输入 eval？）');
  });

  it("the error printer's own words and a command's refusal in Chinese (exit 2 for input_invalid)", async () => {
    const r = await inProcess(['ratings', '--battles', 'x.jsonl', '--source', 'lmsys'], {
      env: ZH,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '错误 [input_invalid]：--source 选择的是已存储的投票；用 --battles FILE 时按文件原样计算评分：请去掉其中一个\n',
    );
  });

  it('the same in English under LANG=C.UTF-8, as commander words them', async () => {
    const unknown = await inProcess(['eval', '--bogus'], { env: { LANG: 'C.UTF-8' } });
    expect(unknown.stderr).toBe("error: unknown option '--bogus'\n(run with --help for usage)\n");
    const many = await inProcess(['judge', 'agree', 'a', 'b', 'c']);
    expect(many.stderr).toContain(
      "error: too many arguments for 'agree'. Expected 2 arguments but got 3: a, b, c.",
    );
  });
});

describe('zhujiu help TOPIC', () => {
  it('an unknown topic is an unknown command: exit 2 with its did-you-mean, in both languages', async () => {
    const en = await inProcess(['help', 'evl'], { env: { LANG: 'C.UTF-8' } });
    expect(en.code).toBe(2);
    expect(en.stdout).toBe('');
    expect(en.stderr).toBe(
      "error: unknown command 'evl'\n(Did you mean eval?)\n(run with --help for usage)\n",
    );
    // The same as the unknown command itself says.
    const bare = await inProcess(['evl'], { env: { LANG: 'C.UTF-8' } });
    expect(bare.stderr).toBe(en.stderr);
    const zh = await inProcess(['help', 'evl'], { env: ZH });
    expect(zh.code).toBe(2);
    expect(zh.stderr).toBe(
      '错误：未知命令“evl”\n（你是不是想输入 eval？）\n（加上 --help 查看用法）\n',
    );
    const far = await inProcess(['help', 'xyzzy'], { env: { LANG: 'C.UTF-8' } });
    expect(far.code).toBe(2);
    expect(far.stderr).toBe("error: unknown command 'xyzzy'\n(run with --help for usage)\n");
  });

  it("a subcommand's help command and a topic of two words: the same rule, and the help of the whole path", async () => {
    const sub = await inProcess(['import', 'help', 'outptus'], { env: { LANG: 'C.UTF-8' } });
    expect(sub.code).toBe(2);
    expect(sub.stderr).toContain("error: unknown command 'outptus'\n(Did you mean outputs?)\n");
    const deep = await inProcess(['help', 'import', 'outptus'], { env: { LANG: 'C.UTF-8' } });
    expect(deep.code).toBe(2);
    expect(deep.stderr).toContain("error: unknown command 'outptus'\n(Did you mean outputs?)\n");
    const two = await inProcess(['help', 'import', 'outputs'], { env: { LANG: 'C.UTF-8' } });
    expect(two.code).toBe(0);
    expect(two.stdout).toMatch(/^Usage: zhujiu import outputs /u);
    const known = await inProcess(['help', 'eval'], { env: { LANG: 'C.UTF-8' } });
    expect(known.code).toBe(0);
    expect(known.stdout).toMatch(/^Usage: zhujiu eval /u);
  });

  it('help help and help --help show the help of help, as for any other command, in both languages', async () => {
    for (const args of [
      ['help', 'help'],
      ['help', '--help'],
    ]) {
      const en = await inProcess(args, { env: { LANG: 'C.UTF-8' } });
      expect(en.code, args.join(' ')).toBe(0);
      expect(en.stderr).toBe('');
      expect(en.stdout).toMatch(
        /^Usage: zhujiu help \[options\] \[command\]\n\ndisplay help for command\n/u,
      );
      expect(en.stdout).toMatch(/^ {2}command +the command to show the help of/mu);
    }
    const zh = await inProcess(['help', 'help'], { env: ZH });
    expect(zh.code).toBe(0);
    expect(zh.stdout).toMatch(/^用法：zhujiu help \[选项\] \[命令\]\n\n显示命令帮助\n/u);
    const sub = await inProcess(['import', 'help', 'help'], { env: { LANG: 'C.UTF-8' } });
    expect(sub.code).toBe(0);
    expect(sub.stdout).toMatch(/^Usage: zhujiu import help /u);
  });
});
