/**
 * @module core/utf8
 * The one place where the product turns the bytes of a file it reads (config, suites, imports, datasets, battles)
 * into text. Every file must be UTF-8: text in another encoding (Latin-1, GBK, UTF-16) is refused with
 * `file:line: …` naming the line and the byte offset of the first byte that is not UTF-8, instead of being
 * silently turned into U+FFFD replacement characters ("Caf� cr�me"), which is what Node's `'utf8'` encoding does.
 *
 * Decoding uses `new TextDecoder('utf-8', { fatal: true })` (WHATWG Encoding: the same rules as browsers, so
 * overlong forms, surrogates and code points above U+10FFFF are refused too). The decoder does not say where it
 * stopped, so on failure {@link firstInvalidUtf8} finds the offset with the same rules. A leading UTF-8 byte-order
 * mark is dropped (Windows editors add one). A character cut short at the end of the file or of a line (an
 * interrupted download or copy) is refused as such, asking for a complete copy instead of a conversion.
 *
 * Use {@link readUtf8File} / {@link readUtf8FileSync} for whole files and {@link readUtf8Lines} to stream a large
 * file line by line; {@link decodeUtf8} is the pure core for bytes already in memory.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { said, saidError } from '../i18n/cli.ts';
import { causeSaid } from '../i18n/error-cause.ts';
import { AppError, type ErrorCode } from './errors.ts';

/** Options of the readers and {@link decodeUtf8}. */
export interface Utf8Options {
  /** The name shown in errors (default: the path). */
  readonly name?: string;
  /** The error code of a refusal (default `import_invalid`; the config loader passes `config_invalid`). */
  readonly code?: ErrorCode;
}

/**
 * What a lead byte `b` needs: the number of continuation bytes and the range of the first one (the WHATWG Encoding
 * Standard's UTF-8 decoder, §8.1.1: narrower after 0xE0, 0xED, 0xF0 and 0xF4), or undefined when `b` cannot start
 * a multi-byte character.
 */
function leadOf(b: number): { need: number; lo: number; hi: number } | undefined {
  if (b >= 0xc2 && b <= 0xdf) return { need: 1, lo: 0x80, hi: 0xbf };
  if (b >= 0xe0 && b <= 0xef)
    return { need: 2, lo: b === 0xe0 ? 0xa0 : 0x80, hi: b === 0xed ? 0x9f : 0xbf };
  if (b >= 0xf0 && b <= 0xf4)
    return { need: 3, lo: b === 0xf0 ? 0x90 : 0x80, hi: b === 0xf4 ? 0x8f : 0xbf };
  return undefined;
}

/** How many valid continuation bytes follow the lead byte at `at` (up to the number it needs). */
function continuations(
  bytes: Uint8Array,
  at: number,
  lead: { need: number; lo: number; hi: number },
): number {
  let k = 0;
  while (k < lead.need) {
    const c = bytes[at + 1 + k];
    if (c === undefined || c < (k === 0 ? lead.lo : 0x80) || c > (k === 0 ? lead.hi : 0xbf)) break;
    k++;
  }
  return k;
}

/**
 * Offset of the first byte where `bytes` stops being well-formed UTF-8 (the lead byte of the bad or truncated
 * sequence), or -1 when all of it is valid. Same rules as the WHATWG UTF-8 decoder.
 * @param from where to start (must be the start of a character).
 */
export function firstInvalidUtf8(bytes: Uint8Array, from = 0): number {
  const n = bytes.length;
  let i = from;
  while (i < n) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    const lead = leadOf(b);
    if (lead === undefined || continuations(bytes, i, lead) < lead.need) return i;
    i += lead.need + 1;
  }
  return -1;
}

