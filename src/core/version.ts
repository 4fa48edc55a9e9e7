/**
 * @module core/version
 * The package version, read once from package.json (found from `src/` when run through tsx or vitest, and from
 * the compiled `dist/src/` as `zhujiu` runs).
 */
import { readFileSync } from 'node:fs';

let version: string | undefined;

/** The version of the zhujiu-arena package (`0.1.0`), or `unknown` when its package.json cannot be read. */
export function packageVersion(): string {
  if (version !== undefined) return version;
  version = 'unknown';
  for (const up of ['../../package.json', '../../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'zhujiu-arena' && pkg.version) {
        version = pkg.version;
        break;
      }
    } catch {
      /* not there */
    }
  }
  return version;
}
