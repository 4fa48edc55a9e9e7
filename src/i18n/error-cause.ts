/**
 * @module i18n/error-cause
 * The cause of a failure as the system or a client library words it (an errno code such as `EACCES` or
 * `ECONNREFUSED`, a driver's `connect ECONNREFUSED 127.0.0.1:5432`, the openai client's `Connection error.`) said in
 * a sentence of the reader's language (docs/architecture.md "Languages"): in English as it is; in Chinese the
 * catalogue's phrase of a known cause (`cli.cause.*`: 没有权限, 连接被拒绝 …) with the code or the text after it
 * (`没有权限，EACCES`), any other text as it is.
 */
import type { SaidTexts } from '../core/errors.ts';
import { type CliMessageKey, tc } from './cli.ts';
import type { Locale } from './index.ts';

/** The phrase of each errno code (Node's `err.code`), by code. */
const CODES: Readonly<Record<string, CliMessageKey>> = {
  ECONNREFUSED: 'cli.cause.refused',
  ECONNRESET: 'cli.cause.reset',
  ECONNABORTED: 'cli.cause.reset',
  EPIPE: 'cli.cause.reset',
  ENOTFOUND: 'cli.cause.hostNotFound',
  EAI_AGAIN: 'cli.cause.dnsAgain',
  ETIMEDOUT: 'cli.cause.timedOut',
  EHOSTUNREACH: 'cli.cause.hostUnreachable',
  ENETUNREACH: 'cli.cause.netUnreachable',
  EADDRINUSE: 'cli.cause.addressInUse',
  EADDRNOTAVAIL: 'cli.cause.addressNotAvailable',
  EACCES: 'cli.cause.noPermission',
  EPERM: 'cli.cause.noPermission',
  ENOENT: 'cli.cause.noSuchFile',
  EROFS: 'cli.cause.readOnly',
  ENOSPC: 'cli.cause.diskFull',
  EDQUOT: 'cli.cause.diskFull',
  EISDIR: 'cli.cause.isFolder',
  ENOTDIR: 'cli.cause.fileInPath',
  EEXIST: 'cli.cause.exists',
  EMFILE: 'cli.cause.tooManyFiles',
  ENFILE: 'cli.cause.tooManyFiles',
  EBUSY: 'cli.cause.busy',
  ENOTEMPTY: 'cli.cause.notEmpty',
  ELOOP: 'cli.cause.linkLoop',
  ENAMETOOLONG: 'cli.cause.nameTooLong',
  EIO: 'cli.cause.io',
};

/** The phrase of each whole message of a client library (openai, fetch, node:http), by message without its final period. */
const MESSAGES: Readonly<Record<string, CliMessageKey>> = {
  'Connection error': 'cli.cause.connection',
  'fetch failed': 'cli.cause.connection',
  'Request timed out': 'cli.cause.timedOut',
  'Request was aborted': 'cli.cause.aborted',
  'This operation was aborted': 'cli.cause.aborted',
  'The operation was aborted due to timeout': 'cli.cause.timedOut',
  'socket hang up': 'cli.cause.reset',
};

/** An errno code inside a longer text (`connect ECONNREFUSED 127.0.0.1:5432`, `getaddrinfo ENOTFOUND db`). */
const CODE_IN_TEXT = /\b(E[A-Z]{3,}(?:_[A-Z]+)?)\b/u;

/**
 * `detail` (an errno code, a client's message, or a longer text holding a code) in `locale`: as it is in English;
 * in Chinese the catalogue's phrase of its cause, then the code or the text (`没有权限，EACCES`, `连接被拒绝，connect
 * ECONNREFUSED 127.0.0.1:5432`, `连接出错`); a text of no known cause as it is.
 */
export function causeText(locale: Locale, detail: string): string {
  return locale === 'en' ? detail : explained(locale, detail);
}

/** `detail` with the catalogue's phrase of its cause in `locale`, English included (see {@link causeText}). */
function explained(locale: Locale, detail: string): string {
  const text = detail.trim();
  const message = MESSAGES[text.replace(/\.$/u, '')];
  if (message !== undefined) return tc(locale, message);
  const exact = CODES[text];
  if (exact !== undefined)
    return tc(locale, 'cli.cause.with', { phrase: tc(locale, exact), detail: text });
  const inside = CODE_IN_TEXT.exec(text)?.[1];
  const key = inside === undefined ? undefined : CODES[inside];
  return key === undefined
    ? detail
    : tc(locale, 'cli.cause.with', { phrase: tc(locale, key), detail: text });
}

/** {@link causeText} in each language, as a message parameter of a Said (a refusal built before its reader is known). */
export function causeSaid(detail: string): SaidTexts {
  return { texts: { en: detail, 'zh-CN': causeText('zh-CN', detail) } };
}

/**
 * `detail` (an errno code, or a text holding one) explained in each language, English too (`no permission
 * (EACCES)`, `没有权限，EACCES`): for refusals where the code is the whole reason given, such as the data folder's
 * (storage/data-folder.ts), a bare `EACCES` helps no one. A text of no known cause stays as it is.
 */
export function causeExplained(detail: string): SaidTexts {
  return { texts: { en: explained('en', detail), 'zh-CN': explained('zh-CN', detail) } };
}
