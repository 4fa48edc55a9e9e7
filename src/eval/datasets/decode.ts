/**
 * @module eval/datasets/decode
 * Dataset files must be UTF-8. A file that is not is refused with the file, line and byte offset of the first bad
 * byte (and how to convert it), never read with replacement characters.
 */
import { AppError } from '../../core/errors.ts';

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Offset of the first byte that is not part of a valid UTF-8 sequence, or -1. */
function firstInvalid(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    let n = 0;
    let min = 0;
    if (b < 0x80) {
      i++;
      continue;
    }
    if (b >= 0xc2 && b <= 0xdf) {
      n = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      n = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      n = 3;
      min = 0x10000;
    } else return i;
    let cp = b & (0x3f >> n);
    for (let k = 1; k <= n; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += n + 1;
  }
  return -1;
}

/**
 * Decodes a dataset file as UTF-8 (a leading byte-order mark is dropped).
 * @param bytes the file's bytes.
 * @param file the name to show in errors.
 * @throws AppError `dataset_invalid` naming the file, line and byte offset of the first invalid byte.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return strict.decode(bytes);
  } catch {
    const at = Math.max(0, firstInvalid(bytes));
    let line = 1;
    for (let i = 0; i < at; i++) if (bytes[i] === 10) line++;
    throw new AppError(
      'dataset_invalid',
      `${file}:${line}: not UTF-8 (invalid byte 0x${(bytes[at] ?? 0).toString(16).padStart(2, '0')} at byte offset ${at}); ` +
        'convert the file to UTF-8, e.g. `iconv -f GB18030 -t UTF-8 FILE > FILE.utf8`',
    );
  }
}
