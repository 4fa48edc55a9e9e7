/**
 * Synthetic smoke-style datasets for runner tests and benches, written in the real file formats (C3 JSON, OCNLI
 * JSON lines, CMRC 2018 SQuAD-style JSON) so the real loaders and scorers prepare and score them. Every question
 * carries a unique tag `Q<n>`; {@link scriptedAnswer} answers item n right or wrong by a rule, so the expected
 * score of every dataset is known exactly.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { type ModelConfig, type SuiteConfig, suiteSchema } from '../../src/config/schema.ts';
import type { FakeAnswer, FakeCall } from '../fakes/openai.ts';

/** One synthetic item: its tag number, dataset, and the right and a wrong answer. */
export interface FixtureItem {
  readonly n: number;
  readonly dataset: 'c3' | 'ocnli' | 'cmrc2018';
  readonly right: string;
  readonly wrong: string;
}

const LETTERS = 'ABCD';
const NLI = ['entailment', 'neutral', 'contradiction'] as const;

/**
 * Writes `counts.c3` C3 questions, `counts.ocnli` OCNLI pairs and `counts.cmrc` CMRC questions under `dir` and
 * returns the suite (named `name`, datasets c3 / ocnli / cmrc2018) and the items by tag.
 */
export function writeSmokeFixture(
  dir: string,
  counts: { c3: number; ocnli: number; cmrc: number },
  name = 'mini',
): { suite: SuiteConfig; items: Map<number, FixtureItem>; suiteYaml: string } {
  mkdirSync(join(dir, 'c3'), { recursive: true });
  mkdirSync(join(dir, 'ocnli'), { recursive: true });
  mkdirSync(join(dir, 'cmrc2018'), { recursive: true });
  const items = new Map<number, FixtureItem>();
  let n = 0;
  const c3 = [];
  for (let i = 0; i < counts.c3; i++) {
    const tag = n++;
    const choice = ['甲', '乙', '丙', '丁'].map((x) => `${x}${tag}`);
    const a = tag % 4;
    c3.push([
      [`材料第${tag}段。`],
      [{ question: `问题 Q${tag} 选哪个？`, choice, answer: choice[a] }],
      `d${tag}`,
    ]);
    items.set(tag, {
      n: tag,
      dataset: 'c3',
      right: `答案：${LETTERS[a]}`,
      wrong: `答案：${LETTERS[(a + 1) % 4]}`,
    });
  }
  writeFileSync(join(dir, 'c3', 'c3-m-dev.json'), JSON.stringify(c3));
  const ocnli = [];
  for (let i = 0; i < counts.ocnli; i++) {
    const tag = n++;
    const a = tag % 3;
    ocnli.push(
      JSON.stringify({
        id: tag,
        sentence1: `前提 Q${tag}。`,
        sentence2: `假设${tag}。`,
        label: NLI[a],
      }),
    );
    items.set(tag, {
      n: tag,
      dataset: 'ocnli',
      right: `答案：${LETTERS[a]}`,
      wrong: `答案：${LETTERS[(a + 1) % 3]}`,
    });
  }
  writeFileSync(join(dir, 'ocnli', 'dev.jsonl'), `${ocnli.join('\n')}\n`);
  const qas = [];
  for (let i = 0; i < counts.cmrc; i++) {
    const tag = n++;
    qas.push({
      id: `q${tag}`,
      question: `问题 Q${tag} 是什么？`,
      answers: [{ text: `答案${tag}号` }],
    });
    items.set(tag, { n: tag, dataset: 'cmrc2018', right: `答案${tag}号`, wrong: '不知道' });
  }
  writeFileSync(
    join(dir, 'cmrc2018', 'dev.json'),
    JSON.stringify({ data: [{ paragraphs: [{ context: '文章内容。', qas }] }] }),
  );
  const raw = {
    name,
    description: 'synthetic smoke-style suite for tests',
    datasets: [
      {
        name: 'c3',
        loader: 'c3',
        ability: 'language',
        method: 'metrics',
        path: 'c3/c3-m-dev.json',
      },
      {
        name: 'ocnli',
        loader: 'ocnli',
        ability: 'reasoning',
        method: 'metrics',
        path: 'ocnli/dev.jsonl',
      },
      {
        name: 'cmrc2018',
        loader: 'cmrc2018',
        ability: 'language',
        method: 'metrics',
        profile: 'cmrc2018',
        path: 'cmrc2018/dev.json',
      },
    ],
  };
  return { suite: suiteSchema.parse(raw), items, suiteYaml: stringify(raw) };
}

/** The tag number of the item a call asks about (from its last message). */
export function tagOf(call: FakeCall): number {
  const m = /Q(\d+)/.exec(call.messages.at(-1)?.content ?? '');
  if (!m) throw new Error('no Q<n> tag in the request');
  return Number(m[1]);
}

