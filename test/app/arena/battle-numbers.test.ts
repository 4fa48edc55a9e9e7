/**
 * Battle numbers per source (migration 0008): after an import of public votes the community's battles are still
 * #1, #2, … (they were numbered after every imported battle, `#301` here, `#200118` after 200,000 votes), and a
 * number typed in chat names only a battle of the community's arena: an imported battle's number is "no battle"
 * for `/arena void`, `/arena ability` and `vote` (`/arena void 120` voided an imported public vote). Numbers are
 * given in SQL at insert, consecutive and unique per source with several connections inserting at once, and the
 * migration numbers existing battles per source. `export battles` names battles by the same numbers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BotService } from '../../../src/bot/service.ts';
import type { ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { importBattles } from '../../../src/import/battles.ts';
import { exportBattles } from '../../../src/import/export-battles.ts';
import {
  createNumberedBattle,
  getArenaBattle,
  type NewBattle,
} from '../../../src/storage/battles.ts';
import { type Db, migrateDown, migrateToLatest, openDb } from '../../../src/storage/db.ts';
import { ensureModels } from '../../../src/storage/models.ts';
import { backends, freshDb, type TestDb } from '../../helpers/db.ts';
import { seedModels, terminal, terminalShell, testBot, testConfig } from './helpers.ts';

const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-numbers-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `n` public votes among three models, as `zhujiu import battles` reads them. */
function publicVotes(n: number, name = 'public.jsonl'): string {
  const models = ['pub-a', 'pub-b', 'pub-c'];
  const lines = Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      model_a: models[i % 3],
      model_b: models[(i + 1) % 3],
      winner: i % 2 ? 'model_a' : 'tie',
    }),
  );
  const file = join(tmp, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function exported(d: TestDb, source: string, format: 'jsonl' | 'fastchat') {
  const chunks: string[] = [];
  const out = new Writable({
    write(c: Buffer, _e, cb) {
      chunks.push(c.toString());
      cb();
    },
  });
  await exportBattles(d.db, out, { source, format });
  return chunks
    .join('')
    .trimEnd()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

async function numbersOf(db: Db['db'], source: string): Promise<number[]> {
  const r = await sql<{ number: number }>`
    SELECT number FROM battles WHERE source = ${source} ORDER BY id`.execute(db);
  return r.rows.map((x) => Number(x.number));
}

describe.each(backends())('battle numbers on %s', (backend) => {
  describe('in chat, after an import of public votes', () => {
    let d: TestDb;
    let bot: BotService;
    let shell: ShellAdapter;
    let term: ReturnType<typeof terminal>;

    beforeEach(async () => {
      d = await freshDb(backend);
      await seedModels(d.db);
      await importBattles(d.db, { file: publicVotes(300), source: 'lmsys' });
      term = terminal();
      const clock = new ManualClock(new Date('2026-12-01T10:00:00Z'));
      const config = testConfig();
      shell = terminalShell(term, config, { sessionTag: 'n1', clock });
      bot = testBot({ db: d.db, config, platforms: [shell], clock });
      await bot.start();
    });
    afterEach(async () => {
      await bot.stop();
      await d.destroy();
    });

    const answer = async (line: string): Promise<string> => {
      const before = term.text().length;
      await shell.say(line);
      return term.text().slice(before);
    };

    it("numbers the community's battles #1, #2 and acts only on them", async () => {
      expect(await answer('/arena')).toContain('Battle #1 posted.');
      expect(shell.posted[0]?.content.title).toBe('Arena battle #1');
      expect(await answer('/arena')).toContain('Battle #2 posted.');
      // The imported battles keep numbers of their own source, 1…300 in file order.
      expect(await numbersOf(d.db, 'lmsys')).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));

      // An imported battle's number (and a number nobody has) names no battle of the community's arena.
      for (const n of [120, 99999]) {
        expect(await answer(`/arena void ${n} spam`)).toBe(
          `(only you) There is no battle #${n} in this community's arena.\n`,
        );
        expect(await answer(`/arena ability ${n} reasoning`)).toBe(
          `(only you) There is no battle #${n} in this community's arena.\n`,
        );
        expect(await answer(`vote ${n} left`)).toBe(`no battle #${n} in this community's arena\n`);
      }
      const imported = await sql<{ status: string; ability_source: string | null }>`
        SELECT status, ability_source FROM battles WHERE source = 'lmsys' AND number = 120`.execute(
        d.db,
      );
      expect(imported.rows).toEqual([{ status: 'closed', ability_source: null }]);

      // The community's own battles answer to their numbers.
      expect(await answer('as alice vote 1 left')).toBe('alice voted ⬅️ (left) on battle #1\n');
      expect(await answer('/arena void 2 spam')).toContain('Battle #2 is void');
      expect((await getArenaBattle(d.db, 2))?.status).toBe('void');
      expect((await getArenaBattle(d.db, 1))?.status).toBe('open');

      // `export battles` names a battle by its number within its source.
      const arena = await exported(d, 'arena', 'jsonl');
      expect(arena.map((l) => [l.battle_id, l.source])).toEqual([[1, 'arena']]);
      expect((await exported(d, 'arena', 'fastchat')).map((l) => l.question_id)).toEqual([
        'arena-1',
      ]);
      const pub = await exported(d, 'lmsys', 'jsonl');
      expect(pub.map((l) => l.battle_id)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    });
  });

  it('gives consecutive, unique numbers per source while several connections insert and import', async () => {
    const d = await freshDb(backend);
    const extra: Db[] = [];
    try {
      const ids = await ensureModels(d.db, ['m1', 'm2'], 'recorded');
      const battle: NewBattle = {
        itemId: null,
        ability: null,
        leftModelId: ids.get('m1') as number,
        rightModelId: ids.get('m2') as number,
        responseLeftId: null,
        responseRightId: null,
      };
      // Postgres: four more pools on the same database, as four processes; PGlite has one connection.
      if (backend === 'postgres' && d.url)
        for (let i = 0; i < 4; i++)
          extra.push(await openDb({ kind: 'postgres', url: d.url, poolSize: 3 }));
      const conns = [d.db, ...extra.map((x) => x.db)];
      const file = publicVotes(2000, 'concurrent.jsonl');
      const work: Promise<unknown>[] = [
        importBattles(conns[1 % conns.length] as Db['db'], { file, source: 'pub' }),
      ];
      for (let i = 0; i < 100; i++)
        work.push(createNumberedBattle(conns[i % conns.length] as Db['db'], battle));
      work.push(importBattles(conns[2 % conns.length] as Db['db'], { file, source: 'pub' }));
      for (let i = 0; i < 20; i++)
        work.push(
          createNumberedBattle(conns[i % conns.length] as Db['db'], { ...battle, source: 'pub' }),
        );
      await Promise.all(work);

      const arena = await numbersOf(d.db, 'arena');
      expect([...arena].sort((a, b) => a - b)).toEqual(
        Array.from({ length: 100 }, (_, i) => i + 1),
      );
      const pub = await numbersOf(d.db, 'pub');
      expect(pub.length).toBe(2020);
      expect([...pub].sort((a, b) => a - b)).toEqual(Array.from({ length: 2020 }, (_, i) => i + 1));
      const last = await sql<{ source: string; last_number: number }>`
        SELECT source, last_number FROM battle_numbers ORDER BY source`.execute(d.db);
      expect(last.rows.map((r) => [r.source, Number(r.last_number)])).toEqual([
        ['arena', 100],
        ['pub', 2020],
      ]);
    } finally {
      for (const x of extra) await x.close();
      await d.destroy();
    }
  });

  it('the migration numbers existing battles per source in id order; new ones continue', async () => {
    const d = await freshDb(backend);
    try {
      const ids = await ensureModels(d.db, ['m1', 'm2'], 'recorded');
      // Roll back to just before 0008 (later migrations first, one at a time).
      const rolledBack: string[] = [];
      while (!rolledBack.includes('0008_battle_numbers_close_reasons')) {
        const down = await migrateDown(d.db);
        expect(down.error).toBeUndefined();
        const names = down.results?.map((r) => r.migrationName) ?? [];
        expect(names).toHaveLength(1);
        rolledBack.push(...names);
      }
      const [l, r] = [ids.get('m1'), ids.get('m2')];
      for (const source of ['arena', 'lmsys', 'arena', 'lmsys', 'lmsys', 'arena', 'other'])
        await sql`INSERT INTO battles (model_left_id, model_right_id, source, status)
                  VALUES (${l}, ${r}, ${source}, 'closed')`.execute(d.db);
      await migrateToLatest(d.db);
      const rows = await sql<{ source: string; number: number }>`
        SELECT source, number FROM battles ORDER BY id`.execute(d.db);
      expect(rows.rows.map((x) => `${x.source}#${x.number}`)).toEqual([
        'arena#1',
        'lmsys#1',
        'arena#2',
        'lmsys#2',
        'lmsys#3',
        'arena#3',
        'other#1',
      ]);
      const next = await createNumberedBattle(d.db, {
        itemId: null,
        ability: null,
        leftModelId: l as number,
        rightModelId: r as number,
        responseLeftId: null,
        responseRightId: null,
      });
      expect(next.number).toBe(4);
      expect((await getArenaBattle(d.db, 4))?.id).toBe(next.id);
    } finally {
      await d.destroy();
    }
  });
});
