/**
 * @module config/loader
 * Loads and validates `config/default.yaml`, `config/models.yaml`, `config/suites/*.yaml` and the environment.
 * A bad file fails at start with one line per problem, `file:line:col path: message`. This is the only module
 * that reads `process.env`. The returned config is deeply frozen.
 */
import { existsSync, readdirSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { type Document, isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { AppError } from '../core/errors.ts';
import { readUtf8FileSync } from '../core/utf8.ts';
import {
  type AppConfig,
  appConfigSchema,
  type Env,
  envSchema,
  type ModelConfig,
  modelsFileSchema,
  type SuiteConfig,
  suiteSchema,
} from './schema.ts';

/** Everything the app is configured with. */
export interface LoadedConfig {
  readonly app: AppConfig;
  readonly models: readonly ModelConfig[];
  readonly suites: ReadonlyMap<string, SuiteConfig>;
  readonly env: Env;
  /** Absolute config folder. */
  readonly configDir: string;
  /** Absolute PGlite data folder (used only when `env.DATABASE_URL` is unset). */
  readonly dataDir: string;
  /**
   * The API key of a configured model: the value of its `api_key_env` variable, or undefined when it has none or
   * the variable is unset. A function, not data, so that logging the config never prints a key.
   */
  readonly apiKeyFor: (modelName: string) => string | undefined;
  /** Absolute folder that suite dataset paths are relative to (`ZHUJIU_DATASETS_DIR`, default `./datasets`). */
  readonly datasetsDir: string;
  /** Absolute folder where datasets given by URL are cached (`ZHUJIU_DATASETS_CACHE`, default `./data/datasets-cache`). */
  readonly datasetsCacheDir: string;
  /**
   * Where a key is written: `file:line:col` (relative to the working directory) for a path that exists in
   * `config/default.yaml` (`'default'`) or `config/models.yaml` (`'models'`), else the file name (or
   * `(defaults)` when the file does not exist).
   */
  readonly locate: (file: 'default' | 'models', path: readonly (string | number)[]) => string;
}

/** Where to look; defaults come from the environment, then from the working directory. */
export interface LoadOptions {
  readonly configDir?: string;
  readonly dataDir?: string;
  readonly datasetsDir?: string;
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}

function display(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel;
}

/** Formats zod issues against a YAML document as `file:line:col path: message` lines. */
function locate(
  doc: Document,
  lc: LineCounter,
  file: string,
  issues: readonly z.core.$ZodIssue[],
): string[] {
  return issues.map((issue) => {
    const path = issue.path.map(String);
    // Walk down as far as the path exists in the document to find the closest node.
    let pos: [number, number] | undefined;
    for (let depth = path.length; depth >= 0 && pos === undefined; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) {
        const p = lc.linePos(node.range[0]);
        pos = [p.line, p.col];
      }
    }
    const [line, col] = pos ?? [1, 1];
    const where = path.length > 0 ? path.join('.') : '(root)';
    let message = issue.message;
    if (issue.code === 'unrecognized_keys')
      message = `unknown key(s) ${issue.keys.join(', ')}: remove or fix the spelling`;
    return `${file}:${line}:${col} ${where}: ${message}`;
  });
}

/** Parses and validates one YAML file; throws AppError('config_invalid') listing every problem. */
export function parseYamlFile<S extends z.ZodType>(
  file: string,
  schema: S,
  cwd = process.cwd(),
): z.output<S> {
  return parseYamlFileLocated(file, schema, cwd).data;
}

/** The position of a path in a parsed YAML document, as `file:line:col`, or undefined when it is not there. */
function positionOf(
  doc: Document,
  lc: LineCounter,
  shown: string,
  path: readonly (string | number)[],
): string | undefined {
  const node = path.length === 0 ? doc.contents : doc.getIn(path as unknown[], true);
  if (!isNode(node) || !node.range) return undefined;
  const p = lc.linePos(node.range[0]);
  return `${shown}:${p.line}:${p.col}`;
}

/**
 * {@link parseYamlFile}, also returning a function that gives the `file:line:col` of a key path (for problems
 * found after validation, e.g. a duplicate name or an unset `api_key_env`).
 */
export function parseYamlFileLocated<S extends z.ZodType>(
  file: string,
  schema: S,
  cwd = process.cwd(),
): { data: z.output<S>; at: (path: readonly (string | number)[]) => string } {
  const shown = display(file, cwd);
  let text: string;
  try {
    text = readUtf8FileSync(file, { name: shown, code: 'config_missing' });
  } catch (err) {
    // A file that is not UTF-8 is invalid, not missing.
    if (err instanceof AppError && /: not UTF-8 text:/.test(err.message))
      throw new AppError('config_invalid', err.message, { cause: err });
    throw err;
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) {
    const lines = doc.errors.map((e) => {
      const p = lc.linePos(e.pos[0]);
      return `${shown}:${p.line}:${p.col} (yaml): ${e.message.split('\n')[0]}`;
    });
    throw new AppError('config_invalid', lines.join('\n'));
  }
  const data = doc.toJS() ?? {};
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    throw new AppError('config_invalid', locate(doc, lc, shown, parsed.error.issues).join('\n'));
  }
  return { data: parsed.data, at: (path) => positionOf(doc, lc, shown, path) ?? shown };
}