/**
 * Whether the bad sequence at `at` is a UTF-8 character cut short, and where: a lead byte followed by fewer
 * continuation bytes than it needs (RFC 3629 §3), then the end of the file (`'file'`, also when only a last line
 * end follows) or a line end with more after it (`'line'`); undefined otherwise (another encoding). A lone lead
 * byte before a line end is also how Latin-1 ends a line in `é`, and a lead byte and a continuation byte is a
 * GBK character too, so those count only when the text before holds a multi-byte UTF-8 character (`utf8Before`);
 * a lead byte with its continuation bytes cut at the very end of the file counts without it.
 * @param bytes the file, or the chunks of it in memory (`atEnd`: whether they reach the end of the file).
 * @returns the kind and the end (exclusive) of the incomplete character, to show its bytes.
 */
function cutShortAt(
  bytes: Uint8Array,
  at: number,
  atEnd: boolean,
  utf8Before: boolean,
): { where: 'file' | 'line'; end: number } | undefined {
  const lead = leadOf(bytes[at] as number);
  if (lead === undefined) return undefined;
  const k = continuations(bytes, at, lead);
  const end = at + 1 + k;
  if (k >= lead.need) return undefined;
  if (end === bytes.length)
    return atEnd && (k > 0 || utf8Before) ? { where: 'file', end } : undefined;
  const nl =
    bytes[end] === 0x0a ? end : bytes[end] === 0x0d && bytes[end + 1] === 0x0a ? end + 1 : -1;
  if (nl < 0 || !utf8Before) return undefined;
  return { where: atEnd && nl + 1 === bytes.length ? 'file' : 'line', end };
}

/** Whether `bytes` before `end` hold a byte of a multi-byte character (they are valid UTF-8 up to there). */
function hasMultibyte(bytes: Uint8Array, end: number): boolean {
  for (let i = 0; i < end; i++) if ((bytes[i] as number) >= 0x80) return true;
  return false;
}

function countNewlines(bytes: Uint8Array, end: number): number {
  let lines = 0;
  for (let i = 0; i < end; i++) if (bytes[i] === 0x0a) lines++;
  return lines;
}

