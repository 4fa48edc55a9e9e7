/**
 * @module import/formats/vote-identity
 * One vote given twice in a battles file. A FastChat battle record names its vote: `question_id` (the conversation),
 * `tstamp` (when the vote was cast) and `judge` (the voter, when given). Two lines of a file with the same
 * `question_id`, `tstamp` and `judge` (as given; those a line has, `question_id` or `tstamp` among them: a `judge`
 * alone names a voter, not a vote) are the same vote. Two voters of one battle at one instant (`zhujiu export
 * battles` writes each vote with its voter's `judge`) are two votes. The same vote:
 * - with the same outcome (`model_a`, `model_b`, `winner`, `anony`), a duplicate: counted and left out (the file
 *   was concatenated with itself, or a record was logged twice), however the rest of the line differs;
 * - with another outcome, a conflict: one vote cannot have two, and keeping both (or either) would be a guess, so
 *   the file is refused naming both lines.
 * Lines with neither field are outcome rows (`{"model_a","model_b","winner"}`), where the same text twice is two
 * votes: never compared. `import battles`, `ratings --battles` and `ratings --style-control --battles` read files
 * with it, so the three count the same votes (README "`import battles`"). Pure: no I/O.
 */
import type { Said } from '../../core/errors.ts';
import { said } from '../../i18n/cli.ts';

/** A vote's outcome as the duplicate check compares it. */
export interface VoteOutcome {
  readonly model_a: string;
  readonly model_b: string;
  readonly winner: string;
  /** `"anony": false`: the voter saw the models' names. */
  readonly named: boolean;
}

/** What {@link VoteIdentities.check} found for a line. */
export type IdentityCheck =
  | { readonly kind: 'new' }
  | { readonly kind: 'duplicate'; readonly of: number }
  /** `problem`: the refusal (catalogue data), to be said after the line's `file:line: `. */
  | { readonly kind: 'conflict'; readonly with: number; readonly problem: Said };

/** The duplicate check of one file's lines, in file order. */
export interface VoteIdentities {
  /**
   * Checks the line `line` (its parsed object `r` and checked outcome `vote`) against the earlier lines; a new
   * identity is remembered.
   */
  check(r: Readonly<Record<string, unknown>>, line: number, vote: VoteOutcome): IdentityCheck;
}

/** The fields that name a vote, in this order. */
const IDENTITY_KEYS = ['question_id', 'tstamp', 'judge'] as const;

/**
 * The identity fields of a line, as JSON (`{"question_id":"q1","tstamp":1690000300.1322}`), or undefined when it
 * has neither `question_id` nor `tstamp`.
 */
function identityOf(r: Readonly<Record<string, unknown>>): string | undefined {
  if ((r.question_id ?? null) === null && (r.tstamp ?? null) === null) return undefined;
  const id: Record<string, unknown> = {};
  for (const k of IDENTITY_KEYS) if ((r[k] ?? null) !== null) id[k] = r[k];
  return JSON.stringify(id);
}

/** An outcome as the refusal shows it: its JSON fields (`anony` only when false). */
function outcomeText(v: VoteOutcome): string {
  return JSON.stringify({
    model_a: v.model_a,
    model_b: v.model_b,
    winner: v.winner,
    ...(v.named ? { anony: false } : {}),
  });
}

/** A new duplicate check (see the module doc); it keeps each identity's first line and outcome. */
export function voteIdentities(): VoteIdentities {
  const seen = new Map<string, { readonly line: number; readonly vote: VoteOutcome }>();
  return {
    check(r, line, vote) {
      const id = identityOf(r);
      if (id === undefined) return { kind: 'new' };
      const first = seen.get(id);
      if (first === undefined) {
        seen.set(id, { line, vote });
        return { kind: 'new' };
      }
      const same =
        first.vote.model_a === vote.model_a &&
        first.vote.model_b === vote.model_b &&
        first.vote.winner === vote.winner &&
        first.vote.named === vote.named;
      if (same) return { kind: 'duplicate', of: first.line };
      return {
        kind: 'conflict',
        with: first.line,
        problem: said('cli.battles.conflict', {
          identity: id,
          line: first.line,
          there: outcomeText(first.vote),
          here: outcomeText(vote),
        }),
      };
    },
  };
}
