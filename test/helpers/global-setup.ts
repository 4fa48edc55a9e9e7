/**
 * Vitest global setup: provides one migrated PGlite data folder as `pgliteTemplate` (creating one costs ~6 s,
 * copying it ~0.1 s), so each test file gets a fresh embedded database cheaply. The folder is kept in the system's
 * temporary folder under a name made of a hash of the migrations and the PGlite version, so later runs reuse it;
 * it is built in a private folder and renamed into place, so suites started side by side never see half of one.
 * The `process` project and e2e also run test/helpers/global-build.ts, which brings dist/ up to date: their tests
 * run the compiled `bin/zhujiu.js`. The `unit` and `app` projects never build.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openDb } from '../../src/storage/db.ts';
import { dropTemplateDatabases } from '../../src/storage/pglite-template.ts';
import { systemTmpdir } from './global-scratch.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

export default async function setup(project: TestProject): Promise<void> {
  project.provide('pgliteTemplate', await pgliteTemplate());
}

/** The migrated template folder for the current migrations and PGlite version, built when missing. */
async function pgliteTemplate(): Promise<string> {
  const root = new URL('../..', import.meta.url).pathname;
  const h = createHash('sha256');
  const pglite = JSON.parse(
    readFileSync(join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json'), 'utf8'),
  ) as { version: string };
  h.update(`pglite ${pglite.version}\ndrop-templates\n`);
  for (const f of readdirSync(join(root, 'migrations')).sort()) {
    h.update(`${f}\n`).update(readFileSync(join(root, 'migrations', f)));
  }
  const target = join(systemTmpdir(), `zhujiu-pglite-template-${h.digest('hex').slice(0, 16)}`);
  if (existsSync(join(target, 'PG_VERSION'))) return target;
  const work = mkdtempSync(join(systemTmpdir(), 'zhujiu-pglite-build-'));
  const dataDir = join(work, 'pg');
  const d = await openDb({ kind: 'pglite', dataDir });
  await migrateToLatest(d.db);
  await dropTemplateDatabases(d.db); // as the prepared database of `npm run build` (storage/pglite-template.ts)
  await d.close();
  try {
    renameSync(dataDir, target);
  } catch (err) {
    // Another suite started beside this one renamed its copy first: use that one.
    if (!existsSync(join(target, 'PG_VERSION'))) throw err;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return target;
}
