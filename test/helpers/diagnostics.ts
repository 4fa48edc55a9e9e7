/**
 * Tests stay quiet unless they fail: lines a test wants a reader to see (figures, transcripts) are collected and
 * printed to stderr only when the current test fails.
 */
import { onTestFailed } from 'vitest';

/** Call inside a test (or a hook of it): returns `note(line)`, whose lines print only if the test fails. */
export function diagnostics(title: string): (line: string) => void {
  const lines: string[] = [];
  onTestFailed(() => {
    process.stderr.write(`--- ${title} ---\n${lines.join('\n')}\n`);
  });
  return (line) => {
    lines.push(line);
  };
}
