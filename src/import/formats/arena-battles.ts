/**
 * @module rating/parse-arena-lines
 * Parses arena JSONL text line by line (pure: strings in, {@link ArenaData} out; the caller does the reading).
 */
import { modelNameSaid } from '../../config/model-name.ts';
import type { Said, SaidTexts } from '../../core/errors.ts';
import { said, saidError } from '../../i18n/cli.ts';
import { jsonValueSaid, shown } from '../../i18n/quote.ts';
import { ArenaDataBuilder } from '../../rating/arena-data.ts';
import type { ArenaData, Winner } from '../../rating/types.ts';
import { WINNERS } from '../../rating/types.ts';
import { jsonSyntaxSaid, readJsonLine, stripBom } from './json-reader.ts';
import { rowKind } from './sniff.ts';
import { voteIdentities } from './vote-identity.ts';

/** The two accepted line kinds; a file holds one kind, detected from its first non-blank line. */
export type ArenaLineKind = 'battles' | 'pair_counts';

/** A streaming parser: push lines in file order, then {@link ArenaLineParser.finish}. */
export interface ArenaLineParser {
  /** Parses the next line (line numbers count every pushed line from 1, blank ones included). */
  push(line: string): void;
  /** The kind detected so far (null before the first non-blank line). */
  readonly kind: ArenaLineKind | null;
  /** Battle lines left out so far because they are marked `"anony": false` (without `includeNamed`). */
  readonly named: number;
  /** Battle lines left out so far as the same vote as an earlier line (./vote-identity.ts). */
  readonly duplicates: number;
  /** Ends the input and returns the data. Throws on an empty input. */
  finish(): ArenaData;
}

const BATTLE_EXAMPLE = '{"model_a":"gpt-4","model_b":"claude-2","winner":"model_a"}';
const PAIR_EXAMPLE =
  '{"model_a":"gpt-4","model_b":"claude-2","model_a_wins":10,"model_b_wins":7,"tie":2,"tie_bothbad":1}';
const COUNT_KEYS = ['model_a_wins', 'model_b_wins', 'tie', 'tie_bothbad'] as const;

/**
 * Creates a streaming parser of arena JSONL (Chatbot Arena battle format, Chiang et al. 2024).
 *
 * Accepted lines (extra keys are ignored; blank lines are skipped):
 * - battle: `{"model_a": string, "model_b": string, "winner": "model_a"|"model_b"|"tie"|"tie (bothbad)"}`
 * - pair counts: `{"model_a", "model_b", "model_a_wins", "model_b_wins", "tie", "tie_bothbad"}`, counts are
 *   non-negative integers; repeated pairs are summed.
 *
 * The kind is detected from the first non-blank line (a `winner` key means battles, a `model_a_wins` key means
 * pair counts); a later line of the other kind is an error.
 *
 * A battle line naming the vote of an earlier line (`question_id`, `tstamp`, `judge`: ./vote-identity.ts) is left
 * out and counted ({@link ArenaLineParser.duplicates}) when its outcome is the same, and refused naming both
 * lines when it is another, as `import battles` reads it.
 *
 * A battle marked `"anony": false` (its voter saw the models' names) is left out unless `includeNamed`, as
 * FastChat's `elo_analysis` keeps anonymous votes only (docs/scoring.md §4.3); {@link ArenaLineParser.named}
 * counts them.
 *
 * @param source name used in error messages (e.g. the file name); default `"input"`.
 * @throws AppError `rating_input_invalid` from `push` or `finish`, with message `source:LINE: problem; fix`
 *   (`source:LINE:COL: not valid JSON (…); fix` for a syntax error),
 *   for: a non-JSON line, a line that is not an object, a missing/empty model name, a self-battle, an unknown
 *   winner, a negative/non-integer count, a line of the other kind, a vote given again with another outcome, or
 *   (from `finish`) an input with no rows.
 */
