/**
 * The community's own votes (`arena`) and imported public votes are separate pools. Ratings, the
 * leaderboard and `/models` use the community's votes by default and imported sources only when asked.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArenaService } from '../../../src/arena/service.ts';
import { createCommandHandler } from '../../../src/bot/commands/handlers.ts';
import type { CommandContext, MessageContent } from '../../../src/chat/port.ts';
import { systemClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { importOutputs } from '../../../src/import/outputs.ts';
import { LeaderboardService } from '../../../src/leaderboard/service.ts';
import { battleVoteTypes } from '../../../src/storage/arena-queries.ts';
import { createBattle, markPosted } from '../../../src/storage/battles.ts';
import { findModel } from '../../../src/storage/models.ts';
import { listSources, ratedSources, sourceNames } from '../../../src/storage/sources.ts';
import { applyVoteEvent, pairVoteCounts } from '../../../src/storage/votes.ts';
import { backends, countRows, freshDb, type TestDb } from '../../helpers/db.ts';
import { testConfig } from './helpers.ts';

async function command(
  db: TestDb,
  name: string,
  config = testConfig(),
): Promise<MessageContent | undefined> {
  const leaderboard = new LeaderboardService({
    db: db.db,
    clock: systemClock,
    logger: silentLogger,
    aggregation: { ...config.aggregation, bootstrap: 20 },
    includeSources: config.ratings.include_sources,
    compute: 'inline',
    inlineChart: false,
  });
  const handler = createCommandHandler({
    db: db.db,
    arena: {} as ArenaService,
    config,
    logger: silentLogger,
    leaderboard,
  });
  const replies: MessageContent[] = [];
  const ctx: CommandContext = {
    platform: 'shell',
    eventId: `e-${name}`,
    name,
    args: {},
    text: '',
    user: { id: 'u1', roles: [] },
    channelId: 'terminal',
    reply: async (c) => {
      replies.push(c);
    },
  };
  await handler(ctx);
  await leaderboard.close();
  return replies[0];
}

describe.each(backends())('vote sources on %s', (backend) => {
  let d: TestDb;
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-sources-'));
  beforeAll(async () => {
    d = await freshDb(backend);
    // The user's own recorded models answer two items...
    const outputs = join(tmp, 'answers.jsonl');
    for (const m of ['alpaca-7b', 'chatglm2-6b']) {
      writeFileSync(
        outputs,
        '{"item":"q1","prompt":"Explain tides.","output":"Tides come from the moon."}\n' +
          `{"item":"q2","prompt":"Name a colour.","output":"Blue, says ${m === 'alpaca-7b' ? 'one' : 'two'}."}\n`,
      );
      await importOutputs(d.db, { file: outputs, model: m, format: 'jsonl' });
    }
    // ...and public votes are imported: the same name chatglm2-6b plus public-only models.
    const pub = join(tmp, 'public.jsonl');
    const lines: string[] = [];
    for (let i = 0; i < 30; i++) {
      lines.push(JSON.stringify({ model_a: 'gpt-4', model_b: 'chatglm2-6b', winner: 'model_a' }));
      lines.push(JSON.stringify({ model_a: 'vicuna-13b', model_b: 'gpt-4', winner: 'model_b' }));
      lines.push(JSON.stringify({ model_a: 'chatglm2-6b', model_b: 'vicuna-13b', winner: 'tie' }));
    }
    writeFileSync(pub, `${lines.join('\n')}\n`);
    await importBattles(d.db, { file: pub, source: 'lmsys' });
    // One battle in the community's own arena, with 25 votes for alpaca-7b (left).
    const l = await findModel(d.db, 'alpaca-7b');
    const r = await findModel(d.db, 'chatglm2-6b');
    const id = await createBattle(d.db, {
      itemId: null,
      ability: 'language',
      leftModelId: l?.id as number,
      rightModelId: r?.id as number,
      responseLeftId: null,
      responseRightId: null,
    });
    const now = new Date('2026-11-30T12:00:00Z');
    await markPosted(d.db, id, {
      platform: 'shell',
      channelId: 'terminal',
      messageId: 'm1',
      partIds: [],
      postedAt: now,
      closesAt: new Date(now.getTime() + 3_600_000),
    });
    for (let v = 0; v < 25; v++) {
      await applyVoteEvent(d.db, {
        battleId: id,
        voterHash: `voter-hash-${v}`,
        platform: 'shell',
        eventId: `ev-${v}`,
        kind: 'add',
        choice: v < 20 ? 'left' : 'right',
        at: now,
      });
    }
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('every battle carries its source; rating queries count arena votes unless asked', async () => {
    expect(await listSources(d.db)).toEqual([
      { source: 'arena', battles: 1, votes: 25 },
      { source: 'lmsys', battles: 90, votes: 90 },
    ]);
    expect(await sourceNames(d.db)).toEqual(['arena', 'lmsys']);
    expect(await pairVoteCounts(d.db)).toEqual([
      { model_a: 'alpaca-7b', model_b: 'chatglm2-6b', a_wins: 20, b_wins: 5, ties: 0 },
    ]);
    expect(await battleVoteTypes(d.db)).toEqual([
      { leftModel: 'alpaca-7b', rightModel: 'chatglm2-6b', left: 20, equal: 0, right: 5, count: 1 },
    ]);
    const both = await pairVoteCounts(d.db, undefined, ratedSources(['lmsys']));
    expect(both.map((p) => `${p.model_a}>${p.model_b}`)).toEqual([
      'alpaca-7b>chatglm2-6b',
      'chatglm2-6b>vicuna-13b',
      'gpt-4>chatglm2-6b',
      'vicuna-13b>gpt-4',
    ]);
    expect(await pairVoteCounts(d.db, undefined, ['lmsys'])).toHaveLength(3);
    expect(ratedSources(['lmsys'], ['lmsys', 'other'])).toEqual(['arena', 'lmsys', 'other']);
  });

  it('/leaderboard rates the community votes only; the public models are not on it', async () => {
    const c = await command(d, 'leaderboard');
    const models = c?.table?.rows.map((r) => r[1]);
    expect(models).toEqual(['alpaca-7b', 'chatglm2-6b']);
    const votes = c?.table?.columns.indexOf('votes') ?? -1;
    expect(c?.table?.rows.map((r) => r[votes])).toEqual(['25', '25']);
    expect(c?.footer).toMatch(/; sources: arena; /);
    // The config's list of imported sources adds them.
    const withPublic = await command(
      d,
      'leaderboard',
      testConfig({ ratings: { include_sources: ['lmsys'] } }),
    );
    // Its models join the board; with a few votes and no score in any method they are left out of the table, and
    // counted.
    expect(withPublic?.table?.rows.map((r) => r[1]).sort()).toEqual(['alpaca-7b', 'chatglm2-6b']);
    expect(withPublic?.footer).toContain('2 models with no score in any method left out');
    expect(withPublic?.footer).toMatch(/; sources: arena, lmsys; /);
  });

  it('/models lists the models that can battle, apart from names known only from imported votes', async () => {
    const c = await command(d, 'models');
    expect(c?.text).toBe('2 models can battle');
    expect(c?.table?.rows).toEqual([
      ['alpaca-7b', 'recorded', '2'],
      ['chatglm2-6b', 'recorded', '2'],
    ]);
    expect(c?.footer).toBe(
      '2 more model names are known only from imported votes (source lmsys): they have no answers, so they ' +
        'cannot battle here. Their votes count in ratings only where `ratings.include_sources` lists the source.',
    );
  });

  it('an import cannot take the name of the community arena', async () => {
    const f = join(tmp, 'arena.jsonl');
    writeFileSync(f, '{"model_a":"a","model_b":"b","winner":"tie"}\n');
    const before = await countRows(d, 'battles');
    await expect(importBattles(d.db, { file: f })).rejects.toThrow(
      /^--source "arena" \(from the file name\) is reserved for the votes cast through the bot; give the imported votes their own name/,
    );
    await expect(importBattles(d.db, { file: f, source: 'arena' })).rejects.toThrow(
      /^--source "arena" is reserved/,
    );
    expect(await countRows(d, 'battles')).toBe(before);
  });
});

describe.each(backends())('/leaderboard on an empty board with imported votes on %s', (backend) => {
  let d: TestDb;
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-sources-empty-'));
  beforeAll(async () => {
    d = await freshDb(backend);
    const pub = join(tmp, 'public.jsonl');
    const line = JSON.stringify({ model_a: 'gpt-4', model_b: 'vicuna-13b', winner: 'model_a' });
    writeFileSync(pub, `${Array.from({ length: 3 }, () => line).join('\n')}\n`);
    await importBattles(d.db, { file: pub, source: 'lmsys' });
  });
  afterAll(async () => {
    await d?.destroy();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('says which sources hold votes and how to see them, in both languages; not once they count', async () => {
    const c = await command(d, 'leaderboard');
    expect(c?.text).toBe(
      'No models yet. Import outputs or run an evaluation; the board fills in as scores and votes come.\n' +
        'No votes from arena; another source holds votes: lmsys (3 votes). See them with ' +
        '`zhujiu leaderboard --source lmsys` on the command line (`/leaderboard` has no source option), or count ' +
        'a source on this board by listing it in `ratings.include_sources` (config/default.yaml).',
    );
    const zh = await command(d, 'leaderboard', testConfig({ locale: 'zh-CN' }));
    expect(zh?.text).toContain(
      'arena 没有投票；其他来源有投票：lmsys（3 票）。可以在命令行用 `zhujiu leaderboard --source lmsys` 查看',
    );
    // Counted by the board (ratings.include_sources): no note.
    const counted = await command(
      d,
      'leaderboard',
      testConfig({ ratings: { include_sources: ['lmsys'] } }),
    );
    expect(counted?.text ?? '').not.toContain('No votes from');
  });
});
