/**
 * bench/export-battles: `zhujiu export battles` against `zhujiu import battles` of the same file (the target: the
 * export takes no longer than the import). Imports a battles JSONL file into a fresh embedded database (or a fresh
 * Postgres database with --postgres URL), then exports the source as FastChat lines to a temporary file, and
 * prints for each step the wall time, the CPU time of this process (PGlite runs in it; on a busy machine CPU time
 * is the steadier figure) and the rows per second. Then it checks the export: the same battles in the file's order
 * (model_a, model_b, winner line by line). The default file is the shared 200,000-vote sample when present, else
 * --rows synthetic votes that all carry one timestamp.
 *
 *   npx tsx bench/export-battles.ts [--file battles.jsonl] [--rows 200000] [--postgres postgres://…/db]
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { importBattles } from '../src/import/battles.ts';
import { exportBattlesToFile } from '../src/import/export-battles.ts';
import { type Db, migrateToLatest, openDb } from '../src/storage/db.ts';

const { values } = parseArgs({
  options: {
    file: { type: 'string' },
    rows: { type: 'string', default: '200000' },
    postgres: { type: 'string' },
  },
});
const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-export-'));
const shared = new URL('../../shared/data/arena/battles.jsonl', import.meta.url).pathname;
let file = values.file ?? (existsSync(shared) ? shared : undefined);
if (!file) {
  const n = Number(values.rows);
  const models = Array.from({ length: 30 }, (_, i) => `model-${i}`);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = models[i % 30] as string;
    const b = models[(i * 7 + 1) % 30 === i % 30 ? (i + 1) % 30 : (i * 7 + 1) % 30] as string;
    lines.push(
      JSON.stringify({ model_a: a, model_b: b, winner: ['model_a', 'model_b', 'tie'][i % 3] }),
    );
  }
  file = join(dir, 'synthetic.jsonl');
  writeFileSync(file, `${lines.join('\n')}\n`);
}

let admin: pg.Client | undefined;
let dbName = '';
let d: Db;
if (values.postgres) {
  dbName = `zhujiu_bench_${randomBytes(4).toString('hex')}`;
  admin = new pg.Client({ connectionString: values.postgres });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  const u = new URL(values.postgres);
  u.pathname = `/${dbName}`;
  d = await openDb({ kind: 'postgres', url: u.toString() });
} else {
  d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
}
await migrateToLatest(d.db);

async function timed<T>(label: string, rows: (r: T) => number, fn: () => Promise<T>): Promise<T> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await fn();
  const wall = (performance.now() - t0) / 1000;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1e6;
  const n = rows(r);
  console.log(
    `${label.padEnd(7)} ${n} rows: wall ${wall.toFixed(2)} s, CPU of this process ${cpu.toFixed(2)} s, ` +
      `${Math.round(n / wall)} rows/s`,
  );
  return r;
}

const backend = values.postgres ? 'Postgres' : 'PGlite';
console.log(`${backend}, file ${file}`);
await timed(
  'import',
  (r) => r.added,
  () =>
    importBattles(d.db, {
      file: file as string,
      source: 'bench',
      exclusiveDb: !values.postgres,
    }),
);
const out = join(dir, 'export.jsonl');
await timed(
  'export',
  (r) => r.votes,
  () => exportBattlesToFile(d.db, out, { source: 'bench' }),
);

const key = (l: string) => {
  const o = JSON.parse(l) as { model_a: string; model_b: string; winner: string };
  return `${o.model_a}\u0000${o.model_b}\u0000${o.winner}`;
};
const original = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '')
  .map(key);
const back = readFileSync(out, 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map(key);
const firstDiff = original.findIndex((k, i) => back[i] !== k);
console.log(
  firstDiff === -1 && back.length === original.length
    ? `order: the export lists the ${back.length} votes in the file's order`
    : `order: DIFFERS at line ${firstDiff + 1} (${back.length} exported, ${original.length} in the file)`,
);

await d.close();
if (admin) {
  await admin.query(`DROP DATABASE ${dbName}`);
  await admin.end();
}
rmSync(dir, { recursive: true, force: true });
