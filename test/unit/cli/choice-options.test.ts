/**
 * Options that take one of a fixed list of values (`--view`, `--format`, `--ability`, `--status`) declare the list
 * with commander's `.choices()` in every command (src/cli/index.ts), so a bad value is a usage mistake: exit 2 and
 * one line naming the option, the value and the allowed values, in the command line's language, before anything
 * is opened. Before, `leaderboard --view foo` read `foo` as a model name (exit 1, "no model on the board") and
 * `results --ability foo` was looked up in the run. A misspelt value gets a "did you mean" (`--format cvs`), and
 * `--ability` takes an ability's display name in either language (`--ability 知识`) as well as its id.
 */
import type { Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import type { CliDeps } from '../../../src/cli/deps.ts';
import { buildProgram, runCli } from '../../../src/cli/index.ts';
import type { CliIo } from '../../../src/cli/io.ts';
import { ABILITIES } from '../../../src/config/abilities.ts';
import { editDistance } from '../../../src/text/edit-distance.ts';

/** The flags whose values are a fixed list wherever they appear. */
const CHOICE_FLAGS = ['--view', '--format', '--ability', '--status'];

const quiet = { out: () => {}, err: () => {}, stdout: process.stdout } as unknown as CliIo;

/** Every command path (`['results']`, `['import', 'battles']`, …) with its choice-like options. */
function choiceOptions(): { path: string[]; option: Option }[] {
  const found: { path: string[]; option: Option }[] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const option of cmd.options as Option[])
      if (option.long !== undefined && CHOICE_FLAGS.includes(option.long))
        found.push({ path, option });
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(buildProgram(quiet, { env: {} } as unknown as CliDeps), []);
  return found;
}

/** `zhujiu ARGS…` parsed in this process with an empty environment (nothing is opened for a usage error). */
async function run(args: string[], env: Record<string, string> = {}) {
  let stderr = '';
  const io = {
    out: () => {},
    err: (s: string) => {
      stderr += `${s}\n`;
    },
    stdout: process.stdout,
  } as unknown as CliIo;
  const code = await runCli(['node', 'zhujiu', ...args], io, {
    env: { LOG_LEVEL: 'silent', ...env },
    tty: false,
  } as unknown as CliDeps);
  process.exitCode = 0;
  return { code, stderr };
}

