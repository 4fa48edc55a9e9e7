/**
 * @module eval/datasets/build/write
 * Runs the dataset builders and writes their files and a manifest into the output folder (default: the datasets
 * folder's `zhujiu-built/`). Every file is written to a temporary name and renamed into place once every builder
 * has succeeded, so a failed build leaves the previous files as they were. The manifest holds no time or machine
 * detail: building twice from the same package versions gives byte-identical files.
 */
import { createHash } from 'node:crypto';
import { rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeDirs } from '../../../core/make-dirs.ts';
import type { SourcePackage } from './packages.ts';
import { DATASET_BUILDERS, type DatasetBuilder } from './registry.ts';

/** The output folder's subfolder of the datasets folder. */
export const BUILT_DIR = 'zhujiu-built';
/** The manifest's file name in the output folder. */
export const MANIFEST_FILE = 'manifest.json';
/** The manifest's format tag. */
export const MANIFEST_FORMAT = 'zhujiu-built/1';

/** One builder's part of the manifest (and of `zhujiu datasets build --json`). */
export interface BuiltSummary {
  readonly name: string;
  readonly files: readonly { path: string; items: number; sha256: string }[];
  readonly sources: readonly SourcePackage[];
}

/** `manifest.json`. */
export interface BuildManifest {
  readonly format: string;
  readonly builders: readonly BuiltSummary[];
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/**
 * Runs `builders` and writes their files under `outDir`, then `manifest.json`.
 * @returns the manifest written.
 * @throws what a builder throws (nothing is written then), or the file system's error naming the path.
 */
export async function buildDatasets(
  outDir: string,
  builders: readonly DatasetBuilder[] = DATASET_BUILDERS,
): Promise<BuildManifest> {
  const outputs = [];
  for (const b of builders) outputs.push({ b, out: await b.build() });
  const files = outputs.flatMap(({ out }) =>
    out.files.map((f) => ({ path: f.path, text: f.text })),
  );
  const manifest: BuildManifest = {
    format: MANIFEST_FORMAT,
    builders: outputs.map(({ b, out }) => ({
      name: b.name,
      files: out.files.map((f) => ({ path: f.path, items: f.items, sha256: sha256(f.text) })),
      sources: out.sources,
    })),
  };
  files.push({ path: MANIFEST_FILE, text: `${JSON.stringify(manifest, null, 2)}\n` });
  const staged: [string, string][] = [];
  for (const f of files) {
    const target = join(outDir, ...f.path.split('/'));
    const tmp = `${target}.${process.pid}.tmp`;
    await makeDirs(dirname(target));
    await writeFile(tmp, f.text, 'utf8');
    staged.push([tmp, target]);
  }
  for (const [tmp, target] of staged) await rename(tmp, target);
  return manifest;
}
