/**
 * Vitest global setup: builds one migrated PGlite data folder per test run (creating one costs ~6 s, copying it
 * ~0.1 s), so each test file gets a fresh embedded database cheaply. Its path is provided as `pgliteTemplate`.
 * It also brings dist/ up to date (test/helpers/build.ts): process tests run the compiled `bin/zhujiu.js`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDb } from '../../src/storage/db.ts';
import { ensureBuilt } from './build.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  // In parallel with the template (both take seconds); a build error is raised after, never left unhandled.
  const built = ensureBuilt().then(
    () => undefined,
    (err: unknown) => err,
  );
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-pglite-template-'));
  const dataDir = join(dir, 'pg');
  const d = await openDb({ kind: 'pglite', dataDir });
  await migrateToLatest(d.db);
  await d.close();
  const buildError = await built;
  if (buildError) throw buildError;
  project.provide('pgliteTemplate', dataDir);
  return () => rmSync(dir, { recursive: true, force: true });
}
