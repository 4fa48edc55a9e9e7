/**
 * Vitest global setup: builds one migrated PGlite data folder per test run (creating one costs ~6 s, copying it
 * ~0.1 s), so each test file gets a fresh embedded database cheaply. Its path is provided as `pgliteTemplate`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDb } from '../../src/storage/db.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'zhujiu-pglite-template-'));
  const dataDir = join(dir, 'pg');
  const d = await openDb({ kind: 'pglite', dataDir });
  await migrateToLatest(d.db);
  await d.close();
  project.provide('pgliteTemplate', dataDir);
  return () => rmSync(dir, { recursive: true, force: true });
}
