/**
 * @module eval/datasets/build/registry
 * The builders of constructed datasets: each turns installed data (npm packages, shipped datasets) into files
 * under the datasets folder's `zhujiu-built/` subfolder, deterministically (the same inputs give the same bytes).
 * `zhujiu datasets build` runs every builder of {@link DATASET_BUILDERS}; add a builder there. A builder's module
 * is imported only when it runs, so listing the builders loads no data.
 */
import type { SourcePackage } from './packages.ts';

/** One file a builder writes. */
export interface BuiltFile {
  /** Path relative to the output folder, with `/` (e.g. `knowledge/world_accuracy.jsonl`). */
  readonly path: string;
  readonly text: string;
  /** Items (lines) in the file. */
  readonly items: number;
}

/** What a builder produced. */
export interface BuilderOutput {
  readonly files: readonly BuiltFile[];
  /** The data packages it read, with their installed versions and licences. */
  readonly sources: readonly SourcePackage[];
}

/** A builder of constructed datasets. */
export interface DatasetBuilder {
  /** Lower-case name; also the folder its files go in. */
  readonly name: string;
  readonly description: string;
  /** Builds the files in memory (nothing is written). Deterministic. */
  build(): Promise<BuilderOutput>;
}

/** Serialises rows as JSONL: one JSON object per line, `\n` after every line. */
export function jsonl(rows: readonly unknown[]): string {
  return rows.map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** ZhuJiu's knowledge sets (eval/datasets/knowledge/build.ts). */
export const knowledgeBuilder: DatasetBuilder = {
  name: 'knowledge',
  description:
    'ZhuJiu knowledge (§2.3.1, App. B): world, commonsense, linguistic, concept × accuracy, robustness, completeness, timeliness',
  async build() {
    const { buildKnowledgeSets } = await import('../knowledge/build.ts');
    const { sets, packages } = buildKnowledgeSets();
    return {
      files: sets.map((s) => ({
        path: `knowledge/${s.name}.jsonl`,
        text: jsonl(s.rows),
        items: s.rows.length,
      })),
      sources: packages,
    };
  },
};

/** Every builder `zhujiu datasets build` runs, in order. */
export const DATASET_BUILDERS: readonly DatasetBuilder[] = [knowledgeBuilder];
