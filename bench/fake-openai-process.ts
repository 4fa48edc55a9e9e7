/**
 * The fake OpenAI-compatible server (test/fakes/openai.ts) in a child process, for benches: the bench's own
 * process then holds only the product (its CPU time and peak memory are the product's, not the fake's, which keeps
 * every request it receives). The child answers the scripted items of eval-fixtures (item n right unless n % 4 = 0).
 *
 * Parent side: {@link startFakeOpenAiProcess}. Child side: this file run with `node --import tsx`, driven by IPC
 * messages `{ start: { delayMs, items } }` → `{ baseUrl }`, `{ stats: true }` → `{ callCount, peakInFlight, callsByModel,
 * arrivalsByModel }` (`callsByModel`: the number of requests per `model` field of the request body;
 * `arrivalsByModel`: when each of them arrived, ms since the fake started, in arrival order; `startedEpochMs`: when
 * the fake started, ms since the Unix epoch, to put those times on the parent's clock).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { type FakeOpenAi, startFakeOpenAi } from '../test/fakes/openai.ts';
import { type FixtureItem, scriptedAnswer } from '../test/helpers/eval-fixtures.ts';

/** The fake as the parent sees it. */
export interface FakeProcess {
  readonly baseUrl: string;
  /** Calls received and the most answered at once so far. */
  stats(): Promise<FakeStats>;
  close(): Promise<void>;
}

/**
 * What the fake received: all requests, the most at once, the requests per requested model id, and their arrival
 * times per model id (ms since the fake started).
 */
export type FakeStats = {
  callCount: number;
  peakInFlight: number;
  callsByModel: Record<string, number>;
  arrivalsByModel: Record<string, number[]>;
  startedEpochMs?: number;
};
type FromChild = { baseUrl: string } | FakeStats;

/**
 * Starts the fake in a child process answering `items` (by tag) after `delayMs` each.
 * @throws Error when the child exits before it listens.
 */
export async function startFakeOpenAiProcess(opts: {
  readonly delayMs: number;
  readonly items: ReadonlyMap<number, FixtureItem>;
  /** Answer every request with one fixed text (a choice letter), and judge requests with a JSON verdict. */
  readonly generic?: boolean;
}): Promise<FakeProcess> {
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`fake server exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        resolve(m as FromChild);
      });
    });
  const started = next();
  child.send({
    start: { delayMs: opts.delayMs, items: [...opts.items], generic: opts.generic === true },
  });
  const { baseUrl } = (await started) as { baseUrl: string };
  return {
    baseUrl,
    stats: async () => {
      const reply = next();
      child.send({ stats: true });
      return (await reply) as FakeStats;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill();
      }),
  };
}

if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  let fake: FakeOpenAi | undefined;
  let startedEpochMs = 0;
  process.on(
    'message',
    async (m: {
      start?: { delayMs: number; items: [number, FixtureItem][]; generic: boolean };
    }) => {
      if (m.start) {
        startedEpochMs = Date.now();
        fake = await startFakeOpenAi({ delayMs: m.start.delayMs });
        fake.setAnswer(
          m.start.generic
            ? (c) =>
                c.model === 'judge-model'
                  ? '{"reason":"bench","score":2,"violation":false}'
                  : '答案：A'
            : scriptedAnswer(new Map(m.start.items), (n) => n % 4 !== 0),
        );
        process.send?.({ baseUrl: fake.baseUrl });
      } else {
        const callsByModel: Record<string, number> = {};
        const arrivalsByModel: Record<string, number[]> = {};
        for (const c of fake?.calls ?? []) {
          callsByModel[c.model] = (callsByModel[c.model] ?? 0) + 1;
          const arrivals = arrivalsByModel[c.model] ?? [];
          arrivals.push(c.at);
          arrivalsByModel[c.model] = arrivals;
        }
        process.send?.({
          callCount: fake?.callCount ?? 0,
          peakInFlight: fake?.peakInFlight ?? 0,
          callsByModel,
          arrivalsByModel,
          startedEpochMs,
        });
      }
    },
  );
  process.on('SIGTERM', () => void fake?.close().finally(() => process.exit(0)));
}
