/**
 * stdout closed by its reader (`zhujiu export battles | head -2`, an EPIPE) ends a command quietly with exit 0 and
 * stops its work: `export battles` reads no further page of votes, and a command writing through `io.out` stops at
 * its next line. In-process through `runCli`, on an embedded database; test/process/cli/closed-pipe.test.ts
 * closes a real pipe.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/index.ts';
import { type CliIo, OutputClosedError } from '../../../src/cli/io.ts';
import { freshDb } from '../../helpers/db.ts';

const epipe = () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });

async function zhujiu(args: string[], io: Partial<CliIo> = {}) {
  let out = '';
  let err = '';
  const code = await runCli(['node', 'zhujiu', ...args], {
    out: (s) => {
      out += `${s}\n`;
    },
    err: (s) => {
      err += `${s}\n`;
    },
    ...io,
  });
  process.exitCode = 0;
  return { code, out, err };
}

/** 12,000 votes: three pages of the export (5,000 rows each). */
const VOTES = 12_000;

describe('stdout closed by its reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-epipe-'));
  const saved = { ...process.env };
  beforeAll(async () => {
    const d = await freshDb('pglite');
    await d.close();
    process.env.ZHUJIU_DATA_DIR = d.dataDir;
    process.env.ZHUJIU_CONFIG_DIR = join(tmp, 'config');
    process.env.DATABASE_URL = '';
    process.env.LOG_LEVEL = 'silent';
    mkdirSync(join(tmp, 'config'));
    const names = ['m-a', 'm-b', 'm-c', 'm-d'];
    const lines: string[] = [];
    for (let i = 0; i < VOTES; i++) {
      lines.push(
        JSON.stringify({
          model_a: names[i % 4],
          model_b: names[(i + 1 + (i % 3)) % 4],
          winner: i % 5 === 0 ? 'tie' : 'model_a',
        }),
      );
    }
    writeFileSync(join(tmp, 'battles.jsonl'), `${lines.join('\n')}\n`);
    const r = await zhujiu(['import', 'battles', join(tmp, 'battles.jsonl')]);
    expect(r.code, r.err).toBe(0);
  });
  afterAll(() => {
    process.env = saved;
    rmSync(tmp, { recursive: true, force: true });
  });

  it('export battles to a stream that fails with EPIPE: exit 0, nothing on stderr, no further page read', async () => {
    let writes = 0;
    const stdout = new Writable({
      write(_chunk, _enc, cb) {
        writes++;
        cb(epipe());
      },
    });
    stdout.on('error', () => {}); // as cli/io.ts watchStdout does for process.stdout
    const r = await zhujiu(['export', 'battles', '--source', 'battles'], { stdout });
    expect(r).toEqual({ code: 0, out: '', err: '' });
    expect(writes).toBe(1);
  });

  it('a stream that accepts a page and fails later stops before the third page', async () => {
    let writes = 0;
    const stdout = new Writable({
      highWaterMark: 64 * 1024 * 1024, // every page is accepted at once: the failure arrives afterwards
      write(_chunk, _enc, cb) {
        writes++;
        setImmediate(() => cb(writes === 1 ? null : epipe()));
      },
    });
    stdout.on('error', () => {});
    const r = await zhujiu(['export', 'battles', '--source', 'battles'], { stdout });
    expect(r).toEqual({ code: 0, out: '', err: '' });
    expect(writes).toBe(2);
  });

  it('commands writing lines (ratings, leaderboard --json) end quietly with exit 0 when out finds stdout closed', async () => {
    const cases = [
      ['ratings', '--source', 'battles', '--bootstrap', '0'],
      ['ratings', '--source', 'battles', '--json', '--bootstrap', '0'],
      ['leaderboard', '--source', 'battles', '--json'],
    ];
    for (const [i, args] of cases.entries()) {
      let lines = 0;
      const r = await zhujiu(args, {
        out: () => {
          lines++;
          // defaultIo throws OutputClosedError; a raw EPIPE from a stream is treated the same.
          throw i % 2 ? epipe() : new OutputClosedError();
        },
      });
      expect(r, args.join(' ')).toEqual({ code: 0, out: '', err: '' });
      expect(lines, args.join(' ')).toBe(1);
    }
  });
});