describe('choice-like options', () => {
  const options = choiceOptions();

  it('every one declares its allowed values', () => {
    expect(options.length).toBeGreaterThanOrEqual(8);
    const missing = options
      .filter(({ option }) => (option.argChoices ?? []).length === 0)
      .map(({ path, option }) => `zhujiu ${path.join(' ')} ${option.long}`);
    expect(missing).toEqual([]);
  });

  it('a bad value exits 2 naming the option, the value and the allowed values', async () => {
    for (const { path, option } of options) {
      const r = await run([...path, option.long as string, 'bogus']);
      const label = `zhujiu ${path.join(' ')} ${option.long} bogus`;
      expect(r.code, label).toBe(2);
      expect(r.stderr, label).toBe(
        `error: option '${option.flags}' argument 'bogus' is invalid. Allowed choices are ${option.argChoices?.join(', ')}.\n` +
          '(run with --help for usage)\n',
      );
    }
  });

  it('says it in Chinese under a Chinese locale', async () => {
    const r = await run(['leaderboard', '--view', 'foo'], { LANG: 'zh_CN.UTF-8' });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      '选项“--view <view>”的值“foo”无效。可选值为 overall、ability、method、model、style。',
    );
  });

  it('a misspelt value gets a did-you-mean, in both languages, exit 2', async () => {
    const cases: [string[], string, string][] = [
      [['results', '--run', '1', '--format', 'cvs'], 'csv', 'csv'],
      [['import', 'outputs', 'f', '--model', 'm', '--format', 'jsnol'], 'jsonl', 'jsonl'],
      [['leaderboard', '--view', 'abilty'], 'ability', 'ability'],
      [['submissions', 'list', '--status', 'aproved'], 'approved', 'approved'],
      [['export', 'battles', '--format', 'fastchta'], 'fastchat', 'fastchat'],
      [['results', '--run', '1', '--ability', 'knowlege'], 'knowledge', 'knowledge'],
      [['ratings', '--ability', '推里'], 'reasoning', '推理'],
      [['import', 'battles', 'f', '--ability', '知识x'], 'knowledge', '知识'],
    ];
    for (const [args, en, zh] of cases) {
      const label = `zhujiu ${args.join(' ')}`;
      const r = await run(args);
      expect(r.code, label).toBe(2);
      expect(r.stderr.split('\n')[1], label).toBe(`(Did you mean ${en}?)`);
      const z = await run(args, { LANG: 'zh_CN.UTF-8' });
      expect(z.code, label).toBe(2);
      expect(z.stderr.split('\n')[1], label).toBe(`（你是不是想输入 ${zh}？）`);
    }
    expect((await run(['results', '--run', '1', '--ability', 'knowlege'])).stderr).toBe(
      "error: option '--ability <name>' argument 'knowlege' is invalid. Allowed choices are knowledge, chinese_specific, language, reasoning, refusal, safety, robustness.\n" +
        '(Did you mean knowledge?)\n(run with --help for usage)\n',
    );
  });

  it('every one takes its values in any case, read as the listed value', () => {
    for (const { path, option } of options) {
      for (const choice of option.argChoices ?? []) {
        for (const typed of [choice.toUpperCase(), choice[0]?.toUpperCase() + choice.slice(1)]) {
          const program = buildProgram(quiet, { env: {} } as unknown as CliDeps);
          let cmd = program;
          for (const name of path) cmd = cmd.commands.find((c) => c.name() === name) as Command;
          cmd.action(() => {});
          const required = (cmd.options as Option[])
            .filter((o) => o.mandatory && o.long !== option.long)
            .flatMap((o) => [o.long as string, 'x']);
          const args = [...path, ...cmd.registeredArguments.map(() => 'x'), ...required];
          program.parse(['node', 'zhujiu', ...args, option.long as string, typed]);
          expect(
            cmd.opts()[option.attributeName()],
            `${args.join(' ')} ${option.long} ${typed}`,
          ).toBe(choice);
        }
      }
    }
  });

  it('every one gives a "did you mean" for a misspelt or shortened value', async () => {
    for (const { path, option } of options) {
      for (const choice of option.argChoices ?? []) {
        const swapped = `${choice.slice(0, -2)}${choice.slice(-1)}${choice.slice(-2, -1)}`;
        // A shortened value where it stands for this one value alone (no other starts so or is a few edits away).
        const short = choice.slice(0, 5);
        const others = (option.argChoices ?? []).filter((c) => c !== choice);
        const alone =
          choice.length > 5 &&
          others.every((c) => !c.startsWith(short) && editDistance(short, c) > 3);
        const typos = [swapped, ...(alone ? [short] : [])];
        for (const typo of typos) {
          if (option.argChoices?.some((c) => c.toLowerCase() === typo.toLowerCase())) continue;
          const args = [...path, option.long as string, typo];
          const r = await run(args);
          expect(r.code, args.join(' ')).toBe(2);
          expect(r.stderr.split('\n')[1], args.join(' ')).toBe(`(Did you mean ${choice}?)`);
        }
      }
    }
    const alpaca = await run(['import', 'outputs', 'f', '--model', 'm', '--format', 'alpaca']);
    expect(alpaca.stderr.split('\n')[1]).toBe('(Did you mean alpaca_eval?)');
  });

  it('under a Chinese locale the abilities are listed by their Chinese names, with a "did you mean"', async () => {
    const r = await run(['import', 'battles', 'f', '--ability', '知识x'], { LANG: 'zh_CN.UTF-8' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      '错误：选项“--ability <ability>”的值“知识x”无效。可选值为 知识、中文特定、语言、推理、拒答、安全、鲁棒性。\n' +
        '（你是不是想输入 知识？）\n（加上 --help 查看用法）\n',
    );
  });

  it('--ability takes the id or its display name in either language, read as the id; help lists the ids', () => {
    const parsed = (value: string) => {
      const program = buildProgram(quiet, { env: {} } as unknown as CliDeps);
      const results = program.commands.find((c) => c.name() === 'results') as Command;
      results.action(() => {});
      program.parse(['node', 'zhujiu', 'results', '--run', '1', '--ability', value]);
      return results.opts().ability;
    };
    expect(parsed('knowledge')).toBe('knowledge');
    expect(parsed('知识')).toBe('knowledge');
    expect(parsed('推理')).toBe('reasoning');
    expect(parsed('Reasoning')).toBe('reasoning');
    for (const { option } of options.filter((o) => o.option.long === '--ability'))
      expect(option.argChoices).toEqual([...ABILITIES]);
  });
});
