/**
 * @module eval/robustness
 * The robustness ability (ZhuJiu §2.3.7) as datasets derived from the shipped ones: the perturbations, the derived
 * datasets and their build (docs/scoring.md §2.7).
 */
export {
  buildRobustnessSets,
  derivedKey,
  deriveItems,
  itemRng,
  ROBUSTNESS_TASKS,
  ROBUSTNESS_VERSION,
  type RobustnessBuild,
  type RobustnessMeta,
  type RobustnessSpec,
  type RobustnessTask,
  robustnessDataset,
  robustnessOf,
  UNIQUE_SOLUTION_FOLLOW_UPS,
} from './derive.ts';
