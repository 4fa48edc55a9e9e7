/**
 * The guard of the tests on real public data (test/helpers/shared-data.ts): when the data is absent, the skip is
 * said once per test file and missing file, naming the test file, what it needs and where the data is expected
 * (the folder beside the checkout, or ZHUJIU_SHARED_DATA).
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hasSharedData, SHARED_DATA_DIR, sharedDataSkipNote } from '../../helpers/shared-data.ts';

describe('shared data guard', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('names the test file, the missing file and where the data is expected', () => {
    expect(
      sharedDataSkipNote(
        'test/unit/rating/reference-data.test.ts',
        '/src/shared/data/arena/battles.jsonl',
        '/src/shared/data',
        false,
      ),
    ).toBe(
      '[skip] test/unit/rating/reference-data.test.ts: its tests on real public data are skipped: ' +
        'arena/battles.jsonl is not in the shared data folder /src/shared/data (../shared/data beside this checkout). ' +
        'Put the public data folder there, or set ZHUJIU_SHARED_DATA to the folder that holds it (README "Quick start").',
    );
    expect(sharedDataSkipNote(undefined, '/data/x.tsv', '/data', true)).toContain(
      '[skip] a test file: its tests on real public data are skipped: x.tsv is not in the shared data folder ZHUJIU_SHARED_DATA=/data.',
    );
  });

  it('says it once per test file and missing file, naming this file', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const missing = ['no-such-folder', 'absent.jsonl'];
    expect(hasSharedData(...missing)).toBe(false);
    expect(hasSharedData(...missing)).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain(
      '[skip] test/unit/test-helpers/shared-data.test.ts: its tests on real public data are skipped: ' +
        `${join('no-such-folder', 'absent.jsonl')} is not in the shared data folder ${SHARED_DATA_DIR}`,
    );
  });
});
