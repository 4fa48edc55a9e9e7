/**
 * The chart's subset fonts go into temporary folders (`zhujiu-font-XXXXXX`, leaderboard/font-subset.ts) that the
 * process's end removes, however it ends: by exit while the board worker thread still runs (the thread is ended
 * with the process and runs no exit hook of its own), and by a signal that ends it (SIGTERM, as a service manager
 * stops it; Node's own 'exit' event does not come then). Stopping the thread: test/unit/leaderboard/font-folder.test.ts.
 *
 * Each child process gets a `TMPDIR` of its own, so only its folders are counted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const root = mkdtempSync(join(tmpdir(), 'zhujiu-font-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Renders a chart on the board worker thread (and with `inline`, one on the process's own thread). */
const RENDER = `
  const rows = [{ model: '通义千问', rank: 1, final: 8, lo: 7, hi: 9, abilities: { knowledge: 8 } }];
  const { BoardWorker } = await import('./src/leaderboard/off-thread.ts');
  const w = new BoardWorker();
  await w.chart(rows, '排行榜');
  if (INLINE) await (await import('./src/leaderboard/chart.ts')).renderBoardPng(rows, { title: '排行榜' });
  const { readdirSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  process.stdout.write('folders ' + readdirSync(tmpdir()).filter((n) => n.startsWith('zhujiu-font-')).length + '\\n');
`;

/**
 * Runs `then` after {@link RENDER} in a child process with a `TMPDIR` of its own; `signal` is sent once it has
 * rendered. Resolves with its exit, what it printed, and the `zhujiu-font-*` folders left in its `TMPDIR`.
 */
async function child(
  then: string,
  o: { inline: boolean; signal?: NodeJS.Signals },
): Promise<{ code: number | null; signal: string | null; out: string; left: string[] }> {
  const own = mkdtempSync(join(root, 'tmp-'));
  const script = `(async () => { const INLINE = ${o.inline}; ${RENDER} ${then} })().catch((e) => { console.error(e); process.exit(3); });`;
  const c = spawn(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, TMPDIR: own },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  c.stdout.on('data', (b: Buffer) => {
    out += b.toString();
    if (o.signal && out.includes('folders ')) c.kill(o.signal);
  });
  c.stderr.on('data', (b: Buffer) => {
    err += b.toString();
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((resolve) =>
    c.on('exit', (k, s) => resolve([k, s])),
  );
  const left = readdirSync(own).filter((n) => n.startsWith('zhujiu-font-'));
  return { code, signal, out: out + err, left };
}

describe('the font folders when the process ends', () => {
  it('an exit while the board thread runs removes its folder', async () => {
    const r = await child('process.exit(0);', { inline: false });
    expect(r.out).toContain('folders 1');
    expect(r.code, r.out).toBe(0);
    expect(r.left).toEqual([]);
  });

  it('SIGTERM removes the folders of the board thread and of the process’s own thread', async () => {
    const r = await child('setInterval(() => {}, 1000);', { inline: true, signal: 'SIGTERM' });
    expect(r.out).toContain('folders 2');
    expect(r.signal, r.out).toBe('SIGTERM');
    expect(r.left).toEqual([]);
  });
});
