/**
 * @module rating/components
 * Splits arena votes into separate comparison components (docs/scoring.md, "Separate comparison components").
 * Pure: no I/O.
 */
import { undirectedComponents } from './comparison-graph.ts';
import type { ArenaData } from './types.ts';

/** The votes of one comparison component, as {@link ArenaData} over its own models. */
export interface ComponentData {
  /** The component's votes; `models` are the component's models in the order of the whole data. */
  readonly data: ArenaData;
  /** Index in the whole data of each of `data.models`. */
  readonly dataIndex: Int32Array;
}

/**
 * The undirected connected components of `data` (models linked by a chain of pairs with at least one vote),
 * each as its own {@link ArenaData}, ordered main first: most models, then most votes, then the lowest model
 * index. Models without any vote belong to no component. The parts carry no vote sequence (online Elo is
 * computed on the whole data; it never mixes components either).
 */
export function splitComponents(data: ArenaData): ComponentData[] {
  const M = data.models.length;
  const P = data.pairI.length;
  const n = new Float64Array(P);
  for (let k = 0; k < P; k++) n[k] = data.winsI[k]! + data.winsJ[k]! + data.ties[k]!;
  const { component, count } = undirectedComponents(M, data.pairI, data.pairJ, n);
  const members: number[][] = Array.from({ length: count }, () => []);
  for (let i = 0; i < M; i++) if (component[i]! >= 0) members[component[i]!]!.push(i);
  const votes = new Float64Array(count);
  for (let k = 0; k < P; k++) if (n[k]! > 0) votes[component[data.pairI[k]!]!]! += n[k]!;
  const order = members
    .map((_, c) => c)
    .sort(
      (a, b) =>
        members[b]!.length - members[a]!.length ||
        votes[b]! - votes[a]! ||
        members[a]![0]! - members[b]![0]!,
    );
  const local = new Int32Array(M).fill(-1);
  for (const list of members) for (const [l, i] of list.entries()) local[i] = l;
  return order.map((c) => {
    const idx = members[c]!;
    const pi: number[] = [];
    const pj: number[] = [];
    const wi: number[] = [];
    const wj: number[] = [];
    const t: number[] = [];
    let total = 0;
    for (let k = 0; k < P; k++) {
      if (!(n[k]! > 0) || component[data.pairI[k]!] !== c) continue;
      pi.push(local[data.pairI[k]!]!);
      pj.push(local[data.pairJ[k]!]!);
      wi.push(data.winsI[k]!);
      wj.push(data.winsJ[k]!);
      t.push(data.ties[k]!);
      total += n[k]!;
    }
    return {
      data: {
        models: idx.map((i) => data.models[i]!),
        pairI: Int32Array.from(pi),
        pairJ: Int32Array.from(pj),
        winsI: Float64Array.from(wi),
        winsJ: Float64Array.from(wj),
        ties: Float64Array.from(t),
        numBattles: Float64Array.from(idx, (i) => data.numBattles[i]!),
        totalVotes: total,
        sequence: null,
      },
      dataIndex: Int32Array.from(idx),
    };
  });
}
