import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/helpers/sequencer.ts';

/**
 * `npm test`: everything but test/e2e. No test's outcome depends on machine speed (the suite must pass on a busy
 * 2-core machine with another suite running beside it), so the timeouts below are only guards against a hang,
 * far above any test's real duration; waits inside tests poll with generous upper bounds.
 * The heavy checks on the full real data sets live in test/e2e and run with `npm run test:e2e`
 * (vitest.e2e.config.ts), which CI runs too.
 */
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', '**/node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    testTimeout: 300_000,
    // Quiet output (one line per file and the summary, as the README says): vitest otherwise lists every test
    // slower than 300 ms, which on a busy machine is most of them.
    slowTestThreshold: 300_000,
    hookTimeout: 300_000,
    sequence: { sequencer: SlowFirstSequencer },
    pool: 'forks',
    // The tests open the embedded database in-process as one-shot commands do, so they run V8 as bin/zhujiu.js
    // runs it for those (see the tiering-budget comment there).
    execArgv: ['--wasm-tiering-budget=200000000'],
    setupFiles: ['test/helpers/setup-threads.ts'],
    maxWorkers: 6,
  },
});
