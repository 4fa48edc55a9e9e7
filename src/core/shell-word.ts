/**
 * @module core/shell-word
 * A value as one word of a POSIX shell command line, for the commands the product suggests in its messages
 * ("run `npx zhujiu eval --model 'GPT 3.5 Turbo (16k)' …`"), so that a suggested command can be pasted as it is.
 */

/**
 * `s` as one shell word: as it is when it holds only characters no POSIX shell treats specially (letters, digits
 * and `_ . / : @ % + = , -`), else in single quotes, each `'` written `'\''` (POSIX, "Shell Command Language",
 * §2.2.2 Single-Quotes). The empty string is `''`.
 */
export function shellWord(s: string): string {
  if (/^[A-Za-z0-9_./:@%+=,-]+$/u.test(s)) return s;
  return `'${s.replaceAll("'", "'\\''")}'`;
}
