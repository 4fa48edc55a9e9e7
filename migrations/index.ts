/**
 * The ordered list of migrations. Kysely runs them by name order; never rename or edit a landed migration:
 * add a new numbered file and list it here.
 */
import type { Migration } from 'kysely';
import * as m0001 from './0001_initial.ts';
import * as m0004 from './0004_leaderboard.ts';
import * as m0006 from './0006_live_battles.ts';

export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0004_leaderboard': m0004,
  '0006_live_battles': m0006,
};
