/**
 * stdout closed by its reader (`zhujiu export battles | head -2`, an EPIPE) ends a command quietly with exit 0 and
 * stops its work: `export battles` reads no further page of votes, and a command writing through `io.out` stops at
 * its next line. In-process through `runCli`, on one open embedded database; test/process/cli/closed-pipe.test.ts
 * closes a real pipe.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutputClosedError } from '../../../src/cli/io.ts';
import { inProcess, openTestRuntime, type TestRuntime } from '../../helpers/run-cli.ts';

const epipe = () => Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });

/** 12,000 votes: three pages of the export (5,000 rows each). */
const VOTES = 12_000;

describe('stdout closed by its reader', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'zhujiu-epipe-'));
  let t: TestRuntime;
  const zhujiu = (args: string[], o: Parameters<typeof inProcess>[1] = {}) =>
    inProcess(args, { rt: t.rt, ...o });
  beforeAll(async () => {
    mkdirSync(join(tmp, 'config'));
    t = await openTestRuntime({ ZHUJIU_CONFIG_DIR: join(tmp, 'config') });
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
    expect(r.code, r.stderr).toBe(0);
  });
  afterAll(async () => {
    await t?.close();
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
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
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
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
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
        onOut: () => {
          lines++;
          // defaultIo throws OutputClosedError; a raw EPIPE from a stream is treated the same.
          throw i % 2 ? epipe() : new OutputClosedError();
        },
      });
      expect(r, args.join(' ')).toEqual({ code: 0, stdout: '', stderr: '' });
      expect(lines, args.join(' ')).toBe(1);
    }
  });
});
