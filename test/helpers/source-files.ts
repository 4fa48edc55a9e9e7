/**
 * The TypeScript files under a folder of the project, for tests that read the sources (imports, strings, worker
 * entry points).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` file under `dir`, recursively, as paths starting with `dir`, in directory-listing order. */
export function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? tsFilesUnder(join(dir, e.name))
      : e.name.endsWith('.ts')
        ? [join(dir, e.name)]
        : [],
  );
}
