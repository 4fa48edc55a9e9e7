/**
 * The ordered list of migrations. Kysely runs them by name order; never rename or edit a landed migration:
 * add a new numbered file and list it here.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0004 from './0004_leaderboard.ts';

export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0004_leaderboard': m0004,
};