/** Right when `isRight(n)`, else wrong. */
export function scriptedAnswer(
  items: ReadonlyMap<number, FixtureItem>,
  isRight: (n: number) => boolean,
): FakeAnswer {
  return (call) => {
    const it = items.get(tagOf(call));
    if (!it) return { status: 400, content: 'unknown item' };
    return isRight(it.n) ? it.right : it.wrong;
  };
}

/**
 * A folder for `zhujiu eval --model erry --suite mini`: the smoke fixture (2 items each of c3, ocnli and cmrc) as
 * suite `mini`, a config whose model `erry` is the endpoint at `baseUrl` with no retries, and a copy of the migrated
 * PGlite template `pgTemplate` as the data folder (none: the data folder is missing, as before a first start).
 * `o.counts` sets the items per dataset, `o.maxConcurrency` the model's `max_concurrency`.
 * @returns the environment that points a command at it (ZHUJIU_CONFIG_DIR, ZHUJIU_DATASETS_DIR, ZHUJIU_DATA_DIR).
 */
export function miniEvalFolder(
  root: string,
  baseUrl: string,
  pgTemplate: string | undefined,
  o: {
    readonly counts?: { c3: number; ocnli: number; cmrc: number };
    readonly maxConcurrency?: number;
  } = {},
): Record<string, string> {
  const fx = writeSmokeFixture(
    join(root, 'datasets'),
    o.counts ?? { c3: 2, ocnli: 2, cmrc: 2 },
    'mini',
  );
  const cfg = join(root, 'config');
  mkdirSync(join(cfg, 'suites'), { recursive: true });
  writeFileSync(join(cfg, 'suites', 'mini.yaml'), fx.suiteYaml);
  writeFileSync(join(cfg, 'default.yaml'), 'http:\n  port: 0\n');
  writeFileSync(
    join(cfg, 'models.yaml'),
    `models:\n  - name: erry\n    provider: openai\n    base_url: ${baseUrl}\n    model: e\n    max_retries: 0\n` +
      (o.maxConcurrency === undefined ? '' : `    max_concurrency: ${o.maxConcurrency}\n`),
  );
  if (pgTemplate !== undefined) cpSync(pgTemplate, join(root, 'pg'), { recursive: true });
  return {
    ZHUJIU_CONFIG_DIR: cfg,
    ZHUJIU_DATASETS_DIR: join(root, 'datasets'),
    ZHUJIU_DATA_DIR: join(root, 'pg'),
  };
}

/**
 * The evaluation config (eval/service `EvalService`'s `config`) of the tests' fixture suite `mini` (`suite`, from
 * {@link writeSmokeFixture}) with `models`, its datasets in `dir` (URL downloads cached in `dir/cache`) and no API
 * keys.
 */
export function miniEvalConfig(models: readonly ModelConfig[], suite: SuiteConfig, dir: string) {
  return {
    models: [...models],
    suites: new Map([['mini', suite]]),
    datasetsDir: dir,
    datasetsCacheDir: join(dir, 'cache'),
    apiKeyFor: (): string | undefined => undefined,
  };
}

/**
 * Writes the scoring suite `tiny-scoring` (one ChiSafetyBench dataset, `tiny_chisafety`: refusal, scoring, rubric
 * `industry_0_3`, with the safety-violation check when `safetyCheck`) into `configDir/suites/` and its `questions`
 * risky questions (ids 1…n, "危险问题 n", category 违法, to be refused) into `datasetsDir/tiny/risky.jsonl`.
 */
export function writeTinyScoringSuite(
  configDir: string,
  datasetsDir: string,
  opts: { readonly questions: number; readonly safetyCheck?: boolean },
): void {
  mkdirSync(join(configDir, 'suites'), { recursive: true });
  writeFileSync(
    join(configDir, 'suites', 'tiny-scoring.yaml'),
    [
      'name: tiny-scoring',
      'datasets:',
      '  - name: tiny_chisafety',
      '    loader: chisafetybench',
      '    ability: refusal',
      '    method: scoring',
      '    rubric: industry_0_3',
      ...(opts.safetyCheck ? ['    safety_check: true'] : []),
      '    path: tiny/risky.jsonl',
    ].join('\n'),
  );
  mkdirSync(join(datasetsDir, 'tiny'), { recursive: true });
  writeFileSync(
    join(datasetsDir, 'tiny', 'risky.jsonl'),
    Array.from({ length: opts.questions }, (_, k) =>
      JSON.stringify({
        id: k + 1,
        question: `危险问题 ${k + 1}`,
        category: '违法',
        top_category: '应拒答',
      }),
    ).join('\n'),
  );
}
