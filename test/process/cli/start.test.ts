/**
 * `npm start` as a newcomer runs it: no DATABASE_URL, no chat tokens, a fresh data folder. It must migrate, say
 * where its data lives, answer /healthz, keep running without a terminal (stdin is /dev/null in containers and
 * CI), and shut down cleanly on Ctrl-C (SIGINT).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { shippedDefinitionsDir } from '../../helpers/config-dir.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

describe('npm start (zhujiu bot) with zero setup', () => {
  it('starts headless, serves /healthz and /readyz, and stops cleanly on SIGINT', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'zhujiu-start-')), 'pg');
    const port = await freePort();
    const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'zhujiu.js'), 'bot'], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        DISCORD_TOKEN: '',
        SLACK_BOT_TOKEN: '',
        ZHUJIU_DATA_DIR: dataDir,
        // The shipped suites and default settings, not the user's own config/ (test/helpers/config-dir.ts).
        ZHUJIU_CONFIG_DIR: shippedDefinitionsDir(),
        PORT: String(port),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const exited = new Promise<number | null>((resolve) =>
      child.on('exit', (code) => resolve(code)),
    );
    try {
      let health: Response | undefined;
      // Up to 4 minutes: a guard against a hang only (creating the embedded database takes ~6 s, longer when busy).
      for (let i = 0; i < 480 && !health; i++) {
        health = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined);
        if (!health) await sleep(500);
      }
      expect(health?.status, stderr).toBe(200);
      expect(await health?.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
      expect(ready.status).toBe(200);
      const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
      expect(metrics).toContain('process_cpu_user_seconds_total');
      await sleep(1000);
      expect(child.exitCode).toBeNull(); // still up without a terminal
      expect(stderr).toContain(`PGlite at ${dataDir}`);
      // The embedded database belongs to this process: an import meanwhile is refused, not lost.
      const battles = join(dataDir, '..', 'battles.jsonl');
      writeFileSync(battles, `${JSON.stringify({ model_a: 'a', model_b: 'b', winner: 'tie' })}\n`);
      const imp = await new Promise<{ code: number | null; err: string }>((resolve) => {
        const c = spawn(
          process.execPath,
          [join(PROJECT_ROOT, 'bin', 'zhujiu.js'), 'import', 'battles', battles],
          {
            cwd: PROJECT_ROOT,
            env: {
              ...process.env,
              DATABASE_URL: '',
              ZHUJIU_DATA_DIR: dataDir,
              ZHUJIU_CONFIG_DIR: shippedDefinitionsDir(),
            },
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let err = '';
        c.stderr.on('data', (b: Buffer) => {
          err += b.toString();
        });
        c.on('exit', (code) => resolve({ code, err }));
      });
      expect(imp.code).toBe(1);
      expect(imp.err).toContain(`is in use by another zhujiu process (pid ${child.pid} on `);
      // Ctrl-C under `npm start` arrives twice (from the terminal and passed on by npm): the second is ignored
      // while the bot shuts down, which ends with the data folder's lock released.
      child.kill('SIGINT');
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(stderr).toMatch(/shutting down/);
      expect(existsSync(`${dataDir}.lock`)).toBe(false);
      expect(`${stdout}\n${stderr}`).not.toMatch(/unexpected error|Unhandled/i);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('`npm start` itself stops the bot on SIGTERM to npm (a service manager signals npm)', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'zhujiu-npm-start-')), 'pg');
    const port = await freePort();
    const npm = spawn('npm', ['start', '--silent'], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: '',
        DISCORD_TOKEN: '',
        SLACK_BOT_TOKEN: '',
        ZHUJIU_DATA_DIR: dataDir,
        // The shipped suites and default settings, not the user's own config/ (test/helpers/config-dir.ts).
        ZHUJIU_CONFIG_DIR: shippedDefinitionsDir(),
        PORT: String(port),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    npm.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    const health = () =>
      fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status,
        () => undefined,
      );
    try {
      // Guards against a hang only (the embedded database is created first).
      for (let i = 0; i < 480 && (await health()) !== 200; i++) await sleep(500);
      expect(await health(), stderr).toBe(200);
      npm.kill('SIGTERM');
      // The bot itself must stop: before, npm's shell did not pass the signal on and the bot kept running.
      for (let i = 0; i < 240 && (await health()) !== undefined; i++) await sleep(250);
      expect(await health(), stderr).toBeUndefined();
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  });
});
