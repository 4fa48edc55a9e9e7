/**
 * @module eval/datasets/build/packages
 * The installed npm packages that constructed datasets are built from: their data, loaded with Node's `require`
 * (the data packages are CommonJS or JSON) only when a builder runs, and their name, installed version and
 * licence for every item's provenance (docs/scoring.md §2.8).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { AppError } from '../../../core/errors.ts';
import { said, saidError } from '../../../i18n/cli.ts';

const req = createRequire(import.meta.url);

/** A data package as provenance names it. */
export interface SourcePackage {
  readonly package: string;
  /** The installed version (package.json `version`). */
  readonly version: string;
  /** SPDX licence id (package.json `license`, else read from its LICENSE file). */
  readonly licence: string;
}

/** Licences recognised from a LICENSE file's first lines, for packages whose package.json names none. */
const LICENCE_TITLES: readonly [RegExp, string][] = [
  [/Open Database License/i, 'ODbL-1.0'],
  [/MIT License/i, 'MIT'],
];

function packageDir(name: string): string {
  let dir: string;
  try {
    dir = dirname(req.resolve(name));
  } catch (err) {
    throw saidError('config_invalid', said('cli.datasets.noPackage', { name }), { cause: err });
  }
  for (;;) {
    const pj = join(dir, 'package.json');
    if (existsSync(pj) && (JSON.parse(readFileSync(pj, 'utf8')) as { name?: string }).name === name)
      return dir;
    const up = dirname(dir);
    if (up === dir)
      throw new AppError('internal', `no package.json of "${name}" above its entry point`);
    dir = up;
  }
}

/**
 * The installed version and licence of a data package.
 * @throws AppError `config_invalid` when it is not installed; `internal` when its licence cannot be told.
 */
export function sourcePackage(name: string): SourcePackage {
  const dir = packageDir(name);
  const pj = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
    version: string;
    license?: string;
  };
  let licence = pj.license;
  if (licence === undefined && existsSync(join(dir, 'LICENSE'))) {
    const head = readFileSync(join(dir, 'LICENSE'), 'utf8').slice(0, 400);
    licence = LICENCE_TITLES.find(([re]) => re.test(head))?.[1];
  }
  if (licence === undefined)
    throw new AppError('internal', `cannot tell the licence of the data package "${name}"`);
  return { package: name, version: pj.version, licence };
}

/** Loads a data package (or a file of it, `pkg/path.json`) with `require`. The caller types the result. */
export function loadPackage(spec: string): unknown {
  return req(spec);
}
