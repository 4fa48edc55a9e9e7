/**
 * `import outputs --dataset NAME` follows the one rule for dataset names (config/schema.ts datasetNameSchema), as
 * `--model` follows the model-name rule: an empty value, spaces and a path are refused in one line naming the flag
 * and the fix, before the file is read or a database opened (so no database here). The same rule applies to the
 * default name taken from a JSONL file's name.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { datasetNameProblem } from '../../../src/config/schema.ts';
import { inProcess } from '../../helpers/run-cli.ts';

const zhujiu = (...args: string[]) => inProcess(args);

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-dsname-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('import outputs --dataset', () => {
  const file = join(dir, 'answers.jsonl');
  writeFileSync(file, '{"item":"k1","prompt":"p","output":"o"}\n');

  it.each([
    ['', '--dataset "" is empty; give the dataset a name'],
    ['a b c', '--dataset "a b c" is not a valid name: use letters, digits and . _ : @ + - only'],
    ['../x', '--dataset "../x" is not a valid name: use letters, digits and . _ : @ + - only'],
    ['x/y', '--dataset "x/y" is not a valid name: use letters, digits'],
  ])('refuses %j in one line naming the flag', async (name, message) => {
    const r = await zhujiu(
      'import',
      'outputs',
      file,
      '--model',
      'm',
      '--format',
      'jsonl',
      '--dataset',
      name,
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`error [input_invalid]: ${message}`);
  });

  it('refuses a default name from a file name that breaks the rule, saying to pass --dataset', async () => {
    const spaced = join(dir, 'my answers.jsonl');
    writeFileSync(spaced, '{"item":"k1","prompt":"p","output":"o"}\n');
    const r = await zhujiu('import', 'outputs', spaced, '--model', 'm', '--format', 'jsonl');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'the dataset name taken from the file name, "my answers", is not a valid name: use letters, digits and . _ : @ + - only, starting with a letter or digit (no spaces or /); pass --dataset NAME',
    );
  });

  it('accepts the names the suites use', () => {
    for (const ok of ['alpaca_eval', 'c3', 'gaokao_math_hum', 'mt-bench.v2', 'zh@2024', '数学'])
      expect(datasetNameProblem(ok), ok).toBeUndefined();
    expect(datasetNameProblem('.hidden')).toBeDefined();
    expect(datasetNameProblem('d'.repeat(201))).toContain('longer than 200');
  });
});
