/**
 * Reactions that arrive together on a battle the service has not seen a reaction for yet (a burst on a new
 * battle) read the battle once between them, and each is applied as a vote; reactions arriving together on a
 * message that holds no battle are each ignored as such.
 */
import type {
  Kysely,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
} from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ArenaService } from '../../../src/arena/service.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import type { Database } from '../../../src/storage/schema.ts';
import { flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { acceptingPlatform, counterSeeds, SECRET, seedModels, testConfig } from './helpers.ts';

/** Counts the statements that look a battle up by its message (storage/battles findBattleByMessage). */
class BattleReads implements KyselyPlugin {
  n = 0;
  #db: Kysely<Database> | undefined;
  bind(db: Kysely<Database>): Kysely<Database> {
    this.#db = db;
    return db;
  }
  transformQuery(args: PluginTransformQueryArgs) {
    const c = this.#db?.getExecutor().compileQuery(args.node, args.queryId);
    if (c?.sql.includes('"b"."message_id" =')) this.n++;
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

describe.each(flowBackends())('a burst of reactions on a new battle (%s)', (backend) => {
  let d: TestDb | undefined;
  afterAll(async () => {
    await d?.destroy();
  });

  it('reads the battle once for 40 reactions arriving together, and stores 40 votes', async () => {
    d = await freshDb(backend);
    await seedModels(d.db);
    const reads = new BattleReads();
    const clock = new ManualClock(new Date('2026-11-30T12:00:00Z'));
    const arena = new ArenaService({
      db: reads.bind(d.db.withPlugin(reads)),
      platforms: [acceptingPlatform()],
      arena: testConfig().arena,
      clock,
      logger: silentLogger,
      voterSecret: SECRET,
      seedSource: counterSeeds(),
    });
    const posted = await arena.postBattle('shell', 'terminal');
    if (!posted.ok) throw new Error(JSON.stringify(posted.reason));
    const react = (messageId: string, i: number) =>
      arena.onReaction({
        platform: 'shell',
        eventId: `${messageId}-${i}`,
        channelId: 'terminal',
        messageId,
        userId: `u${i}`,
        emoji: ['⬅️', '🟰', '➡️'][i % 3] as string,
        added: true,
        at: clock.now(),
      });
    const before = reads.n;
    const out = await Promise.all(
      Array.from({ length: 40 }, (_, i) => react(posted.value.ref.messageId, i)),
    );
    expect(out.filter((r) => r.kind === 'vote' && r.effect === 'cast')).toHaveLength(40);
    expect(reads.n - before).toBe(1);
    // Cached now: a later reaction reads nothing.
    await react(posted.value.ref.messageId, 40);
    expect(reads.n - before).toBe(1);
    // A message holding no battle: each reaction is ignored as unknown (nothing is kept for it).
    const unknown = await Promise.all(Array.from({ length: 5 }, (_, i) => react('nope', i)));
    expect(unknown).toEqual(
      Array.from({ length: 5 }, () => ({ kind: 'ignored', reason: 'unknown_message' })),
    );
  });
});
