/**
 * @module config/files
 * The configuration files as messages name them: the ones actually read. The config folder is `ZHUJIU_CONFIG_DIR`
 * (or the loader's `configDir` option) or `./config` (config/loader.ts `loadConfig`), so an error about a model,
 * the judge or a suite names the file to edit, not always `config/models.yaml`.
 */
import { isAbsolute, join, relative } from 'node:path';

/** The files of one config folder, as messages show them. */
export interface ConfigFiles {
  /** `default.yaml` (app settings: judge.model, arena, …). */
  readonly default: string;
  /** `models.yaml` (the model endpoints). */
  readonly models: string;
  /** The `suites/` folder. */
  readonly suites: string;
}

/** The names of the default layout, for a configuration made by hand (tests) that read no folder. */
export const DEFAULT_CONFIG_FILES: ConfigFiles = {
  default: 'config/default.yaml',
  models: 'config/models.yaml',
  suites: 'config/suites/',
};

/**
 * The files of the absolute config folder `configDir`, each shown relative to the working directory `cwd` when it
 * lies inside it (`config/models.yaml`), else as an absolute path (`/etc/zhujiu/models.yaml`).
 */
export function configFilesIn(configDir: string, cwd: string): ConfigFiles {
  const shown = (p: string) => {
    const r = relative(cwd, p);
    return r !== '' && !r.startsWith('..') && !isAbsolute(r) ? r : p;
  };
  return {
    default: shown(join(configDir, 'default.yaml')),
    models: shown(join(configDir, 'models.yaml')),
    suites: `${shown(join(configDir, 'suites'))}/`,
  };
}

/** The files a loaded configuration was read from ({@link DEFAULT_CONFIG_FILES} for one made by hand). */
export function filesOf(
  config: { readonly files?: ConfigFiles | undefined } | undefined,
): ConfigFiles {
  return config?.files ?? DEFAULT_CONFIG_FILES;
}
