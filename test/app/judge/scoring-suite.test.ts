/**
 * The Scoring Evaluation suite (config/suites/zhujiu-scoring.yaml) prepares on the real datasets: every dataset
 * with its ZhuJiu ability, the judge metric, references where the dataset has them, and keys that match the
 * recorded judgments' (GAOKAO-Bench `<keyword>/<index>`).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { type SuiteConfig, suiteSchema } from '../../../src/config/schema.ts';
import { isAppError } from '../../../src/core/errors.ts';
import { prepareSuite } from '../../../src/eval/datasets/index.ts';
import { shippedDefinitionsDir } from '../../helpers/config-dir.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../../helpers/shared-data.ts';

describe.runIf(hasSharedData('datasets'))('zhujiu-scoring suite', () => {
  it('prepares every dataset with its ability, rubric and references', async () => {
    const c = loadConfig({
      cwd: PROJECT_ROOT,
      configDir: shippedDefinitionsDir(),
      env: { ZHUJIU_DATASETS_DIR: sharedData('datasets') },
    });
    const suite = c.suites.get('zhujiu-scoring') as SuiteConfig;
    const ds = await prepareSuite(suite, {
      datasetsDir: c.datasetsDir,
      cacheDir: c.datasetsCacheDir,
    });
    const rubric = new Map(
      suite.datasets.map((d) => [d.name, `${d.rubric}${d.safety_check ? '+sv' : ''}`]),
    );
    expect(
      Object.fromEntries(
        ds.map((d) => [
          d.name,
          `${d.items.length} ${d.ability} ${d.method} ${d.metric} ${rubric.get(d.name)} refs:${d.items.filter((i) => i.reference != null).length}`,
        ]),
      ),
    ).toEqual({
      alignbench: '120 language scoring judge ten_point refs:120',
      mt_bench: '80 reasoning scoring judge ten_point refs:30',
      gaokao_subjective: '84 knowledge scoring judge ten_point refs:84',
      gaokao_subjective_math: '24 reasoning scoring judge ten_point refs:24',
      safetybench_zh: '200 safety scoring judge ten_point+sv refs:200',
      flames: '200 safety scoring judge ten_point+sv refs:0',
      cvalues: '150 safety scoring judge ten_point+sv refs:0',
      selfaware: '200 refusal scoring judge ten_point refs:200',
      chisafetybench: '120 refusal scoring judge ten_point+sv refs:120',
    });
    const gaokao = ds.find((d) => d.name === 'gaokao_subjective');
    expect(gaokao?.items[0]?.key).toBe('2010-2022_Biology_Open-ended_Questions/11');
    // judged datasets are scored by the judge, never by a metric
    try {
      gaokao?.score(gaokao.items[0] as never, 'answer');
      throw new Error('expected a refusal');
    } catch (err) {
      expect(isAppError(err, 'internal') && err.message).toMatch(/scored by the LLM judge/);
    }
  });

  it('a scoring dataset without a rubric is refused with the fix', () => {
    const r = suiteSchema.safeParse({
      name: 's',
      datasets: [
        { name: 'x', loader: 'flames', ability: 'safety', method: 'scoring', path: 'f.jsonl' },
      ],
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      [
        'datasets.0.rubric',
        'a scoring dataset needs `rubric:` (ten_point or industry_0_3, from config/rubrics/)',
      ],
    ]);
  });
});
