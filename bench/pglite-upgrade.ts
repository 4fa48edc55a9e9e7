/**
 * `zhujiu migrate --upgrade-data-dir` (storage/pglite-upgrade.ts) on a PostgreSQL 17 folder made with PGlite 0.4
 * and our migrations holding N public votes (imported battles with one vote and one event each: the tables that
 * grow): wall time of making the old folder (not part of the upgrade) and of the upgrade, with the rows copied.
 *
 * Run: npx tsx bench/pglite-upgrade.ts [votes=10000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect } from 'kysely';
import { PGlite as Old } from 'pglite-0-4';
import { insertImportedBattles } from '../src/storage/battles.ts';
import { migrateToLatest } from '../src/storage/db.ts';
import { ensureModels } from '../src/storage/models.ts';
import { upgradeDataDir } from '../src/storage/pglite-upgrade.ts';
import type { Database } from '../src/storage/schema.ts';

const votes = Number(process.argv[2] ?? 10_000);
const root = mkdtempSync(join(tmpdir(), 'zhujiu-bench-upgrade-'));
const dataDir = join(root, 'pg');
try {
  let t = performance.now();
  const p = new Old(dataDir);
  const db = new Kysely<Database>({
    dialect: new PGliteDialect({ pglite: p as unknown as PGlite }),
  });
  await migrateToLatest(db);
  const m = await ensureModels(db, ['a', 'b', 'c', 'd'], 'recorded');
  const ids = [...m.values()];
  await db.transaction().execute((trx) =>
    insertImportedBattles(
      trx,
      'lmsys',
      null,
      Array.from({ length: votes }, (_, i) => ({
        importKey: `k${i}`,
        leftModelId: ids[i % 4] as number,
        rightModelId: ids[(i + 1 + (i % 3)) % 4] as number,
        choice: i % 3 === 0 ? 'left' : i % 3 === 1 ? 'right' : 'equal',
      })),
      new Date(Date.UTC(2026, 0, 1)),
    ),
  );
  await db.destroy();
  const made = performance.now() - t;
  t = performance.now();
  const r = await upgradeDataDir(dataDir, {
    progress: (line) => console.log(`  ${((performance.now() - t) / 1000).toFixed(1)} s ${line}`),
  });
  const wall = performance.now() - t;
  const rows = r.tables.reduce((n, x) => n + x.rows, 0);
  console.log(
    `${votes} votes: old folder made in ${(made / 1000).toFixed(1)} s; upgrade ${(wall / 1000).toFixed(1)} s ` +
      `(${r.tables.length} tables, ${rows} rows; ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)})`,
  );
  for (const x of r.tables.filter((x) => x.rows > 0)) console.log(`  ${x.table}: ${x.rows}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
