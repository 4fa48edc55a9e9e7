import { defineConfig } from 'vitest/config';
import { ProjectGroupedShuffle } from './test/helpers/sequencer.ts';

/**
 * `npm test`: the suite as three vitest projects (docs/architecture.md, "Tests"):
 * - `unit` (test/unit): pure code, no database, no process, no network but 127.0.0.1 fakes; milliseconds each.
 *   `npx vitest run --project unit` builds nothing and opens no database.
 * - `app` (test/app): the application in-process: one database per test file (a copy of a migrated PGlite
 *   template, or a fresh PostgreSQL database), its rows cleared between tests where they write, commands through
 *   `runCli`, chat through the wire fakes.
 * - `process` (test/process): only what needs an operating-system process (signals and exit codes, `kill -9`,
 *   the data-folder lock, start-up from dist/, a pseudo-terminal, log files). Its global setup builds dist/.
 * The heavy checks on the full real data sets are the fourth tier, test/e2e (`npm run test:e2e`,
 * vitest.e2e.config.ts).
 *
 * No outcome depends on machine speed: timeouts only guard against a hang, waits inside tests poll with generous
 * upper bounds. Files and tests run in a shuffled order (see `sequence` below; `--sequence.seed=N` replays an order). Tests slower than `slowTestThreshold` are listed.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    // The tests open the embedded database in-process as one-shot commands do, so they run V8 as bin/zhujiu.js
    // runs it for those (see the tiering-budget comment there).
    execArgv: ['--wasm-tiering-budget=200000000'],
    // Two groups run one after the other (`sequence.groupOrder`), each with its own number of files at a time, since
    // their files load the 2 cores differently:
    // - group 0, 8 at a time (the whole suite took 184–195 s so, 216 s with 6): the `process` files, which mostly
    //   wait on child processes, signals and slow fakes, then the `unit` files, which fill the cores as the last
    //   `process` files wait;
    // - group 1, 4 at a time: the `app` files, which keep the cores busy but also wait on fakes and timers (the
    //   project alone: 112 s wall with 4 at a time, 120 s with 3).
    // The whole suite took 263 s wall and 428 CPU-s as one group of 4 at a time with its folders on the disk, 184 s
    // and 295 CPU-s so (with test/helpers/global-scratch.ts); docs/architecture.md "Tests".
    maxWorkers: 4,
    // Tests slower than this are listed after the run (one threshold for the three projects).
    slowTestThreshold: 5_000,
    // Files run in a shuffled order in every project; unit and app tests are shuffled within their files too (an
    // app file's tests share its database, emptied before each test by `useCleanRows` in test/helpers/db.ts where
    // they write). The tests of a process file run in the order they are written. Files are queued project by
    // project (process, unit, app), each project's shuffled: test/helpers/sequencer.ts says why.
    sequence: { shuffle: { files: true, tests: false }, sequencer: ProjectGroupedShuffle },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          globalSetup: ['test/helpers/global-scratch.ts'],
          // Pure modules with no state between files: one worker imports them once for all its files
          // instead of once per file (the unit project went from 67 s to 25 s on a loaded machine).
          isolate: false,
          // With the `process` files, in their group (see `maxWorkers` at the top).
          sequence: { shuffle: { tests: true }, groupOrder: 0 },
          maxWorkers: 8,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'app',
          include: ['test/app/**/*.test.ts'],
          globalSetup: ['test/helpers/global-scratch.ts', 'test/helpers/global-setup.ts'],
          // A worker imports the application (and compiles PGlite) once for all its files instead of once per
          // file: the files' CPU time halved. Each file still opens its own database and fakes; nothing of a file's
          // state is module-level (no test mocks modules or changes `process.env`), so files run in any order in a
          // worker. The setup file loads discord.js before any file can load vega-lite (see there).
          isolate: false,
          setupFiles: ['test/helpers/app-setup.ts'],
          sequence: { shuffle: { tests: true }, groupOrder: 1 },
          maxWorkers: 4,
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: ['test/process/**/*.test.ts'],
          globalSetup: [
            'test/helpers/global-scratch.ts',
            'test/helpers/global-setup.ts',
            'test/helpers/global-build.ts',
          ],
          sequence: { groupOrder: 0 },
          maxWorkers: 8,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
