/**
 * @module core/folder-state
 * What is at a path that should be a folder (ZHUJIU_DATASETS_DIR, ZHUJIU_CONFIG_DIR, the folder of an `--out`
 * file), so that a refusal says why it is not one: it does not exist, it is a file, or it lies under a file (a
 * level above it is a regular file: the system's ENOTDIR, e.g. `/etc/hostname/x`), which "does not exist" would
 * misname.
 */
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** What {@link folderState} found at a path. */
export type FolderState =
  | { readonly kind: 'folder' }
  | { readonly kind: 'missing' }
  /** The path itself is a file (or another non-folder). */
  | { readonly kind: 'file' }
  /** A level above the path is a file (`file`, absolute): nothing can be created under it (ENOTDIR). */
  | { readonly kind: 'underFile'; readonly file: string }
  /** The path cannot be looked at (EACCES, ELOOP, …: `code`); its readers say why. */
  | { readonly kind: 'unreadable'; readonly code: string };

/** The nearest level above `path` that exists, if it is not a folder (ENOTDIR's cause), else undefined. */
function fileAbove(path: string): string | undefined {
  for (let p = dirname(path); ; p = dirname(p)) {
    const st = statSync(p, { throwIfNoEntry: false });
    if (st !== undefined) return st.isDirectory() ? undefined : p;
    if (dirname(p) === p) return undefined;
  }
}

/**
 * What is at `path` (resolved against the working directory): a folder, nothing, a file, a path under a file, or
 * something that cannot be looked at. Never throws for a path; reads only metadata.
 */
export function folderState(path: string): FolderState {
  const full = resolve(path);
  try {
    return statSync(full).isDirectory() ? { kind: 'folder' } : { kind: 'file' };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    if (code === 'ENOENT') return { kind: 'missing' };
    if (code === 'ENOTDIR') {
      try {
        const file = fileAbove(full);
        if (file !== undefined) return { kind: 'underFile', file };
      } catch {
        // a level above cannot be looked at: say the system's code
      }
    }
    return { kind: 'unreadable', code };
  }
}
