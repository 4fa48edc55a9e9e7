import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: the heavy end-to-end checks on the full real data sets (test/e2e), two files at a time (one
 * per core of a 2-core machine; each file has its own database and folders). Timeouts only guard against a hang
 * (see vitest.config.ts).
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    globalSetup: [
      'test/helpers/global-scratch.ts',
      'test/helpers/global-setup.ts',
      'test/helpers/global-build.ts',
    ],
    testTimeout: 600_000,
    hookTimeout: 600_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
