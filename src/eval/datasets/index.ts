/**
 * @module eval/datasets
 * Dataset loaders (C3, CMRC 2018, DRCD, OCNLI, CLUEWSC2020, ChID, CCPM, Math23K, GAOKAO-Bench objective) and the
 * suite preparation that turns `config/suites/*.yaml` entries into {@link PreparedDataset}s.
 */
export { decodeUtf8 } from './decode.ts';
export type { DatasetLoader, ParsedRows } from './loader.ts';
export {
  canUseStoredItems,
  datasetLoader,
  missingDatasetFiles,
  prepareDataset,
  preparedFromStoredItems,
  prepareSuite,
  robustnessPlan,
  seededSample,
} from './prepare.ts';
export type { DatasetLocation, DatasetText } from './source.ts';
export { readDatasetFile } from './source.ts';
