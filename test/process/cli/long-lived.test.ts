/**
 * Every long-lived command (`bot`, `worker`) started as a process with `PORT=0` (no health server: the README's
 * advice for several processes on one host) stays up, with nothing else holding its event loop open, until
 * SIGINT / SIGTERM, and then exits 0. Before the fix `zhujiu worker` exited at once with code 13 and no message
 * (on Postgres after ~10 s, when the idle connections closed). Each process is checked after 15 s:
 * longer than the 10 s after which node-postgres closes an idle pooled connection (`idleTimeoutMillis`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CHECKOUT_CONFIG_DIR, ownConfigDir } from '../../helpers/config-dir.ts';
import { type Backend, backends, freshDb, pgliteDataDir } from '../../helpers/db.ts';
import { startZhujiu } from '../../helpers/run-cli.ts';

const ALIVE_FOR_MS = 15_000;

interface Case {
  readonly command: 'bot' | 'worker';
  readonly backend: Backend;
  readonly signal: 'SIGINT' | 'SIGTERM';
}

const cases: Case[] = [
  { command: 'bot', backend: 'pglite', signal: 'SIGINT' },
  { command: 'worker', backend: 'pglite', signal: 'SIGTERM' },
];
if (backends().includes('postgres')) {
  cases.push(
    { command: 'worker', backend: 'postgres', signal: 'SIGINT' },
    { command: 'bot', backend: 'postgres', signal: 'SIGTERM' },
  );
}

async function database(
  backend: Backend,
): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (backend === 'pglite') {
    const d = pgliteDataDir();
    return { env: { ZHUJIU_DATA_DIR: d.dataDir }, drop: async () => d.remove() };
  }
  const d = await freshDb('postgres', { poolSize: 1 });
  await d.close(); // the child process owns the connections; destroy() below drops the database
  return {
    env: {
      DATABASE_URL: d.url as string,
      ZHUJIU_VOTER_SECRET: 'long-lived-test-secret-0123456789',
    },
    drop: () => d.destroy().catch(() => undefined),
  };
}

describe.concurrent('long-lived commands stay up with PORT=0 until a signal', () => {
  for (const c of cases) {
    it(`${c.command} on ${c.backend}: alive after 15 s, exits 0 on ${c.signal}`, async () => {
      const db = await database(c.backend);
      // A config folder of its own, empty (every setting its default): the checkout's config/ holds the
      // user's own models and settings, whose warnings would show up here.
      const p = startZhujiu([c.command], {
        ...db.env,
        ZHUJIU_CONFIG_DIR: ownConfigDir(),
        PORT: '0',
        LOG_LEVEL: 'info',
      });
      try {
        // Each phase has its own bound under the test's, so a slow phase fails with the process's log.
        await p.waitFor(new RegExp(`zhujiu ${c.command} started`), 60_000);
        await sleep(ALIVE_FOR_MS);
        expect(p.alive(), `exited early (code ${p.child.exitCode}):\n${p.stderr()}`).toBe(true);
        p.child.kill(c.signal);
        const exit = await Promise.race([p.exited, sleep(60_000).then(() => 'still running')]);
        expect(exit, p.stderr()).toEqual({ code: 0, signal: null });
        expect(p.stderr()).toContain('shutting down');
        expect(`${p.stdout()}\n${p.stderr()}`).not.toMatch(/unexpected error|Unhandled/i);
        // Nothing of the checkout's config/ (a model of the user's config/models.yaml without its key was
        // logged as disabled here).
        expect(p.stderr()).not.toContain(CHECKOUT_CONFIG_DIR);
      } finally {
        p.kill();
        await db.drop();
      }
    }, 180_000);
  }
});
