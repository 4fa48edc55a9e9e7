/**
 * Whole-process cost of the command line, as a user pays it: wall time from spawn to exit and peak resident
 * memory (from `/usr/bin/time`, Debian package `time`), for the compiled `bin/zhujiu.js` (dist/ is rebuilt first
 * when a source is newer), each command run several times (median and minimum reported), as ratios to the
 * targets:
 *   - `zhujiu --help`: < 0.3 s and < 80 MB (the CLI loads no heavy module until a command needs it);
 *   - `zhujiu ratings --battles battles.jsonl --bootstrap 0` (200,000 public votes): < 1 s.
 * Also shown, without a target: `npx zhujiu --help` (npx's own start-up included), `zhujiu config check` and
 * `zhujiu migrate` on a stored embedded database (the cost of opening it, which every database command pays).
 *
 * Run: npx tsx bench/startup.ts [runs=5]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from '../test/helpers/build.ts';
import { PROJECT_ROOT, sharedData } from '../test/helpers/shared-data.ts';

const runs = Number(process.argv[2] ?? 5);
const TIME = '/usr/bin/time';
if (!existsSync(TIME)) {
  console.error('bench/startup: /usr/bin/time is missing (apt-get install time)');
  process.exit(2);
}
await ensureBuilt();

interface Case {
  readonly name: string;
  readonly argv: readonly string[];
  readonly targetS?: number;
  readonly targetMb?: number;
}

const bin = join(PROJECT_ROOT, 'bin', 'zhujiu.js');
const battles = sharedData('arena', 'battles.jsonl');
const cases: Case[] = [
  { name: 'zhujiu --help', argv: [process.execPath, bin, '--help'], targetS: 0.3, targetMb: 80 },
  { name: 'npx zhujiu --help', argv: ['npx', '--no-install', 'zhujiu', '--help'] },
  { name: 'zhujiu config check', argv: [process.execPath, bin, 'config', 'check'] },
];
// Opens the embedded database (the warm-up run creates it; the measured runs reopen it and find nothing to do).
cases.push({
  name: 'zhujiu migrate (reopens the embedded database)',
  argv: [process.execPath, bin, 'migrate'],
});
if (existsSync(battles)) {
  cases.push({
    name: 'zhujiu ratings --battles battles.jsonl --bootstrap 0',
    argv: [process.execPath, bin, 'ratings', '--battles', battles, '--bootstrap', '0'],
    targetS: 1,
  });
} else {
  console.error(`bench/startup: ${battles} is absent: the ratings case is skipped`);
}

/** One run under /usr/bin/time: wall and CPU (user + system) seconds, peak RSS in MB (1 MB = 2^20 bytes). */
function measure(argv: readonly string[], scratch: string): { s: number; cpu: number; mb: number } {
  const out = join(scratch, 'time.txt');
  const r = spawnSync(TIME, ['-f', '%e %U %S %M', '-o', out, ...argv], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ZHUJIU_DATA_DIR: join(scratch, 'pg'), DATABASE_URL: '' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  if (r.status !== 0) throw new Error(`${argv.join(' ')} failed (${r.status}): ${r.stderr}`);
  const [s, user, sys, kb] = readFileSync(out, 'utf8').trim().split('\n').at(-1)?.split(' ') ?? [];
  return { s: Number(s), cpu: Number(user) + Number(sys), mb: Number(kb) / 1024 };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};
const ratio = (v: number, target: number | undefined): string =>
  target === undefined ? '—' : `${(v / target).toFixed(2)}× of ${target}`;
const row = (cells: string[]): string =>
  cells.map((c, i) => (i === 0 ? c.padEnd(54) : c.padStart(i >= 5 ? 16 : 9))).join(' ');

const scratch = mkdtempSync(join(tmpdir(), 'zhujiu-bench-startup-'));
try {
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
  console.log(
    `whole-process cost, ${runs} runs each (Node ${process.version}, ${cpus().length} CPUs, load average ${load}); ` +
      'a ratio < 1 meets the target; on a busy machine wall time grows with the load, CPU time much less',
  );
  console.log(
    row(['command', 'median s', 'min s', 'cpu s', 'peak MB', 'time vs target', 'memory vs target']),
  );
  for (const c of cases) {
    measure(c.argv, scratch); // warm the file cache
    const m = Array.from({ length: runs }, () => measure(c.argv, scratch));
    const s = median(m.map((x) => x.s));
    const mb = Math.max(...m.map((x) => x.mb));
    console.log(
      row([
        c.name,
        s.toFixed(2),
        Math.min(...m.map((x) => x.s)).toFixed(2),
        median(m.map((x) => x.cpu)).toFixed(2),
        mb.toFixed(0),
        ratio(s, c.targetS),
        ratio(mb, c.targetMb),
      ]),
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
