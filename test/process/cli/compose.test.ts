/**
 * compose.yaml (docs/deployment.md): where Docker Compose is installed (`docker compose`, or the older `docker-compose`), its `config` validates the file;
 * and, with TEST_DATABASE_URL, the processes it describes (one bot, the workers' replicas) started by hand with
 * the file's own command and environment against a fresh PostgreSQL database pass the file's own health checks.
 * By hand on one host, each process gets its own PORT and listens on 127.0.0.1 instead of a container's 0.0.0.0,
 * and DATABASE_URL names the test server instead of the `postgres` service.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freshDb } from '../../helpers/db.ts';
import { startZhujiu, type ZhujiuProcess } from '../../helpers/run-cli.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

const COMPOSE = join(PROJECT_ROOT, 'compose.yaml');

/** What the file's `${…}` references are given (a .env would hold them). */
const DOTENV: Record<string, string> = {
  POSTGRES_PASSWORD: 'compose-test-password',
  ZHUJIU_VOTER_SECRET: 'compose-test-voter-secret-0123456789',
};

interface Service {
  command?: string[];
  environment?: Record<string, string | null>;
  healthcheck?: {
    test: string[];
    interval?: string;
    retries?: number;
    start_period?: string;
  };
  deploy?: { replicas?: number };
}

/** Compose's interpolation: `${NAME}`, `${NAME:-default}`, `${NAME:?error}` (an unset or empty NAME is an error). */
function interpolate(text: string, env: Record<string, string>): string {
  return text.replace(/\$\{([A-Z0-9_]+)(?::([-?])([^}]*))?\}/g, (_m, name: string, op, arg) => {
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    if (op === '?') throw new Error(`compose.yaml: ${name}: ${arg}`);
    return op === '-' ? arg : '';
  });
}

function composeFile(): { services: Record<string, Service> } {
  return parse(interpolate(readFileSync(COMPOSE, 'utf8'), DOTENV), { merge: true });
}

/** The Compose command that runs here (`docker compose`, else the older `docker-compose`), or why none does. */
function composeCommand(): { argv: string[] } | { missing: string } {
  for (const argv of [['docker', 'compose'], ['docker-compose']]) {
    const r = spawnSync(argv[0] as string, [...argv.slice(1), 'version'], { encoding: 'utf8' });
    if (r.status === 0) return { argv };
  }
  return { missing: 'neither `docker compose` nor `docker-compose` runs here' };
}

const compose = composeCommand();
const noCompose = 'missing' in compose ? compose.missing : undefined;

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const port = (s.address() as { port: number }).port;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

/** Seconds in Compose's duration syntax ("15s", "1m"). */
function seconds(d: string | undefined, fallback: number): number {
  if (!d) return fallback;
  const m = /^(\d+)(s|m)$/.exec(d);
  if (!m) throw new Error(`compose.yaml: unexpected duration ${d}`);
  return Number(m[1]) * (m[2] === 'm' ? 60 : 1);
}

describe('compose.yaml', () => {
  it('describes PostgreSQL, one bot and two workers, each with a health check', () => {
    const { services } = composeFile();
    expect(Object.keys(services).sort()).toEqual(['bot', 'postgres', 'worker']);
    expect(services.bot?.command?.slice(2, 3)).toEqual(['bot']);
    expect(services.worker?.command?.slice(2)).toEqual(['worker']);
    expect(services.worker?.deploy?.replicas).toBe(2);
    for (const s of Object.values(services)) expect(s.healthcheck?.test.length).toBeGreaterThan(1);
  });

  it.skipIf(noCompose !== undefined)(
    `is valid for Compose's \`config\`${noCompose ? ` (skipped: ${noCompose})` : ''}`,
    () => {
      const [cmd, ...pre] = 'argv' in compose ? compose.argv : [];
      const r = spawnSync(cmd as string, [...pre, '-f', COMPOSE, 'config', '--quiet'], {
        encoding: 'utf8',
        env: { ...process.env, ...DOTENV },
      });
      expect(r.status, r.stderr).toBe(0);
    },
  );

  describe.runIf(process.env.TEST_DATABASE_URL)(
    'its processes started by hand on one PostgreSQL (TEST_DATABASE_URL)',
    () => {
      it('pass the health checks of the file', { timeout: 300_000 }, async () => {
        const { services } = composeFile();
        const db = await freshDb('postgres', { poolSize: 1 });
        await db.close(); // the processes own the connections; destroy() below drops the database
        const started: { name: string; p: ZhujiuProcess; port: number; svc: Service }[] = [];
        try {
          const plan: [string, Service][] = [['bot', services.bot as Service]];
          const workers = services.worker as Service;
          for (let i = 1; i <= (workers.deploy?.replicas ?? 1); i++)
            plan.push([`worker-${i}`, workers]);
          for (const [name, svc] of plan) {
            const port = await freePort();
            const command = svc.command ?? [];
            expect(command.slice(0, 2)).toEqual(['node', 'bin/zhujiu.js']);
            // A key the file leaves empty (`DISCORD_TOKEN: ${DISCORD_TOKEN:-}` with nothing set) is YAML null,
            // which Compose passes as unset; spawned as it is, Node would pass the text "null" (a token).
            const given = Object.entries(svc.environment ?? {}).filter(([, v]) => v != null);
            const env = {
              ...Object.fromEntries(given),
              DATABASE_URL: db.url as string,
              ZHUJIU_HTTP_HOST: '127.0.0.1',
              PORT: String(port),
            };
            // Started together, as `docker compose up` starts them once PostgreSQL is healthy.
            started.push({ name, p: startZhujiu(command.slice(2), env), port, svc });
          }
          for (const s of started) {
            const hc = s.svc.healthcheck;
            expect(hc?.test[0]).toBe('CMD');
            const [cmd, ...args] = (hc?.test ?? []).slice(1);
            expect(cmd).toBe('node');
            // Docker's rule: healthy at the first success; before start_period ends failures do not count.
            const deadline =
              Date.now() +
              1000 *
                (seconds(hc?.start_period, 0) + seconds(hc?.interval, 30) * (hc?.retries ?? 3));
            let last = '';
            for (;;) {
              expect(s.p.alive(), `${s.name} exited:\n${s.p.stderr()}`).toBe(true);
              const r = spawnSync(process.execPath, args, {
                encoding: 'utf8',
                env: { ...process.env, PORT: String(s.port) },
                timeout: 10_000,
              });
              if (r.status === 0) break;
              last = `${r.status} ${r.stderr}`;
              if (Date.now() > deadline)
                throw new Error(`${s.name} never became healthy (${last}):\n${s.p.stderr()}`);
              await sleep(1000);
            }
          }
          for (const s of started) expect(s.p.alive(), s.p.stderr()).toBe(true);
          expect(started.map((s) => s.name)).toEqual(['bot', 'worker-1', 'worker-2']);
        } finally {
          for (const s of started) s.p.child.kill('SIGTERM');
          await Promise.all(
            started.map((s) => Promise.race([s.p.exited, sleep(30_000).then(() => s.p.kill())])),
          );
          await db.destroy().catch(() => undefined);
        }
      });
    },
  );
});
