/**
 * A doc comment in src/ belongs to the declaration right after it (docs/architecture.md, "Rules, and what enforces
 * them"): a doc comment followed by another one is orphaned, the declaration it was written for has none (it
 * happens when code is inserted between a doc comment and its declaration).
 *
 * Comments cite docs/ or papers, never an issue or pull-request number (the same section).
 *
 * {@link ORPHANED} lists the files that had such a comment when this check came in; it only shrinks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/** Temporary: files with an orphaned doc comment when the check came in. Never add to it. */
const ORPHANED: readonly string[] = ['src/bot/service.ts', 'src/eval/runner.ts'];

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return tsFiles(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** `file:line` of every doc comment directly followed (on the next line) by another doc comment. */
function orphanedDocComments(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim().startsWith('/**')) continue;
    let end = i;
    while (end < lines.length && !lines[end]!.includes('*/')) end++;
    const next = lines[end + 1]?.trim() ?? '';
    if (next.startsWith('/**')) out.push(`${relative(PROJECT_ROOT, file)}:${i + 1}`);
    i = end;
  }
  return out;
}

describe('comments', () => {
  it('no doc comment in src/ is followed by another one (each documents the declaration after it)', () => {
    const found = tsFiles(join(PROJECT_ROOT, 'src')).flatMap(orphanedDocComments);
    const fresh = found.filter((f) => !ORPHANED.some((o) => f.startsWith(`${o}:`)));
    expect(fresh).toEqual([]);
    const fixed = ORPHANED.filter((o) => !found.some((f) => f.startsWith(`${o}:`)));
    expect(fixed, 'fixed: remove these from ORPHANED').toEqual([]);
  });

  it('no comment in src/ cites an issue or pull-request number', () => {
    const cites = /\b(issues?|pull requests?|PRs?)\s+#?\d+/iu;
    const found = tsFiles(join(PROJECT_ROOT, 'src')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) =>
          /^\s*(\/\/|\/?\*)/u.test(line) && cites.test(line)
            ? [`${relative(PROJECT_ROOT, file)}:${i + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });
});