function hex(bytes: Uint8Array, at: number, end = at + 4): string {
  return Array.from(bytes.subarray(at, Math.min(end, bytes.length)))
    .map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`)
    .join(' ');
}

/**
 * The UTF-16 or UTF-32 encoding a file's first bytes show, or undefined. A byte-order mark names it (UTF-32 is
 * checked first: its little-endian mark starts with UTF-16LE's); without one, text that is mostly ASCII in UTF-16
 * has a NUL in every other byte: in the first (up to) 64 bytes, NULs in at least half of the odd bytes and in at
 * most an eighth as many even ones is UTF-16LE, the reverse UTF-16BE (the Unicode Standard, §3.10 "Unicode Encoding Schemes"). Such a file is text in another Unicode
 * encoding, not a binary file, and is converted with `iconv -f <encoding>`.
 * @param bytes the first bytes of the file (at least 2 for a mark, 16 for the NUL pattern).
 */
export function unicodeEncodingOf(bytes: Uint8Array): string | undefined {
  const [b0, b1, b2, b3] = bytes;
  if (b0 === 0xff && b1 === 0xfe && b2 === 0 && b3 === 0) return 'UTF-32LE';
  if (b0 === 0 && b1 === 0 && b2 === 0xfe && b3 === 0xff) return 'UTF-32BE';
  if (b0 === 0xff && b1 === 0xfe) return 'UTF-16LE';
  if (b0 === 0xfe && b1 === 0xff) return 'UTF-16BE';
  const n = Math.min(bytes.length, 64) & ~1;
  if (n < 16) return undefined; // too little to tell from a short binary file
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i++) if (bytes[i] === 0) i % 2 === 0 ? evenNul++ : oddNul++;
  // At least half of the code units ASCII (a NUL high byte), and few NULs in the other half: a character whose
  // low byte is 0 (一 U+4E00, 倀 U+5000 …) puts one there.
  if (oddNul >= n / 4 && evenNul * 8 <= oddNul) return 'UTF-16LE';
  if (evenNul >= n / 4 && oddNul * 8 <= evenNul) return 'UTF-16BE';
  return undefined;
}

/**
 * The refusal of a whole file in UTF-16 or UTF-32 (see {@link unicodeEncodingOf}), as catalogue data (the command
 * line says it in its language, i18n/cli.ts saidError).
 */
function otherUnicode(name: string, encoding: string, shown: string, code: ErrorCode): AppError {
  return saidError(code, said('cli.file.otherUnicode', { name, encoding, shown }));
}

/**
 * Whether the bytes from `offset` read as Chinese text in GB18030 (which includes GBK and GB2312, the usual
 * encodings of Chinese files that are not UTF-8): up to 32 bytes decode without error and give a Han character.
 * Only picks the example of the refusal; Latin-1 text (`é` = 0xE9 then a space) fails it.
 */
function looksGb18030(bytes: Uint8Array, offset: number): boolean {
  const end = Math.min(bytes.length, offset + 32);
  // The window may end inside a character: try the last few cut points.
  for (let cut = end; cut > offset && cut > end - 4; cut--) {
    try {
      const text = new TextDecoder('gb18030', { fatal: true }).decode(bytes.subarray(offset, cut));
      return /\p{Script=Han}/u.test(text);
    } catch {
      // try a shorter window
    }
  }
  return false;
}

/**
 * The refusal for a file that is not UTF-8 at `offset` (0-based from the start of the file) on `line`; the bad
 * bytes are `bytes` from `at` (the file, or the chunks in memory). A character cut short at the end of the file
 * or of a line (see {@link cutShortAt}) asks for a complete copy, not a conversion.
 * @param tail whether `bytes` reach the end of the file, and whether the text before `at` (also before `bytes`)
 *   holds a multi-byte UTF-8 character.
 */
function notUtf8(
  name: string,
  line: number,
  offset: number,
  column: number,
  bytes: Uint8Array,
  at: number,
  code: ErrorCode,
  tail: { atEnd: boolean; utf8Before: boolean },
): AppError {
  const where = { name, line: String(line), offset: String(offset), column: String(column) };
  const cut = cutShortAt(bytes, at, tail.atEnd, tail.utf8Before || hasMultibyte(bytes, at));
  if (cut !== undefined) {
    const key = cut.where === 'file' ? 'cli.file.cutShort' : 'cli.file.lineCutShort';
    return saidError(code, said(key, { ...where, shown: hex(bytes, at, cut.end) }));
  }
  // The example converts from the encoding the bytes (`bytes` from `at`) look like: GB18030 (GBK) for Chinese,
  // else Latin-1.
  const example = said(looksGb18030(bytes, at) ? 'cli.file.gbkExample' : 'cli.file.latinExample', {
    name,
  });
  return saidError(code, said('cli.file.notUtf8', { ...where, shown: hex(bytes, at), example }));
}

/** The refusal of a binary file: the first NUL byte is at `offset` (0-based), on `line`. */
function notText(name: string, line: number, offset: number, code: ErrorCode): AppError {
  return saidError(
    code,
    said('cli.file.notText', { name, line: String(line), offset: String(offset) }),
  );
}

/** The error for `bytes` (a whole file or its first part) failing at `offset`. */
function errorAt(bytes: Uint8Array, offset: number, name: string, code: ErrorCode): AppError {
  const unicode = unicodeEncodingOf(bytes);
  if (unicode) return otherUnicode(name, unicode, hex(bytes, 0), code);
  // A NUL byte before the bad sequence means a binary file (an archive, an image, a database): say that, it is
  // the more useful fix than an encoding conversion.
  const nul = bytes.indexOf(0);
  if (nul >= 0 && nul < offset) return notText(name, countNewlines(bytes, nul) + 1, nul, code);
  const line = countNewlines(bytes, offset) + 1;
  const lineStart = offset > 0 ? bytes.lastIndexOf(0x0a, offset - 1) + 1 : 0;
  return notUtf8(name, line, offset, offset - lineStart + 1, bytes, offset, code, {
    atEnd: true,
    utf8Before: false,
  });
}

const utf8 = () => new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes a whole file's bytes as UTF-8 (a leading byte-order mark is dropped).
 * @throws AppError (`opts.code`, default `import_invalid`) `name:LINE: not UTF-8 text: byte offset N …` at the
 *   first byte that is not UTF-8 (`name:1: … the file is UTF-16LE text` for UTF-16 or UTF-32, with or without a
 *   byte-order mark; the example conversion is from GB18030 when the bytes read as Chinese there; `… an incomplete
 *   UTF-8 character: the file ends in the middle of a UTF-8 character …` for a file cut short), or
 *   `name:LINE: not a text file (… the first NUL at byte offset N)` for a binary
 *   file (one that holds a NUL byte).
 */
export function decodeUtf8(bytes: Uint8Array, opts: Utf8Options & { name: string }): string {
  let text: string;
  try {
    text = utf8().decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    throw errorAt(bytes, Math.max(at, 0), opts.name, opts.code ?? 'import_invalid');
  }
  // NUL is valid UTF-8 but no text file the product reads (JSON, JSONL, YAML) holds one: UTF-16 text without a
  // byte-order mark, or a binary file.
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const unicode = unicodeEncodingOf(bytes);
    if (unicode)
      throw otherUnicode(opts.name, unicode, hex(bytes, 0), opts.code ?? 'import_invalid');
    throw notText(opts.name, countNewlines(bytes, nul) + 1, nul, opts.code ?? 'import_invalid');
  }
  return text;
}

/**
 * The refusal of an input file that cannot be opened: `NAME: cannot read (reason); fix`, the one wording of every
 * file the product reads. A missing file, a folder, or a path through a file (ENOTDIR: e.g. ZHUJIU_DATASETS_DIR
 * naming a file) asks to check the path; no permission asks to check the
 * file's permissions.
 * @param code the error code of the refusal, e.g. `import_invalid`.
 * @param err the error of the failed open, stat or read (its errno `code` picks the reason).
 */
export function cannotRead(name: string, code: ErrorCode, err: unknown): AppError {
  const c = (err as NodeJS.ErrnoException).code;
  if (c === 'EACCES' || c === 'EPERM')
    return saidError(code, said('cli.file.noPermission', { name, code: c }), { cause: err });
  const why =
    c === 'ENOENT'
      ? said('cli.file.noSuchFile')
      : c === 'EISDIR'
        ? said('cli.file.isFolder')
        : c === 'ENOTDIR'
          ? said('cli.file.fileInPath')
          : causeSaid(c ?? (err as Error).message);
  return saidError(code, said('cli.file.cannotRead', { name, why }), { cause: err });
}

/**
 * Reads a whole UTF-8 text file.
 * @throws AppError (`opts.code`) when the file cannot be read (naming it) or is not UTF-8 (see {@link decodeUtf8}).
 */
export async function readUtf8File(path: string, opts: Utf8Options = {}): Promise<string> {
  const name = opts.name ?? path;
  const code = opts.code ?? 'import_invalid';
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (err) {
    throw cannotRead(name, code, err);
  }
  return decodeUtf8(bytes, { name, code });
}

/** Synchronous {@link readUtf8File} (the config loader runs before anything else). */
export function readUtf8FileSync(path: string, opts: Utf8Options = {}): string {
  const name = opts.name ?? path;
  const code = opts.code ?? 'import_invalid';
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    throw cannotRead(name, code, err);
  }
  return decodeUtf8(bytes, { name, code });
}

/** Where {@link readUtf8Lines} stands: the state as of the start of `previous`, the last chunk decoded. */
interface StreamState {
  /** The absolute byte offset of `previous`. */
  readonly before: number;
  /** The newlines before `previous`. */
  readonly newlinesBefore: number;
  /** Where the line holding the first byte of `previous` starts. */
  readonly lineStartBefore: number;
  readonly previous: Uint8Array;
}

/**
 * The refusal of a streamed file whose chunk `current` (empty at the end of the file) failed to decode after
 * `state.previous`, naming the line and byte exactly (see {@link notUtf8} for `tail`).
 */
function streamError(
  name: string,
  code: ErrorCode,
  state: StreamState,
  current: Uint8Array,
  tail: { atEnd: boolean; utf8Before: boolean },
): AppError {
  const { before, newlinesBefore, lineStartBefore, previous } = state;
  // The decoder may hold the start of a character from the previous chunk: validate both chunks together,
  // starting at the first character that begins in the previous one.
  const both = new Uint8Array(previous.length + current.length);
  both.set(previous, 0);
  both.set(current, previous.length);
  let start = 0;
  while (start < Math.min(3, both.length) && ((both[start] as number) & 0xc0) === 0x80) start++;
  let at = firstInvalidUtf8(both, start);
  if (at < 0) at = both.length;
  const offset = before + at;
  const line = newlinesBefore + countNewlines(both, at) + 1;
  const nl = at > 0 ? both.lastIndexOf(0x0a, at - 1) : -1;
  const lineStart = nl >= 0 ? before + nl + 1 : lineStartBefore;
  return notUtf8(name, line, offset, offset - lineStart + 1, both, at, code, tail);
}

/**
 * Streams a UTF-8 text file line by line (`\n` or `\r\n` line ends; the last line may lack one), in bounded
 * memory. Lines are yielded as they are decoded, so a caller must not write anything before the iteration ends
 * (a bad byte late in the file throws then).
 * @throws AppError (`opts.code`) when the file cannot be read, or `name:LINE: not UTF-8 text: byte offset N …`.
 */
export async function* readUtf8Lines(
  path: string,
  opts: Utf8Options = {},
): AsyncGenerator<string, void, undefined> {
  const name = opts.name ?? path;
  const code = opts.code ?? 'import_invalid';
  const decoder = utf8();
  const stream = createReadStream(path);
  // State as of the start of `previous` (the last chunk decoded): its absolute byte offset, the newlines before
  // it and where the line containing its first byte starts, so an error can name the line and byte exactly.
  let before = 0;
  let newlinesBefore = 0;
  let lineStartBefore = 0;
  let previous: Uint8Array = new Uint8Array(0);
  let pending = '';
  // Whether the text decoded so far holds a multi-byte character (see cutShortAt).
  let utf8Before = false;
  const fail = (current: Uint8Array, atEnd: boolean): AppError =>
    streamError(name, code, { before, newlinesBefore, lineStartBefore, previous }, current, {
      atEnd,
      utf8Before,
    });
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // UTF-16 or UTF-32 text: named from the first chunk, before its NUL bytes make it look binary.
      const unicode = before === 0 && previous.length === 0 ? unicodeEncodingOf(chunk) : undefined;
      if (unicode) throw otherUnicode(name, unicode, hex(chunk, 0), code);
      // A NUL byte: a binary file (NUL is valid UTF-8, so the decoder lets it through).
      const nul = chunk.indexOf(0);
      if (nul >= 0) {
        const line =
          newlinesBefore + countNewlines(previous, previous.length) + countNewlines(chunk, nul) + 1;
        throw notText(name, line, before + previous.length + nul, code);
      }
      let text: string;
      try {
        text = decoder.decode(chunk, { stream: true });
      } catch {
        // Whether this chunk is the file's last, so a character cut short before a last line end is named as
        // the end of the file, as decodeUtf8 names it.
        const size = await stat(path).then(
          (s) => s.size,
          () => -1,
        );
        throw fail(chunk, size === before + previous.length + chunk.length);
      }
      newlinesBefore += countNewlines(previous, previous.length);
      const lastNl = previous.lastIndexOf(0x0a);
      if (lastNl >= 0) lineStartBefore = before + lastNl + 1;
      before += previous.length;
      previous = chunk;
      pending += text;
      utf8Before ||= /[^\0-\x7f]/.test(text);
      if (!text.includes('\n')) continue;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) yield line.endsWith('\r') ? line.slice(0, -1) : line;
    }
    try {
      pending += decoder.decode();
    } catch {
      throw fail(new Uint8Array(0), true);
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw cannotRead(name, code, err);
  } finally {
    stream.destroy();
  }
  if (pending !== '') yield pending.endsWith('\r') ? pending.slice(0, -1) : pending;
}
