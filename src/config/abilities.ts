/**
 * @module config/abilities
 * The ability dimensions as a plain constant, apart from the zod schemas, so that the command line can name
 * them in `--help` without loading zod (see src/cli/index.ts: `zhujiu --help` loads no heavy module).
 */

/** The seven ZhuJiu ability dimensions (docs/scoring.md §1). */
export const ABILITIES = [
  'knowledge',
  'chinese_specific',
  'language',
  'reasoning',
  'refusal',
  'safety',
  'robustness',
] as const;
/** One ability dimension. */
export type Ability = (typeof ABILITIES)[number];