/** Validates the environment; throws AppError('env_invalid') naming each bad variable (never its value). */
export function parseEnv(env: Readonly<Record<string, string | undefined>>): Env {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `environment ${i.path.join('.')}: ${i.message}`);
    throw new AppError('env_invalid', lines.join('\n'));
  }
  return parsed.data;
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    if (o instanceof Map) {
      for (const v of o.values()) deepFreeze(v);
    } else {
      for (const v of Object.values(o)) deepFreeze(v);
    }
  }
  return o;
}

/**
 * Loads the whole configuration. Missing `default.yaml` / `models.yaml` mean "all defaults"; a file that exists
 * must be valid.
 * @throws AppError `config_invalid` (with `file:line:col path: message` lines), `env_invalid`.
 */
export function loadConfig(options: LoadOptions = {}): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const env = parseEnv(options.env ?? process.env);
  const explicitDir = options.configDir ?? env.ZHUJIU_CONFIG_DIR;
  const configDir = resolve(cwd, explicitDir ?? 'config');
  if (explicitDir !== undefined && !existsSync(configDir)) {
    throw new AppError(
      'config_missing',
      `config folder ${configDir} does not exist (from ${options.configDir !== undefined ? 'the caller' : 'ZHUJIU_CONFIG_DIR'}); fix the path or unset it to use ./config`,
    );
  }
  const dataDir = resolve(cwd, options.dataDir ?? env.ZHUJIU_DATA_DIR ?? join('data', 'pg'));
  const datasetsDir = resolve(cwd, options.datasetsDir ?? env.ZHUJIU_DATASETS_DIR ?? 'datasets');
  const datasetsCacheDir = resolve(
    cwd,
    env.ZHUJIU_DATASETS_CACHE ?? join('data', 'datasets-cache'),
  );
  const problems: string[] = [];
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof AppError) {
        problems.push(err.message);
        return fallback;
      }
      throw err;
    }
  };

  const defaultFile = join(configDir, 'default.yaml');
  const noPosition = (shown: string) => () => shown;
  let atDefault: (path: readonly (string | number)[]) => string = noPosition('(defaults)');
  const app = existsSync(defaultFile)
    ? attempt(() => {
        const r = parseYamlFileLocated(defaultFile, appConfigSchema, cwd);
        atDefault = r.at;
        return r.data;
      }, appConfigSchema.parse({}))
    : appConfigSchema.parse({});
  const modelsFile = join(configDir, 'models.yaml');
  let atModels: (path: readonly (string | number)[]) => string = noPosition('(no models.yaml)');
  const models = existsSync(modelsFile)
    ? attempt(() => {
        const r = parseYamlFileLocated(modelsFile, modelsFileSchema, cwd);
        atModels = r.at;
        return r.data.models;
      }, [] as ModelConfig[])
    : [];
  const first = new Map<string, number>();
  models.forEach((m, i) => {
    const prev = first.get(m.name);
    if (prev !== undefined) {
      problems.push(
        `${atModels(['models', i, 'name'])} models.${i}.name: model "${m.name}" is listed twice ` +
          `(first at ${atModels(['models', prev, 'name'])}); give each model its own name or remove one`,
      );
    } else first.set(m.name, i);
  });
  const suites = new Map<string, SuiteConfig>();
  const suitesDir = join(configDir, 'suites');
  if (existsSync(suitesDir)) {
    for (const f of readdirSync(suitesDir).sort()) {
      if (!/\.ya?ml$/.test(f)) continue;
      const suite = attempt(() => parseYamlFile(join(suitesDir, f), suiteSchema, cwd), undefined);
      if (suite === undefined) continue;
      if (suites.has(suite.name)) {
        problems.push(
          `${display(join(suitesDir, f), cwd)}: suite name "${suite.name}" is used twice`,
        );
      }
      suites.set(suite.name, suite);
    }
  }
  if (problems.length > 0) throw new AppError('config_invalid', problems.join('\n'));
  const finalApp: AppConfig = {
    ...app,
    log: { level: env.LOG_LEVEL ?? app.log.level },
    http: { host: env.ZHUJIU_HTTP_HOST ?? app.http.host, port: env.PORT ?? app.http.port },
  };
  const rawEnv = options.env ?? process.env;
  const keyVars = new Map(
    models.flatMap((m) =>
      m.provider === 'openai' && m.api_key_env ? [[m.name, m.api_key_env] as const] : [],
    ),
  );
  const apiKeyFor = (modelName: string): string | undefined => {
    const v = keyVars.get(modelName);
    const value = v === undefined ? undefined : rawEnv[v]?.trim();
    return value === '' ? undefined : value;
  };
  return deepFreeze({
    app: finalApp,
    models,
    suites,
    env,
    configDir,
    dataDir,
    datasetsDir,
    datasetsCacheDir,
    apiKeyFor,
    locate: (file: 'default' | 'models', path: readonly (string | number)[]) =>
      file === 'default' ? atDefault(path) : atModels(path),
  });
}
