/**
 * @module import/folder-hint
 * What the recorded files in a folder are, by their contents (never by their names or extensions), each kind with
 * the command that imports it: the hint for a folder given to an importer or a `--format` that cannot read it.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isCliKey, listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import {
  importCommandFor,
  RECORDED_KIND_WORDS,
  type RecordedFileKind,
  recordedFileKind,
} from './formats/file-kind.ts';

/** Files looked at (the first ones by name): a hint, not a scan of a large folder. */
const MAX_FILES = 20;

/**
 * One phrase per kind of recorded file in `dir` (its `*.json` / `*.jsonl` files, the first {@link MAX_FILES} by
 * name), e.g. ``1 AlpacaEval model outputs (not judgments) (model_outputs.json): `zhujiu import outputs
 * DIR/model_outputs.json --model NAME` ``, in `locale` (default English); kinds in `skip` and files of no known
 * kind are left out. Unreadable files count as of no known kind.
 */
export async function folderKindHints(
  dir: string,
  skip: readonly RecordedFileKind[] = [],
  locale: Locale = 'en',
): Promise<string[]> {
  const names = (await readdir(dir).catch(() => [] as string[]))
    .filter((n) => n.endsWith('.json') || n.endsWith('.jsonl'))
    .sort()
    .slice(0, MAX_FILES);
  const kinds = new Map<RecordedFileKind, string[]>();
  for (const n of names) {
    const k = recordedFileKind(await readFile(join(dir, n), 'utf8').catch(() => ''));
    if (k === 'unknown' || skip.includes(k)) continue;
    kinds.set(k, [...(kinds.get(k) ?? []), n]);
  }
  return [...kinds].map(([k, files]) => {
    const cmd = importCommandFor(k, join(dir, files[0]!), dir);
    const shown = files.slice(0, 2);
    if (files.length > 2) shown.push('…');
    return tc(locale, 'cli.folderHint.kind', {
      n: files.length,
      words: recordedKindWords(k, locale),
      files: listText(locale, shown),
      cmd: cmd ?? '',
    });
  });
}

/** What files of `kind` are, in words, in `locale` (`RECORDED_KIND_WORDS` for English). */
export function recordedKindWords(kind: RecordedFileKind, locale: Locale = 'en'): string {
  const key = `cli.fileKind.${kind}`;
  const shape = kind === 'labels' ? '{item, label}' : '{item, prompt, output}';
  return locale !== 'en' && isCliKey(key) ? tc(locale, key, { shape }) : RECORDED_KIND_WORDS[kind];
}
