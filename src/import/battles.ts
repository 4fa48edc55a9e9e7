/**
 * @module import/battles
 * `zhujiu import battles`: public arena votes (JSONL `{model_a, model_b, winner}`) become closed battles with one
 * vote each, tagged with a source, so an arena can start from existing votes. One transaction; re-running the same
 * file adds nothing (each row's key is its line number and a hash of its content, within the source); another
 * file under the same source name is refused.
 *
 * Each vote keeps its own time when its line carries one: FastChat's `tstamp` (Unix seconds, stored to the
 * microsecond; FastChat logs four decimals) or, in zhujiu's own `jsonl` export, `voted_at` (ISO 8601 with a time
 * zone). A line without either gets the import's time. A time before 2000-01-01 or more than a day after the
 * import's clock is refused naming `file:line` (a value in milliseconds is the usual cause), see
 * {@link lineTime}.
 *
 * A line that carries its vote's identity (`question_id`, `tstamp` and `judge`, as FastChat's battle records do)
 * and names the vote of an earlier line is a duplicate when it has the same outcome: skipped and counted; with
 * another outcome the file is refused naming both lines (import/formats/vote-identity.ts). Lines without an
 * identity are outcome rows (`{"model_a","model_b","winner"}`), where the same text twice is two votes (the public
 * sample holds 178,396 such repeats), so they are all kept.
 */
import { hash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Kysely } from 'kysely';
import { type Ability, modelNameProblem } from '../config/schema.ts';
import { AppError } from '../core/errors.ts';
import { cannotRead, readUtf8Lines } from '../core/utf8.ts';
import { sayCli, tc } from '../i18n/cli.ts';
import { displayName } from '../i18n/display-names.ts';
import type { Locale } from '../i18n/index.ts';
import { jsonValueText } from '../i18n/quote.ts';
import {
  analyzeVoteTables,
  type ImportedBattle,
  importedAbilitiesOfSource,
  importKeysOfSource,
  insertImportedBattles,
} from '../storage/battles.ts';
import { ensureModels } from '../storage/models.ts';
import type { Database, VoteChoice } from '../storage/schema.ts';
import { ARENA_SOURCE } from '../storage/sources.ts';
import { didYouMean } from '../text/edit-distance.ts';
import { jsonSyntaxMessage, readJsonLine } from './formats/json-reader.ts';
import { capProblems, fileRowKind, looksLikeCsv, nameShown, rowKind } from './formats/sniff.ts';
import { voteIdentities } from './formats/vote-identity.ts';

const WINNER_TO_CHOICE: Readonly<Record<string, VoteChoice>> = {
  model_a: 'left',
  model_b: 'right',
  tie: 'equal',
  'tie (bothbad)': 'bothbad',
};

/** Options of a battles import. */
export interface ImportBattlesOptions {
  readonly file: string;
  /** Tag of the imported battles; default: the file's base name without extension. */
  readonly source?: string;
  readonly ability?: Ability;
  readonly at?: Date;
  /** Aborts the import (before its commit: nothing is written; it throws the signal's reason). */
  readonly signal?: AbortSignal;
  /**
   * True when this process holds the database alone (the embedded PGlite folder): battle ids are then assigned by
   * the import and drawn from the sequence only at its commit, so an aborted import uses up no internal battle ids
   * (battle numbers, per source, are never used up: see storage/battles `insertImportedBattles`).
   */
  readonly exclusiveDb?: boolean;
  /** The file as {@link readBattlesFile} already read it (then `file` and `source` are not read again). */
  readonly parsed?: BattlesFile;
  /** Language of the errors about vote times (default `en`; the CLI passes its own). */
  readonly locale?: Locale;
}

/** One battle line of a file. */
interface BattleRow {
  readonly line: number;
  readonly a: string;
  readonly b: string;
  readonly winner: string;
  /** `"anony": false`: the voter saw the models' names. */
  readonly named?: true;
  /** The vote's own time in Unix seconds (from `tstamp` or `voted_at`); absent: the import's time. */
  readonly tstamp?: number;
}

/** A battles file, read and checked, not yet stored. */
export interface BattlesFile {
  readonly file: string;
  readonly source: string;
  readonly rows: readonly BattleRow[];
  /** Lines left out as the same vote as an earlier line, by its identity (see the module doc). */
  readonly duplicates: number;
}

/** What an import did. */
export interface ImportBattlesResult {
  readonly source: string;
  /** Battle lines read, duplicates included. */
  readonly rows: number;
  readonly added: number;
  readonly skipped: number;
  /** Duplicate lines of the file, skipped (see the module doc). */
  readonly duplicates: number;
  readonly models: number;
}

