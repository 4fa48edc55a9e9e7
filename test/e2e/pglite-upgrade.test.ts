/**
 * `zhujiu migrate --upgrade-data-dir` (storage/pglite-upgrade.ts): a data folder made by PGlite 0.4
 * (PostgreSQL 17) with battles, votes and an eval run is copied into a PostgreSQL 18 folder that the current
 * `openDb` opens with the same rows, the same trigger-kept counters and sequences that continue past the old ids;
 * the old folder stays beside it as a backup. An upgrade stopped midway leaves the old folder as it was.
 * With the heavy checks (e2e): it creates four PGlite folders (initdb each, ~4 CPU-s apiece).
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBattle, insertImportedBattles, markPosted } from '../../src/storage/battles.ts';
import { migrateToLatest, openDb, yieldingClient } from '../../src/storage/db.ts';
import { createRun } from '../../src/storage/eval-runs.ts';
import { ensureDataset, ensureItems } from '../../src/storage/items.ts';
import { ensureModels } from '../../src/storage/models.ts';
import { PGLITE_PG_MAJOR } from '../../src/storage/pglite-settings.ts';
import { foreignKeyOrder, upgradeDataDir } from '../../src/storage/pglite-upgrade.ts';
import type { Database } from '../../src/storage/schema.ts';
import { applyVoteEvent } from '../../src/storage/votes.ts';
import { inProcess } from '../helpers/run-cli.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-pg-upgrade-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 12, 0, s));

/** Every table's rows, ordered by all columns, as text: what must survive the upgrade unchanged. */
async function snapshot(db: Kysely<Database>): Promise<Record<string, string[]>> {
  const tables = await sql<{ t: string }>`
    select tablename as t from pg_tables where schemaname = 'public' order by 1`.execute(db);
  const out: Record<string, string[]> = {};
  for (const { t } of tables.rows) {
    const r = await sql<{ row: string }>`
      select x::text as row from ${sql.table(t)} x order by 1`.execute(db);
    out[t] = r.rows.map((x) => x.row);
  }
  return out;
}

/** A PostgreSQL 17 folder made the way an earlier zhujiu made it: PGlite 0.4, our migrations, some rows. */
async function makeOldFolder(dir: string): Promise<Record<string, string[]>> {
  const { PGlite: Old } = await import('pglite-0-4');
  const p = new Old(dir);
  const db = new Kysely<Database>({
    // Through the client our embedded connections use, which runs the bulk import's COPY from PGlite's /dev/blob.
    dialect: new PGliteDialect({ pglite: yieldingClient(p as unknown as PGlite) }),
  });
  try {
    await migrateToLatest(db);
    const ds = await ensureDataset(db, {
      name: 'up',
      ability: 'language',
      method: 'comparative',
      language: 'en',
    });
    const items = [
      ...(
        await ensureItems(
          db,
          ds,
          [0, 1].map((i) => ({ key: `k${i}`, prompt: `p${i}` })),
        )
      ).values(),
    ];
    const m = await ensureModels(db, ['a', 'b', 'c'], 'recorded');
    const [a, b, c] = ['a', 'b', 'c'].map((n) => m.get(n) as number) as [number, number, number];
    let n = 0;
    for (const [left, right, item] of [
      [a, b, items[0]],
      [b, c, items[1]],
      [c, a, items[0]],
    ] as const) {
      const id = await createBattle(db, {
        itemId: item as number,
        ability: 'language',
        leftModelId: left,
        rightModelId: right,
        responseLeftId: null,
        responseRightId: null,
      });
      await markPosted(db, id, {
        platform: 'discord',
        channelId: 'c',
        messageId: `m${id}`,
        partIds: [],
        postedAt: at(0),
        closesAt: at(3600),
      });
      for (const voter of ['u1', 'u2'])
        await applyVoteEvent(db, {
          battleId: id,
          voterHash: `voter-hash-${voter}`,
          platform: 'discord',
          eventId: `e${++n}`,
          kind: 'add',
          choice: voter === 'u1' ? 'left' : 'right',
          at: at(n),
        });
    }
    await db.transaction().execute((trx) =>
      insertImportedBattles(
        trx,
        'lmsys',
        null,
        [0, 1, 2, 3].map((i) => ({
          importKey: `k${i}`,
          leftModelId: a,
          rightModelId: c,
          choice: 'left',
        })),
        at(10),
      ),
    );
    const run = await createRun(db, { modelId: a, suite: 'quick', seed: 7 });
    expect(run.created).toBe(true);
    return await snapshot(db);
  } finally {
    await db.destroy();
  }
}

