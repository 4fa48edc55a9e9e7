/**
 * @module eval/datasets/decode
 * Dataset files must be UTF-8: a file that is not is refused naming the file, line and byte offset of the first
 * bad byte (core/utf8.ts, the product's one decoding helper), never read with replacement characters.
 */
import { decodeUtf8 as decodeStrict } from '../../core/utf8.ts';

/**
 * Decodes a dataset file as UTF-8 (a leading byte-order mark is dropped).
 * @param bytes the file's bytes.
 * @param file the name to show in errors.
 * @throws AppError `dataset_invalid`: `file:LINE: not UTF-8 text: byte offset N …`.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  return decodeStrict(bytes, { name: file, code: 'dataset_invalid' });
}
