/**
 * bench/results-items: the item-level results of a large run, read whole, against the memory of storing the run.
 * For each size (default 2,000 and 20,000 items; realistic lengths: a ~300-character prompt, a ~600-character
 * answer, reasoning on a third of them, a failure every 50th) three separate processes, each timed by
 * `/usr/bin/time` (wall, peak resident memory):
 *   0. init: a fresh embedded database and its migrations (PGlite's initdb; shown, not a baseline);
 *   1. store: that database opened, the run written through test/helpers/run-items.ts (items, answers, plan rows,
 *      scores; 1,000 rows a statement) — the memory of the run itself;
 *   2. page: the HTTP app's item view (`/runs/N/items`, 100 a page) followed from the first page through every
 *      "next" link (keyset pages), each page's HTML read in full;
 *   3. csv: `zhujiu results --run N --format csv --out FILE`, the compiled command (dist/ rebuilt first when a
 *      source is newer).
 * The target: steps 2 and 3 stay under step 1, and their peak memory does not grow with the item count.
 * Timings taken on a shared machine are not targets.
 *
 *   npx tsx bench/results-items.ts [--items 2000,20000]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureBuilt } from '../test/helpers/build.ts';
import { PROJECT_ROOT } from '../test/helpers/shared-data.ts';

const { values } = parseArgs({
  options: {
    items: { type: 'string', default: '2000,20000' },
    step: { type: 'string' },
    dir: { type: 'string' },
  },
});

const LONG_ANSWER = '根据材料，答案应当是这一项，因为前文提到了相关的条件与结论。'.repeat(20);

/** Step 0 (in a child process): a fresh, migrated database in `dir`/pg. */
async function init(dir: string): Promise<void> {
  const { openDb, migrateToLatest } = await import('../src/storage/db.ts');
  const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
  await migrateToLatest(d.db);
  await d.close();
}

/** Step 1 (in a child process): one run of `n` items stored in the database of `dir`/pg. */
async function store(dir: string, n: number): Promise<void> {
  const { openDb } = await import('../src/storage/db.ts');
  const { addRunWithItems } = await import('../test/helpers/run-items.ts');
  const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
  const items = Array.from({ length: n }, (_, i) => {
    const dataset = ['c3', 'ocnli', 'cmrc2018', 'math23k'][i % 4] as string;
    const base = {
      dataset,
      ability: (i % 4 === 1 ? 'reasoning' : 'language') as 'reasoning' | 'language',
      key: `${dataset}-${i}`,
      prompt: `阅读下面的材料并回答问题 ${i}。${'材料内容，'.repeat(50)}<b>问题</b>：选哪一项？`,
    };
    if (i % 50 === 49)
      return { ...base, failure: { code: 'llm_failed', message: 'HTTP 500 from the endpoint' } };
    return {
      ...base,
      answer: `${LONG_ANSWER}答案：${'ABCD'[i % 4]}`,
      ...(i % 3 === 0 ? { reasoning: '先读材料，再逐项比较。'.repeat(10) } : {}),
      score: { raw: i % 3 === 0 ? 0 : 1, max: 1, detail: { extracted: 'ABCD'[i % 4] } },
    };
  });
  await addRunWithItems(d.db, { model: 'bench-model', suite: 'bench', items });
  await d.close();
}

/** Step 2 (in a child process): every page of the item view, through the next links. */
async function pages(dir: string): Promise<void> {
  const { openDb } = await import('../src/storage/db.ts');
  const { createHttpApp } = await import('../src/http/server.ts');
  const { Registry } = await import('prom-client');
  const d = await openDb({ kind: 'pglite', dataDir: join(dir, 'pg') });
  const app = createHttpApp({
    checkDb: async () => {},
    registry: new Registry(),
    results: { db: d.db },
  });
  let path: string | undefined = '/runs/1/items';
  let rows = 0;
  let n = 0;
  let bytes = 0;
  while (path) {
    const r = await app.request(path);
    const html = await r.text();
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${html}`);
    bytes += html.length;
    rows += html.match(/<tr data-item=/g)?.length ?? 0;
    n++;
    path = /id="next" href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  }
  console.log(`PAGES ${n} ${rows} ${bytes}`);
  await d.close();
}

if (values.step) {
  const dir = values.dir as string;
  if (values.step === 'init') await init(dir);
  else if (values.step === 'store') await store(dir, Number(values.items));
  else await pages(dir);
  process.exit(0);
}

interface Measured {
  readonly wallS: number;
  readonly peakMb: number;
  readonly stdout: string;
}

function timed(argv: readonly string[], env: Record<string, string> = {}): Measured {
  const r = spawnSync('/usr/bin/time', ['-f', '@@ %e %M', ...argv], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const m = /@@ ([\d.]+) (\d+)/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`${argv.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return { wallS: Number(m[1]), peakMb: Number(m[2]) / 1024, stdout: r.stdout };
}

await ensureBuilt();
const self = new URL(import.meta.url).pathname;
const tsx = [process.execPath, '--import', 'tsx', self];
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')} (timings on a shared machine are not targets)`,
);
for (const n of values.items.split(',').map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-bench-results-'));
  try {
    const i = timed([...tsx, '--step', 'init', '--dir', dir]);
    const s = timed([...tsx, '--step', 'store', '--dir', dir, '--items', String(n)]);
    const p = timed([...tsx, '--step', 'page', '--dir', dir]);
    const [, pageCount, pageRows] = /PAGES (\d+) (\d+)/.exec(p.stdout) ?? [];
    const out = join(dir, 'items.csv');
    const c = timed(
      [
        process.execPath,
        join(PROJECT_ROOT, 'bin', 'zhujiu.js'),
        'results',
        '--run',
        '1',
        '--format',
        'csv',
        '--out',
        out,
      ],
      { ZHUJIU_DATA_DIR: join(dir, 'pg'), DATABASE_URL: '' },
    );
    const lines = readFileSync(out, 'utf8').split('\r\n').length - 2;
    const line = (what: string, m: Measured, extra: string) =>
      console.log(
        `${String(n).padStart(6)} items  ${what.padEnd(38)} wall ${m.wallS.toFixed(2).padStart(6)} s  peak RSS ${m.peakMb.toFixed(0).padStart(4)} MB${extra}`,
      );
    line('init: fresh database, migrations', i, '');
    line('store the run (the baseline)', s, '');
    line(
      `item view, ${pageCount} pages followed`,
      p,
      `  (${pageRows} rows; ${(p.peakMb / s.peakMb).toFixed(2)}× the store)`,
    );
    line(
      'zhujiu results --format csv --out',
      c,
      `  (${(statSync(out).size / 1e6).toFixed(1)} MB CSV; ${(c.peakMb / s.peakMb).toFixed(2)}× the store)`,
    );
    if (lines < n)
      console.log(
        `  note: the CSV has ${lines} records for ${n} items (records with line breaks count more)`,
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
