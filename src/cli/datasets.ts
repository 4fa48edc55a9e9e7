/**
 * @module cli/datasets
 * `zhujiu datasets build [--out DIR] [--json]`: builds the constructed datasets (every builder of
 * eval/datasets/build/registry.ts, e.g. ZhuJiu's knowledge sets) from the installed data packages into DIR
 * (default: the datasets folder's `zhujiu-built/`, where the shipped suites read them), with a `manifest.json`
 * naming each file, its item count and SHA-256, and the packages, versions and licences it was built from.
 * Opens no database.
 */
import { resolve } from 'node:path';
import { AppError } from '../core/errors.ts';
import { listText, tc } from '../i18n/cli.ts';
import { causeText } from '../i18n/error-cause.ts';
import { type CliDeps, cliLocale, configOf } from './deps.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu datasets build`. */
export interface DatasetsBuildOptions {
  readonly out?: string;
  readonly json?: boolean;
}

/**
 * Runs `zhujiu datasets build`.
 * @throws AppError `config_invalid` (configuration, a data package not installed), or the file system's error.
 */
export async function runDatasetsBuild(
  io: CliIo,
  o: DatasetsBuildOptions,
  deps: CliDeps,
): Promise<void> {
  const { BUILT_DIR, buildDatasets } = await import('../eval/datasets/build/write.ts');
  const out =
    o.out !== undefined
      ? resolve(deps.cwd ?? process.cwd(), o.out)
      : resolve((await configOf(deps)).datasetsDir, BUILT_DIR);
  const locale = cliLocale(deps);
  let manifest: Awaited<ReturnType<typeof buildDatasets>>;
  try {
    manifest = await buildDatasets(out);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === undefined) throw err;
    // The folder cannot be written (a file in its path, no permission): one line naming it and the fix.
    throw new AppError(
      'file_unwritable',
      tc(locale, 'cli.datasets.unwritable', {
        out,
        why:
          code === 'ENOTDIR' || code === 'EEXIST'
            ? tc(locale, 'cli.datasets.fileInPath')
            : causeText(locale, code),
      }),
      { cause: err },
    );
  }
  if (o.json) {
    io.out(JSON.stringify({ out, ...manifest }, null, 2));
    return;
  }
  io.out(tc(locale, 'cli.datasets.built', { out }));
  for (const b of manifest.builders) {
    const items = b.files.reduce((s, f) => s + f.items, 0);
    io.out(tc(locale, 'cli.datasets.builder', { name: b.name, files: b.files.length, items }));
    for (const f of b.files) io.out(`  ${f.path.padEnd(40)} ${f.items}`);
    const from = listText(
      locale,
      b.sources.map((s) =>
        tc(locale, 'cli.datasets.source', {
          package: s.package,
          version: s.version,
          licence: s.licence,
        }),
      ),
    );
    io.out(tc(locale, 'cli.datasets.from', { from }));
  }
}