/**
 * Imports a battles JSONL file.
 * @throws AppError `import_invalid` naming `file:line` for: non-JSON lines, missing model names, a model name the
 *   rule of {@link modelNameProblem} refuses (over 200 characters, blank, a control or line-break character, a space
 *   at either end), a self-battle,
 *   an unknown winner (allowed: model_a, model_b, tie, tie (bothbad)), an empty file, a vote (`question_id` and
 *   `tstamp`) given again with another outcome (both lines named). Nothing is written then.
 */
export async function importBattles(
  db: Kysely<Database>,
  opts: ImportBattlesOptions,
): Promise<ImportBattlesResult> {
  const { source, rows, duplicates } = opts.parsed ?? (await readBattlesFile(opts));
  const stored = await storeBattles(db, source, rows, opts);
  return { ...stored, rows: stored.rows + duplicates, duplicates };
}

/** What `import battles` takes, said after a refusal of the whole file. */
function battlesFormat(locale: Locale): string {
  return tc(locale, 'cli.battles.format', {
    shape:
      '{"model_a": "…", "model_b": "…", "winner": "model_a" | "model_b" | "tie" | "tie (bothbad)"}',
  });
}

/**
 * Reads and checks a battles file and its source name, without touching the database: `zhujiu import battles`
 * calls it before it opens the database, so a bad file is refused in a fraction of a second.
 * @throws AppError as {@link importBattles} does for the file and the source name.
 */
