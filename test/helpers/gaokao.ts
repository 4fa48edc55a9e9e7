/**
 * GAOKAO-Bench test data: the GPT-4-0314 objective result folder and a datasets folder holding every question.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sharedData } from './shared-data.ts';

/** The GPT-4-0314 objective result folder, under the shared data folder. */
export const GAOKAO_GPT4_RESULTS = ['outputs', 'gaokao_bench', 'gpt-4-0314_objective'] as const;

/**
 * A datasets folder in GAOKAO-Bench's layout whose question files are the full result files (they hold every
 * question, its standard answer and points; the shared datasets folder has a 15-per-file sample only).
 */
export function fullGaokaoDatasetsDir(): string {
  const root = mkdtempSync(join(tmpdir(), 'zj-gaokao-'));
  const q = join(root, 'gaokao_bench', 'Objective_Questions');
  mkdirSync(q, { recursive: true });
  mkdirSync(join(root, 'gaokao_bench', 'prompts'));
  // Copies, not symlinks: a dataset file is read only from inside the datasets folder (eval/datasets/source).
  copyFileSync(
    sharedData('datasets', 'gaokao_bench', 'prompts', 'Obj_Prompt.json'),
    join(root, 'gaokao_bench', 'prompts', 'Obj_Prompt.json'),
  );
  for (const f of readdirSync(sharedData(...GAOKAO_GPT4_RESULTS)).filter((x) =>
    x.endsWith('.json'),
  )) {
    copyFileSync(sharedData(...GAOKAO_GPT4_RESULTS, f), join(q, f.replace(/^gpt-4-0314_/, '')));
  }
  return root;
}
