/**
 * Errors that lower layers throw and the command line (or chat) shows are catalogue data (`saidError`, or an
 * eval/refusal `EvalRefusalError`), said in the reader's language: none is English-only (docs/architecture.md
 * "Languages"). Each case here was English in a Chinese terminal.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/loader.ts';
import { type AppError, isAppError } from '../../../src/core/errors.ts';
import { checkLogFile, silentLogger } from '../../../src/core/logger.ts';
import { prepareSuiteDatasets } from '../../../src/eval/prepare-suite.ts';
import { EvalRefusalError, evalRefusalText } from '../../../src/eval/refusal.ts';
import { sayCli } from '../../../src/i18n/cli.ts';
import { openLiveArena } from '../../../src/main.ts';
import { arenaFromBattles, arenaFromPairCounts } from '../../../src/rating/arena-data.ts';
import { fitBradleyTerry } from '../../../src/rating/bradley-terry.ts';

/** What `fn` throws (sync or async). */
async function thrown(fn: () => unknown): Promise<AppError> {
  try {
    await fn();
  } catch (err) {
    if (isAppError(err)) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

/** The error's message in Chinese, as the command line's error printer says it (cli/index.ts errorText). */
function zh(err: AppError): string {
  if (err instanceof EvalRefusalError) return evalRefusalText(err.refusal, 'zh-CN', 'cli');
  if (!err.said) throw new Error(`English only: ${err.message}`);
  return sayCli('zh-CN', err.said);
}

const HAS_ENGLISH_WORDS = /[A-Za-z]{3,}\s+[A-Za-z]{3,}/u;

describe('errors shown to a Chinese reader are in Chinese', () => {
  it('an unknown suite (eval/prepare-suite)', async () => {
    const config = { suites: new Map(), datasetsDir: '/nowhere', datasetsCacheDir: '/nowhere' };
    const err = await thrown(() => prepareSuiteDatasets(config, 'nope'));
    expect(err.code).toBe('not_found');
    expect(err.message).toMatch(/^Unknown suite "nope"/u);
    expect(zh(err)).toMatch(/^未知的评测套件“nope”/u);
  });

  it('the ratings: a self-battle, an anchor without battles or without a finite rating, too few models', async () => {
    const self = await thrown(() =>
      arenaFromBattles([{ model_a: 'a', model_b: 'a', winner: 'tie' }]),
    );
    expect(self.message).toBe('self-battle: "a" against itself');
    expect(zh(self)).toBe('自己对战自己：“a”对战它自己');
    const pair = await thrown(() =>
      arenaFromPairCounts([
        { model_a: 'a', model_b: 'b', model_a_wins: -1, model_b_wins: 0, tie: 0, tie_bothbad: 0 },
      ]),
    );
    expect(zh(pair)).toBe('成对计数第 1 行（a 对 b）：model_a_wins 必须是非负整数，实际是 -1');
    const data = arenaFromBattles([
      { model_a: 'a', model_b: 'b', winner: 'model_a' },
      { model_a: 'a', model_b: 'b', winner: 'model_a' },
    ]);
    const anchor = await thrown(() =>
      fitBradleyTerry(data, { anchor: { model: 'nobody', rating: 1000 } }),
    );
    expect(zh(anchor)).toBe(
      '锚定模型“nobody”在数据中没有对战；请从数据中的模型里另选一个，或去掉锚定',
    );
    const few = await thrown(() => fitBradleyTerry(data));
    expect(few.message).toBe(
      'fewer than two models can be rated (0); excluded: a (unbounded above, 2 votes), b (unbounded below, 2 votes). Add battles between models.',
    );
    expect(zh(few)).toBe(
      '能评分的模型少于两个（0 个）；被排除的：a（无上界，2 票）、b（无下界，2 票）。请增加模型之间的对战。',
    );
    const strict = await thrown(() => fitBradleyTerry(data, { onDegenerate: 'error' }));
    expect(zh(strict)).toMatch(/^以下模型没有有限的 Bradley–Terry 评分：a（无上界，2 票）、b/u);
  });

  it('arena.ask.classifier_model naming no callable model (main.ts openLiveArena)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-errors-zh-'));
    writeFileSync(join(dir, 'default.yaml'), 'arena:\n  ask:\n    classifier_model: nope\n');
    writeFileSync(join(dir, 'models.yaml'), 'models:\n  - name: m1\n    provider: recorded\n');
    const config = loadConfig({ configDir: dir, env: {}, cwd: dir });
    const err = await thrown(() =>
      openLiveArena({ config, logger: silentLogger, db: undefined as never }),
    );
    expect(err.code).toBe('config_invalid');
    expect(zh(err)).toMatch(
      /arena\.ask\.classifier_model：“nope”不是 \S*models\.yaml 中的模型，因此无法评判\/ask 中未标注能力的提问的能力。.*（已配置：无）/u,
    );
  });

  it('a log file that cannot be opened (LOG_FILE)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'zhujiu-errors-zh-'));
    const err = await thrown(() => checkLogFile(dir));
    expect(err.message).toContain('(it is a folder)');
    expect(zh(err)).toBe(
      `LOG_FILE：无法打开日志文件 ${dir}（它是一个目录）；请把 LOG_FILE 设为可写的文件，或者设 LOG_FILE=- 把日志写到标准错误输出`,
    );
    expect(zh(err)).not.toMatch(HAS_ENGLISH_WORDS);
  });
});