export async function readBattlesFile(
  opts: Pick<ImportBattlesOptions, 'file' | 'source' | 'signal' | 'at' | 'locale'>,
): Promise<BattlesFile> {
  const locale = opts.locale ?? 'en';
  const source = opts.source ?? basename(opts.file).replace(/\.[^.]+$/, '');
  if (source === ARENA_SOURCE) {
    throw new AppError(
      'input_invalid',
      tc(locale, 'cli.battles.reserved', {
        source: ARENA_SOURCE,
        from: opts.source === undefined ? tc(locale, 'cli.battles.fromFileName') : '',
      }),
    );
  }
  if (!/^[\w.:@-]{1,64}$/.test(source)) {
    throw new AppError('input_invalid', tc(locale, 'cli.usage.source', { value: source }));
  }
  try {
    const st = await stat(opts.file);
    if (!st.isFile()) {
      throw new AppError('import_invalid', tc(locale, 'cli.battles.notFile', { file: opts.file }));
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw cannotRead(opts.file, 'import_invalid', err);
  }
  const rows: BattleRow[] = [];
  const problems: string[] = [];
  const now = opts.at ?? new Date();
  const seen = voteIdentities();
  let duplicates = 0;
  let lineNo = 0;
  // A JSON array (e.g. AlpacaEval model outputs) is not JSON Lines: its first lines are kept to say what it is.
  let arrayHead: string[] | undefined;
  // A first line that is not JSON, and the next non-blank one (to tell a CSV table).
  let notJsonl: string[] | undefined;
  const outputsHint = (jsonl: boolean) =>
    tc(locale, jsonl ? 'cli.battles.outputsJsonl' : 'cli.battles.outputsArray', {
      at: `${opts.file}:1`,
      file: opts.file,
      shape: jsonl ? '{item, prompt, output}' : '{instruction, output, generator}',
    });
  for await (const raw of readUtf8Lines(opts.file, { code: 'import_invalid' })) {
    lineNo++;
    if (lineNo % 1000 === 0) opts.signal?.throwIfAborted();
    const line = lineNo === 1 && raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw; // UTF-8 BOM
    if (arrayHead !== undefined) {
      arrayHead.push(line);
      if (arrayHead.length >= 50) break;
      continue;
    }
    if (notJsonl !== undefined) {
      if (line.trim() === '') continue;
      notJsonl.push(line);
      break;
    }
    if (line.trim() === '') continue;
    if (rows.length === 0 && problems.length === 0 && line.trimStart().startsWith('[')) {
      arrayHead = [line];
      continue;
    }
    const bad = (msg: string) => {
      problems.push(tc(locale, 'cli.battles.problem', { at: `${opts.file}:${lineNo}`, msg }));
    };
    if (line.includes('\u0000')) {
      bad(tc(locale, 'cli.battles.notText'));
      break;
    }
    const parsed = readJsonLine(line, lineNo);
    if (!parsed.ok && rows.length === 0 && problems.length === 0) {
      // The first line is not JSON: the file is of another format (a CSV table, …), said once.
      notJsonl = [line];
      continue;
    }
    if (!parsed.ok) {
      problems.push(jsonSyntaxMessage(opts.file, parsed.error, undefined, locale));
      continue;
    }
    const o = parsed.value;
    if (typeof o !== 'object' || o === null || Array.isArray(o)) {
      bad(tc(locale, 'cli.battles.notObject', { shape: '{"model_a", "model_b", "winner"}' }));
      continue;
    }
    const kind = rows.length === 0 && problems.length === 0 ? rowKind(o) : 'battles';
    if (kind === 'outputs' || kind === 'outputs_jsonl') {
      throw new AppError('import_invalid', outputsHint(kind === 'outputs_jsonl'));
    }
    const checked = battleRow(o as Record<string, unknown>, lineNo, now, locale);
    if (typeof checked === 'string') {
      bad(checked);
      if (checked === pairCountLine(locale)) break;
      continue;
    }
    const same = seen.check(o as Record<string, unknown>, lineNo, {
      model_a: checked.a,
      model_b: checked.b,
      winner: checked.winner,
      named: checked.named === true,
    });
    if (same.kind === 'conflict') bad(sayCli(locale, same.problem));
    else if (same.kind === 'duplicate') duplicates++;
    else rows.push(checked);
  }
  if (notJsonl !== undefined) throw notJsonlError(opts.file, notJsonl, locale);
  // A JSON array, problems found, or no battle at all: nothing is imported.
  const refused =
    arrayHead !== undefined
      ? fileRowKind(arrayHead.join('\n')) === 'outputs'
        ? outputsHint(false)
        : tc(locale, 'cli.battles.array', { at: `${opts.file}:1`, format: battlesFormat(locale) })
      : problems.length > 0
        ? capProblems(problems, undefined, locale).join('\n')
        : rows.length === 0
          ? tc(locale, 'cli.battles.none', { at: `${opts.file}:1`, format: battlesFormat(locale) })
          : undefined;
  if (refused !== undefined) throw new AppError('import_invalid', refused);
  return { file: opts.file, source, rows, duplicates };
}

/**
 * The refusal of a file whose first line is not JSON: one error naming the file, what it looks like (a CSV table, as
 * import/formats/sniff `looksLikeCsv` tells it) and the format `import battles` takes.
 * @param head the file's first non-blank line and the next one (when there is one).
 */
function notJsonlError(file: string, head: readonly string[], locale: Locale): AppError {
  return new AppError(
    'import_invalid',
    tc(locale, looksLikeCsv(head.join('\n')) ? 'cli.battles.csv' : 'cli.battles.notJsonl', {
      at: `${file}:1`,
      file,
      format: battlesFormat(locale),
    }),
  );
}

/** The refusal of a pair-count line, in `locale`: such a file is refused at its first line. */
function pairCountLine(locale: Locale): string {
  return tc(locale, 'cli.battles.pairCounts', { shape: '{"model_a","model_b","winner"}' });
}

/**
 * Checks one parsed line of a battles file.
 * @param r the line's object; `lineNo` its line number; `now` the import's clock (for {@link lineTime}).
 * @returns the battle, or the problem (the text after `file:line: `).
 */
function battleRow(
  r: Record<string, unknown>,
  lineNo: number,
  now: Date,
  locale: Locale,
): BattleRow | string {
  const a = r.model_a;
  const b = r.model_b;
  const w = r.winner;
  const misspelt = misspeltKey(r);
  if (misspelt !== undefined) return tc(locale, 'cli.battles.misspeltKey', misspelt);
  if (typeof a !== 'string' || a === '' || typeof b !== 'string' || b === '')
    return tc(locale, 'cli.battles.names');
  // The rule of every model name (config/schema.ts), checked here so the database never refuses one.
  const nameProblem = (['model_a', 'model_b'] as const)
    .map((k) => {
      const v = k === 'model_a' ? a : b;
      const problem = modelNameProblem(v, locale);
      return problem === undefined
        ? undefined
        : tc(locale, 'cli.ratingsLine.badName', { key: k, name: nameShown(v), problem });
    })
    .filter((x) => x !== undefined);
  if (nameProblem.length > 0)
    return tc(locale, 'cli.battles.badName', {
      problems: nameProblem.join(tc(locale, 'cli.outputs.sep')),
    });
  if (a === b) return tc(locale, 'cli.battles.self', { name: a });
  if (w === undefined && 'model_a_wins' in r) return pairCountLine(locale);
  if (typeof w !== 'string' || !(w in WINNER_TO_CHOICE))
    return w === undefined || w === null
      ? tc(locale, 'cli.battles.noWinner')
      : tc(locale, 'cli.battles.badWinner', { winner: jsonValueText(locale, w) });
  if (r.anony !== undefined && typeof r.anony !== 'boolean')
    return tc(locale, 'cli.battles.anony', { got: jsonValueText(locale, r.anony) });
  const tstamp = lineTime(r, now, locale);
  if (typeof tstamp === 'string') return tstamp;
  return {
    line: lineNo,
    a,
    b,
    winner: w,
    ...(r.anony === false ? { named: true } : {}),
    ...(tstamp === undefined ? {} : { tstamp }),
  };
}

/** The keys a battle line must have. */
const REQUIRED_KEYS = ['model_a', 'model_b', 'winner'] as const;

/**
 * A required key a line lacks while it has a key that looks like its misspelling (`winer` for `winner`), or
 * undefined.
 */
function misspeltKey(r: Record<string, unknown>): { key: string; want: string } | undefined {
  for (const want of REQUIRED_KEYS) {
    if (want in r) continue;
    const key = Object.keys(r).find(
      (k) => !(REQUIRED_KEYS as readonly string[]).includes(k) && didYouMean(k, [want]) === want,
    );
    if (key !== undefined) return { key, want };
  }
  return undefined;
}

/** The earliest vote time accepted: 2000-01-01T00:00:00Z, in Unix seconds. */
const EARLIEST_VOTE = 946_684_800;
/** How far after the import's clock a vote time may be (clock skew between machines), in seconds: one day. */
const FUTURE_SLACK = 86_400;
/** ISO 8601 date and time with a time zone, as the `jsonl` export writes `voted_at` (`Date#toISOString`). */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/**
 * The vote time a battle line carries, in Unix seconds: FastChat's `tstamp` (a number of seconds), else the
 * `jsonl` export's `voted_at` (ISO 8601 with a time zone); undefined when it has neither (the import's time is
 * stored then). `null` counts as absent.
 * @param now the import's clock: a time more than {@link FUTURE_SLACK} seconds after it is refused, as is one
 *   before 2000-01-01 ({@link EARLIEST_VOTE}).
 * @returns the time, or the problem in `locale` (the text after `file:line: `).
 */
export function lineTime(
  r: Readonly<Record<string, unknown>>,
  now: Date,
  locale: Locale = 'en',
): number | string | undefined {
  let field: 'tstamp' | 'voted_at' = 'tstamp';
  let t: number;
  if (r.tstamp !== undefined && r.tstamp !== null) {
    if (typeof r.tstamp !== 'number' || !Number.isFinite(r.tstamp)) {
      return tc(locale, 'cli.import.battles.tstampType', {
        value: jsonValueText(locale, r.tstamp),
      });
    }
    t = r.tstamp;
  } else if (r.voted_at !== undefined && r.voted_at !== null) {
    const ms =
      typeof r.voted_at === 'string' && ISO_TIME.test(r.voted_at) ? Date.parse(r.voted_at) : NaN;
    if (!Number.isFinite(ms)) {
      return tc(locale, 'cli.import.battles.votedAtType', {
        value: jsonValueText(locale, r.voted_at),
      });
    }
    field = 'voted_at';
    t = ms / 1000;
  } else {
    return undefined;
  }
  const latest = now.getTime() / 1000 + FUTURE_SLACK;
  if (t >= EARLIEST_VOTE && t <= latest) return t;
  const when = Math.abs(t) < 8.64e12 ? new Date(t * 1000).toISOString() : '—';
  return tc(locale, 'cli.import.battles.timeRange', {
    field,
    value: field === 'tstamp' ? String(t) : String(r.voted_at),
    when,
    latest: new Date(latest * 1000).toISOString(),
  });
}

/**
 * The import key of each row (see {@link storeBattles}): `line:content hash`, the hash the first 12 hex digits of
 * the SHA-256 of `model_a NUL model_b NUL winner`. A file has far fewer distinct contents than lines (the 200,000
 * public votes: about 27,000), so each content is hashed once; they are looked up by their three strings in turn
 * (no string is built per line but the key itself).
 */
function importKeys(): (r: BattleRow) => string {
  const byA = new Map<string, Map<string, Map<string, string>>>();
  const inner = <V>(m: Map<string, Map<string, V>>, k: string): Map<string, V> => {
    const found = m.get(k);
    if (found !== undefined) return found;
    const made = new Map<string, V>();
    m.set(k, made);
    return made;
  };
  return (r) => {
    const byWinner = inner(inner(byA, r.a), r.b);
    let h = byWinner.get(r.winner);
    if (h === undefined) {
      h = hash('sha256', `${r.a}\u0000${r.b}\u0000${r.winner}`, 'hex').slice(0, 12);
      byWinner.set(r.winner, h);
    }
    return `${r.line}:${h}`;
  };
}

/**
 * A battle line of a file as storage/battles `insertImportedBattles` takes it. Its import key is worked out when it
 * is read, not when the battle is made: the storage reads the keys of each chunk of rows while the database writes
 * the previous chunk (storage/battles `stageInChunks`), so this work overlaps the database's instead of preceding
 * it.
 */
class FileBattle implements ImportedBattle {
  constructor(
    private readonly row: BattleRow,
    readonly leftModelId: number,
    readonly rightModelId: number,
    private readonly keyOf: (r: BattleRow) => string,
  ) {}
  get importKey(): string {
    return this.keyOf(this.row);
  }
  get choice(): VoteChoice {
    return WINNER_TO_CHOICE[this.row.winner] as VoteChoice;
  }
  get named(): boolean {
    return this.row.named === true;
  }
  get votedAt(): number | undefined {
    return this.row.tstamp;
  }
}

/**
 * Refuses an import into a source whose stored battles have another ability (or none, or one when `ability` is
 * null): its lines already stored would be skipped as present and keep their ability, so the import would change
 * nothing while the command asked for another ability.
 * @throws AppError `import_invalid` naming the source, its stored ability and the fix.
 */
async function refuseOtherAbility(
  db: Kysely<Database>,
  source: string,
  ability: string | null,
  locale: Locale = 'en',
): Promise<void> {
  const stored = await importedAbilitiesOfSource(db, source);
  const other = stored.find((s) => s.ability !== ability);
  if (other === undefined) return;
  const abilityText = (a: string | null) =>
    a === null
      ? tc(locale, 'cli.battles.noAbility')
      : tc(locale, 'cli.battles.ofAbility', { ability: displayName('ability', a, locale) });
  throw new AppError(
    'import_invalid',
    tc(locale, 'cli.battles.abilityDiffers', {
      source,
      n: other.battles,
      stored: abilityText(other.ability),
      given: abilityText(ability),
      flag:
        other.ability === null
          ? tc(locale, 'cli.battles.withoutFlag')
          : `--ability ${other.ability}`,
    }),
  );
}

/** Stores checked battle rows in one transaction (see {@link importBattles}). */
async function storeBattles(
  db: Kysely<Database>,
  source: string,
  rows: readonly BattleRow[],
  opts: ImportBattlesOptions,
): Promise<Omit<ImportBattlesResult, 'duplicates'>> {
  const file = opts.parsed?.file ?? opts.file;
  const at = opts.at ?? new Date();
  const keyOf = importKeys();
  opts.signal?.throwIfAborted();
  const result = await db.transaction().execute(async (trx) => {
    // Keys are "line:content hash": re-running the same file adds nothing, appending lines adds just those,
    // and a different file under the same source is refused instead of being skipped as "already present".
    const existing = new Map<number, string>();
    for (const k of await importKeysOfSource(trx, source))
      existing.set(Number(k.slice(0, k.indexOf(':'))), k);
    if (existing.size > 0) await refuseOtherAbility(trx, source, opts.ability ?? null, opts.locale);
    const clash = rows.find((r) => {
      const k = existing.get(r.line);
      return k !== undefined && k !== keyOf(r);
    });
    if (clash) {
      throw new AppError(
        'import_invalid',
        tc(opts.locale ?? 'en', 'cli.battles.otherFile', { at: `${file}:${clash.line}`, source }),
      );
    }
    const names = new Set<string>();
    for (const r of rows) {
      names.add(r.a);
      names.add(r.b);
    }
    const ids = await ensureModels(trx, [...names], 'external');
    // Rows already stored are left out before inserting, so re-runs do not use up battle ids.
    const fresh = existing.size === 0 ? rows : rows.filter((r) => !existing.has(r.line));
    const battles = fresh.map(
      (r) => new FileBattle(r, ids.get(r.a) as number, ids.get(r.b) as number, keyOf),
    );
    opts.signal?.throwIfAborted();
    const added = await insertImportedBattles(trx, source, opts.ability ?? null, battles, at, {
      exclusive: opts.exclusiveDb === true,
      ...(opts.signal ? { signal: opts.signal } : {}),
    }); // (no abort check after this: insertImportedBattles ends by moving the id sequence, which no rollback undoes)
    return { source, rows: rows.length, added, skipped: rows.length - added, models: names.size };
  });
  if (result.added > 0) await analyzeVoteTables(db, { scope: 'import' });
  return result;
}