describe('upgrading a PostgreSQL 17 data folder', () => {
  let before: Record<string, string[]>;
  const dataDir = join(root, 'pg');
  beforeAll(async () => {
    before = await makeOldFolder(dataDir);
  }, 300_000);

  // Four PGlite folders are made (initdb each): the timeout only guards against a hang.
  it('keeps the old folder as it was when stopped midway, and a retry upgrades it; the refusal of the kept PostgreSQL 17 folder names the command', {
    timeout: 300_000,
  }, async () => {
    await expect(
      upgradeDataDir(dataDir, {
        afterTable: (t) => {
          if (t === 'battles') throw new Error('stopped here');
        },
      }),
    ).rejects.toMatchObject({ code: 'db_migration_failed', message: /stopped here/ });
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim()).toBe('17');
    // (the other tests of this file make their folders beside it, under other names)
    expect(
      readdirSync(root)
        .filter((n) => n.startsWith('pg'))
        .sort(),
    ).toEqual(['pg']);

    // The retry through the command line, on the configured folder.
    const r = await inProcess(['migrate', '--upgrade-data-dir'], {
      env: { ZHUJIU_DATA_DIR: dataDir },
    });
    const cli = { code: r.code, out: r.stdout, err: r.stderr };
    expect(cli.err).toMatch(/copied votes: 10 rows/);
    expect(cli.code).toBe(0);
    const backups = readdirSync(root).filter((n) => /^pg\.pg17-backup-\d{8}T\d{6}Z$/.test(n));
    expect(backups).toHaveLength(1);
    const backupDir = join(root, backups[0] as string);
    expect(cli.out).toMatch(
      new RegExp(
        `^upgraded ${dataDir} to PostgreSQL 18: \\d+ tables, \\d+ rows copied .*kept at ${backupDir}:`,
      ),
    );
    expect(readFileSync(join(backupDir, 'PG_VERSION'), 'utf8').trim()).toBe('17');
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim()).toBe(PGLITE_PG_MAJOR);
    expect(existsSync(`${dataDir}.pg18-upgrade`)).toBe(false);

    const d = await openDb({ kind: 'pglite', dataDir });
    try {
      // Every row of every table (the trigger-kept counters and the migration bookkeeping included).
      expect(await snapshot(d.db)).toEqual(before);
      expect((await migrateToLatest(d.db)).results).toEqual([]);
      // Sequences continue after the copied ids; the triggers run again.
      const maxBattle = Math.max(
        ...(await d.db.selectFrom('battles').select('id').execute()).map((x) => Number(x.id)),
      );
      const m = await ensureModels(d.db, ['a', 'b'], 'recorded');
      const id = await createBattle(d.db, {
        itemId: null,
        ability: 'language',
        leftModelId: m.get('a') as number,
        rightModelId: m.get('b') as number,
        responseLeftId: null,
        responseRightId: null,
      });
      expect(id).toBeGreaterThan(maxBattle);
      const [lo, hi] = [m.get('a') as number, m.get('b') as number].sort((x, y) => x - y);
      const load = await sql<{ battles: string }>`
        select battles::text from arena_pair_load
         where model_low = ${lo} and model_high = ${hi}`.execute(d.db);
      expect(load.rows.map((x) => x.battles)).toEqual(['2']);
    } finally {
      await d.close();
    }
    // A second run has nothing to do.
    expect((await upgradeDataDir(dataDir)).outcome).toBe('current');

    // Step: the refusal of the kept PostgreSQL 17 folder names the command.
    const backup = readdirSync(root).find((n) => n.startsWith('pg.pg17-backup-')) as string;
    await expect(openDb({ kind: 'pglite', dataDir: join(root, backup) })).rejects.toMatchObject({
      code: 'db_unavailable',
      message: expect.stringContaining('zhujiu migrate --upgrade-data-dir'),
    });
  });
});

describe('an upgrade stopped between its two renames', () => {
  it('is finished by the next one: the complete new folder is moved into place', async () => {
    // What the first rename left: the old folder at its backup name, the verified new one beside it.
    const dataDir = join(root, 'between');
    const backupDir = `${dataDir}.pg17-backup-20261130T120000Z`;
    mkdirSync(backupDir);
    writeFileSync(join(backupDir, 'PG_VERSION'), '17\n');
    mkdirSync(`${dataDir}.pg18-upgrade`);
    writeFileSync(join(`${dataDir}.pg18-upgrade`, 'PG_VERSION'), `${PGLITE_PG_MAJOR}\n`);
    writeFileSync(join(`${dataDir}.pg18-upgrade`, 'zhujiu-upgrade-complete'), 'x\n');
    const r = await upgradeDataDir(dataDir);
    expect(r).toMatchObject({ outcome: 'finished', backupDir });
    expect(readdirSync(dataDir)).toEqual(['PG_VERSION']);
    expect(existsSync(`${dataDir}.pg18-upgrade`)).toBe(false);
  });
});

describe('a folder with no database yet', () => {
  it('has nothing to upgrade: exit 0, and nothing is created (a missing folder stays missing)', async () => {
    const missing = join(root, 'none', 'pg');
    const r = await inProcess(['migrate', '--upgrade-data-dir'], {
      env: { ZHUJIU_DATA_DIR: missing },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`${missing} holds no embedded database yet: nothing to upgrade`);
    expect(existsSync(join(root, 'none'))).toBe(false);
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect((await upgradeDataDir(empty)).outcome).toBe('empty');
    expect(readdirSync(root).filter((n) => n.startsWith('empty'))).toEqual(['empty']);
  });
});

describe('foreignKeyOrder', () => {
  it('puts each table after those it references, ignoring self-references', () => {
    // The order the upgrade copies our tables in: parents first.
    expect(
      foreignKeyOrder(
        ['votes', 'battles', 'models'],
        [
          ['votes', 'battles'],
          ['battles', 'models'],
        ],
      ),
    ).toEqual(['models', 'battles', 'votes']);
    expect(
      foreignKeyOrder(
        ['votes', 'battles', 'models', 'items'],
        [
          ['votes', 'battles'],
          ['battles', 'models'],
          ['battles', 'items'],
          ['battles', 'battles'],
        ],
      ),
    ).toEqual(['items', 'models', 'battles', 'votes']);
  });
});