export function createArenaLineParser(
  source = 'input',
  opts: { readonly includeNamed?: boolean } = {},
): ArenaLineParser {
  const builder = new ArenaDataBuilder();
  let lineNo = 0;
  let named = 0;
  let duplicates = 0;
  const identities = voteIdentities();
  let rated = 0;
  let kind: ArenaLineKind | null = null;
  let firstLine = 0;
  const bad = (msg: Said): never => {
    throw saidError(
      'rating_input_invalid',
      said('cli.ratingsLine.at', { source, line: lineNo, msg }),
    );
  };
  const name = (o: Record<string, unknown>, key: 'model_a' | 'model_b'): string => {
    const v = o[key];
    if (typeof v !== 'string' || v.length === 0)
      return bad(said('cli.ratingsLine.nameNotString', { key, got: gotText(v) }));
    // The one rule of model names (config/schema.ts), as `import battles` applies it.
    const problem = modelNameSaid(v);
    if (problem !== undefined)
      return bad(said('cli.ratingsLine.badName', { key, name: shown(v), problem }));
    return v;
  };
  return {
    get kind() {
      return kind;
    },
    push(line: string): void {
      lineNo++;
      if (line.trim().length === 0) return;
      // A JSON array (AlpacaEval model outputs, say) is not JSON Lines: say so instead of "not valid JSON".
      if (kind === null && line.trimStart().startsWith('[')) {
        bad(arraySaid(line, source));
      }
      const parsed = readJsonLine(lineNo === 1 ? stripBom(line) : line, lineNo);
      if (!parsed.ok) {
        throw saidError(
          'rating_input_invalid',
          jsonSyntaxSaid(
            source,
            parsed.error,
            said('cli.json.eachLineLike', { example: BATTLE_EXAMPLE }),
          ),
        );
      }
      const o = parsed.value;
      if (typeof o !== 'object' || o === null || Array.isArray(o)) {
        bad(said('cli.ratingsLine.notObject', { example: BATTLE_EXAMPLE }));
      }
      const rec = o as Record<string, unknown>;
      const other = kind === null ? rowKind(rec) : 'battles';
      if (other === 'outputs' || other === 'outputs_jsonl') {
        const jsonl = other === 'outputs_jsonl' ? ' --format jsonl' : '';
        bad(said('cli.ratingsLine.outputs', { source, jsonl }));
      }
      const lineKind: ArenaLineKind | null =
        'winner' in rec ? 'battles' : 'model_a_wins' in rec ? 'pair_counts' : null;
      if (lineKind === null) {
        bad(said('cli.ratingsLine.neither', { battle: BATTLE_EXAMPLE, pair: PAIR_EXAMPLE }));
      }
      if (kind === null) {
        kind = lineKind;
        firstLine = lineNo;
      } else if (kind !== lineKind) {
        bad(said(OTHER_KIND_KEYS[lineKind as ArenaLineKind], { first: firstLine }));
      }
      const a = name(rec, 'model_a');
      const b = name(rec, 'model_b');
      if (a === b) bad(said('cli.ratingsLine.self', { name: a }));
      if (kind === 'battles') {
        const w = rec.winner;
        if (typeof w !== 'string' || !(WINNERS as readonly string[]).includes(w))
          bad(winnerSaid(w));
        if (rec.anony !== undefined && typeof rec.anony !== 'boolean') {
          bad(said('cli.ratingsLine.anony', { got: jsonValueSaid(rec.anony) }));
        }
        const same = identities.check(rec, lineNo, {
          model_a: a,
          model_b: b,
          winner: w as string,
          named: rec.anony === false,
        });
        if (same.kind === 'conflict') bad(same.problem);
        if (same.kind === 'duplicate') {
          duplicates++;
          return;
        }
        if (rec.anony === false && opts.includeNamed !== true) {
          named++;
          return;
        }
        rated++;
        builder.addBattle(a, b, w as Winner);
      } else {
        const c: number[] = [];
        for (const key of COUNT_KEYS) {
          const v = rec[key];
          if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
            bad(said('cli.ratingsLine.count', { key, got: gotText(v) }));
          }
          c.push(v as number);
        }
        rated++;
        builder.addPairCounts(a, b, c[0]!, c[1]!, c[2]!, c[3]!);
      }
    },
    finish(): ArenaData {
      if (kind === null) {
        throw saidError(
          'rating_input_invalid',
          said('cli.battles.emptyInput', { source, n: lineNo, example: BATTLE_EXAMPLE }),
        );
      }
      if (rated === 0 && named > 0) {
        throw saidError('rating_input_invalid', said('cli.battles.allNamed', { source, n: named }));
      }
      return builder.build();
    },
    get named() {
      return named;
    },
    get duplicates() {
      return duplicates;
    },
  };
}

/** The refusal of a line of the other kind in a file of `kind`'s lines, by the kind of the line. */
const OTHER_KIND_KEYS = {
  battles: 'cli.ratingsLine.battleInPairs',
  pair_counts: 'cli.ratingsLine.pairInBattles',
} as const;

/** The refusal of a JSON array's first line, naming `import outputs` when it looks like model outputs. */
function arraySaid(line: string, source: string): Said {
  const outputs = /"instruction"\s*:/.test(line) || line.trim() === '[';
  return said('cli.ratingsLine.array', {
    example: BATTLE_EXAMPLE,
    outputs: outputs
      ? said('cli.ratingsLine.arrayOutputs', { shape: '{instruction, output}', source })
      : '',
  });
}

/** The refusal of a battle's missing or unknown `winner` `w`. */
function winnerSaid(w: unknown): Said {
  return w === undefined || w === null
    ? said('cli.ratingsLine.noWinner')
    : said('cli.ratingsLine.badWinner', { winner: jsonValueSaid(w) });
}

/**
 * A value found in a line as the refusal shows it (a string quoted in the reader's language, another value as its
 * JSON), or `nothing` (catalogue data) when it is absent.
 */
function gotText(v: unknown): SaidTexts | Said {
  return v === undefined ? said('cli.ratingsLine.nothing') : jsonValueSaid(v);
}

/**
 * Parses all lines at once (see {@link createArenaLineParser} for the format and errors).
 * @param lines the file's lines (an array, or `text.split('\n')`).
 */
export function parseArenaLines(
  lines: Iterable<string>,
  source = 'input',
  opts: { readonly includeNamed?: boolean } = {},
): ArenaData {
  const p = createArenaLineParser(source, opts);
  for (const line of lines) p.push(line);
  return p.finish();
}
