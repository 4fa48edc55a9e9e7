/**
 * @module config/loader
 * Loads and validates `config/default.yaml`, `config/models.yaml`, `config/suites/*.yaml` and the environment.
 * A bad file fails at start with one line per problem, `file:line:col path: message`. The environment is an
 * argument ({@link LoadOptions.env}): `bin/zhujiu.js` passes `process.env`, tests pass their own, and nothing here
 * reads `process.env`. The returned config is deeply frozen.
 */
import { readdirSync, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import {
  type Document,
  isCollection,
  isMap,
  isNode,
  isScalar,
  LineCounter,
  parseDocument,
} from 'yaml';
import type { z } from 'zod';
import { AppError, type Said } from '../core/errors.ts';
import { folderState } from '../core/folder-state.ts';
import { readUtf8FileSync } from '../core/utf8.ts';
import { type CliMessageKey, listText, said, saidError, sayCli, tc } from '../i18n/cli.ts';
import { choiceNames, meantChoice } from '../i18n/display-names.ts';
import { causeSaid } from '../i18n/error-cause.ts';
import type { Locale } from '../i18n/index.ts';
import { literalText } from '../i18n/quote.ts';
import { zodParseOptions } from '../i18n/zod.ts';
import { didYouMean } from '../text/edit-distance.ts';
import { type ConfigFiles, configFilesIn } from './files.ts';
import { comparePaths, configPathText } from './path-text.ts';
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
import { schemaMessageIn } from './schema-messages.ts';
import { type ParsedSuite, resolveSuiteIncludes } from './suite-include.ts';
import { wrongVariantIssues } from './wrong-variant.ts';
import { yamlMessageSaid } from './yaml-messages.ts';

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
  /**
   * True when the model's `api_key_env` variable is set but empty (or only spaces), so a missing key can say so
   * rather than "not set"; false when it is unset, holds a key, or the model has none. Absent in hand-made configs.
   */
  readonly apiKeyEmpty?: (modelName: string) => boolean;
  /**
   * The key held by environment variable `variable` (an approved submission's `api_key_env`, which
   * config/models.yaml does not list): its trimmed value, undefined when unset or empty (`empty` says which). A
   * function, like {@link apiKeyFor}, so the config never holds a key as data. Absent in hand-made configs.
   */
  readonly keyVariable?: (variable: string) => {
    readonly value: string | undefined;
    readonly empty: boolean;
  };
  /** Absolute folder that suite dataset paths are relative to (`ZHUJIU_DATASETS_DIR`, default `./datasets`). */
  readonly datasetsDir: string;
  /** Absolute folder where datasets given by URL are cached (`ZHUJIU_DATASETS_CACHE`, default `./data/datasets-cache`). */
  readonly datasetsCacheDir: string;
  /**
   * Absolute folders a dataset file of the datasets folder may be a symlink into (`ZHUJIU_DATASETS_ROOTS`; the
   * datasets folder itself always is one). Any other path leading out of the datasets folder is refused.
   */
  readonly datasetRoots?: readonly string[];
  /**
   * Where a key is written: `file:line:col` (the full path of the file) for a path that exists in
   * `config/default.yaml` (`'default'`) or `config/models.yaml` (`'models'`), else the file name (or
   * `(defaults)` when the file does not exist).
   */
  readonly locate: (file: 'default' | 'models', path: readonly (string | number)[]) => string;
  /** The files read, as messages name them (config/files.ts); absent in hand-made configs. */
  readonly files?: ConfigFiles;
}

/** Where to look; defaults come from the environment, then from the working directory. */
export interface LoadOptions {
  readonly configDir?: string;
  readonly dataDir?: string;
  readonly datasetsDir?: string;
  /**
   * The environment variables (`ZHUJIU_*`, `DATABASE_URL`, tokens, API keys): `process.env` for the `zhujiu`
   * process (read once, in `bin/zhujiu.js`), a plain object in tests.
   */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Folder relative paths resolve against (default: the working directory). */
  readonly cwd?: string;
  /**
   * The language of the problems found (default `en`, as the logs have them): the command line passes its own
   * (cli/deps.ts `cliLocale`), so `zhujiu config check` and every command say a bad file in it.
   */
  readonly locale?: Locale;
}

/** A config file as messages name it: its full path (a relative `default.yaml:15:17` would hide which folder). */
function display(file: string, cwd: string): string {
  return resolve(cwd, file);
}

/** Type names in words, for "expected a number, e.g. 60000": the catalogue key of each zod type. */
const TYPE_WORDS: Readonly<Record<string, CliMessageKey>> = {
  number: 'cli.configFile.type.number',
  int: 'cli.configFile.type.int',
  string: 'cli.configFile.type.string',
  boolean: 'cli.configFile.type.boolean',
  array: 'cli.configFile.type.array',
  object: 'cli.configFile.type.object',
  record: 'cli.configFile.type.object',
};

/** What a YAML value is, in words ("text \"abc\"", "a list", "nothing"), in `locale`. */
function describeValue(v: unknown, locale: Locale): string {
  if (v === null || v === undefined) return tc(locale, 'cli.configFile.value.nothing');
  if (typeof v === 'string')
    return tc(locale, 'cli.configFile.value.text', {
      text: v.length > 40 ? `${v.slice(0, 40)}…` : v,
    });
  if (typeof v === 'number' || typeof v === 'boolean')
    return tc(locale, 'cli.configFile.value.scalar', {
      type: tc(
        locale,
        typeof v === 'number' ? 'cli.configFile.value.number' : 'cli.configFile.value.boolean',
      ),
      value: String(v),
    });
  if (Array.isArray(v)) return tc(locale, 'cli.configFile.value.list');
  return tc(locale, 'cli.configFile.value.mapping');
}

/**
 * What follows the refusal of the unknown key `key` (`cli.configFile.unknownKey`'s `{near}`), in `locale`: a "did you
 * mean" when `key` looks like a misspelling of one of `known`, then the keys `known` (the language's list); '' when
 * `known` is empty. One message says both, so its punctuation is whole (`？此处…`, never `？；此处…`).
 */
export function unknownKeyHint(key: string, known: readonly string[], locale: Locale): string {
  if (known.length === 0) return '';
  const keys = listText(locale, known);
  const meant = didYouMean(key, known);
  return meant === undefined
    ? tc(locale, 'cli.configFile.keysHere', { keys })
    : tc(locale, 'cli.configFile.didYouMeanKeys', { name: meant, keys });
}

/** The parts of a zod v4 schema's definition (`_zod.def`) that {@link schemaDefaultAt} and {@link schemaKeysAt} walk. */
type ZodDef = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  defaultValue?: unknown;
  options?: z.ZodType[];
};

/** The definition of zod v4 schema `t`. */
const defOf = (t: z.ZodType): ZodDef => (t as unknown as { _zod: { def: ZodDef } })._zod.def;

/**
 * The schema's own default for the key at `path` (e.g. `models[1].max_retries` → the item schema's default 2), or
 * undefined when the key has none. Walks objects, arrays (any index), unions (first option with a default) and
 * optional/nullable/default/pipe wrappers of zod v4 schemas.
 */
function schemaDefaultAt(schema: z.ZodType | undefined, path: readonly string[]): unknown {
  let at: z.ZodType | undefined = schema;
  let found: unknown;
  for (let depth = 0; at !== undefined; ) {
    const def = defOf(at);
    if (def.type === 'default' || def.type === 'prefault') {
      if (depth === path.length) found ??= def.defaultValue;
      at = def.innerType;
    } else if (def.type === 'optional' || def.type === 'nullable' || def.type === 'readonly') {
      at = def.innerType;
    } else if (def.type === 'pipe') {
      at = def.in;
    } else if (depth === path.length) {
      return found;
    } else if (def.type === 'object') {
      at = def.shape?.[path[depth]!];
      depth++;
      found = undefined;
    } else if (def.type === 'array') {
      at = def.element;
      depth++;
      found = undefined;
    } else if (def.type === 'union') {
      // e.g. a discriminated union of model kinds: the first option that has the key.
      const rest = path.slice(depth);
      for (const option of def.options ?? []) {
        const v = schemaDefaultAt(option, rest);
        if (v !== undefined) return v;
      }
      return undefined;
    } else {
      return undefined;
    }
  }
  return undefined;
}

/**
 * An example value for a type error: the key's default when it has a plain one, else none (a made-up number
 * would not fit every key: a port example under `max_retries` misleads).
 */
function exampleOf(expected: string, fallback: unknown, locale: Locale): string {
  if (expected === 'boolean') return '';
  if (expected === 'number' || expected === 'int')
    return typeof fallback === 'number'
      ? tc(locale, 'cli.configFile.example', { example: String(fallback) })
      : '';
  if (expected === 'string')
    return typeof fallback === 'string' && fallback !== ''
      ? tc(locale, 'cli.configFile.example', { example: literalText(locale, fallback) })
      : '';
  return '';
}

/**
 * The allowed values of a fixed list as a refusal lists them, in `locale`: `a, b, c` (`a、b、c`); the abilities and
 * methods by their display names in `locale` (i18n/display-names.ts `choiceNames`), which a suite file takes too.
 */
function choicesText(choices: readonly unknown[], locale: Locale): string {
  return listText(locale, choiceNames(choices.map(String), locale));
}

/**
 * `; did you mean "x"?` (in `locale`) when `value` looks like a misspelt or shortened value of `choices` (the
 * abilities and methods by their display names too: i18n/display-names.ts `meantChoice`), else ''.
 */
function meantChoiceText(value: unknown, choices: readonly unknown[], locale: Locale): string {
  if (typeof value !== 'string') return '';
  const name = meantChoice(value, choices.map(String), locale);
  return name === undefined ? '' : tc(locale, 'cli.configFile.meant', { name });
}

/**
 * True when the last key of `path` is left out of its mapping in `doc` (a required key not written), as opposed to
 * written with a bad value.
 */
function isMissingKey(doc: Document, path: readonly string[]): boolean {
  if (path.length === 0) return false;
  const parent = path.length === 1 ? doc.contents : doc.getIn(path.slice(0, -1), true);
  return isMap(parent) && !parent.has(path[path.length - 1]);
}

/**
 * The refusal of a required key left out (`missing required key "ability": add `ability:` with one of …`), in
 * `locale`, when `issue` is about such a key; undefined otherwise.
 */
function missingKeyText(
  issue: z.core.$ZodIssue,
  doc: Document,
  path: readonly string[],
  locale: Locale,
): string | undefined {
  if (!isMissingKey(doc, path)) return undefined;
  const key = path[path.length - 1] as string;
  if (issue.code === 'invalid_value')
    return tc(locale, 'cli.configFile.missingKeyOneOf', {
      key,
      choices: choicesText(issue.values, locale),
    });
  const words = issue.code === 'invalid_type' ? TYPE_WORDS[issue.expected] : undefined;
  return words === undefined
    ? undefined
    : tc(locale, 'cli.configFile.missingKeyType', { key, what: tc(locale, words) });
}

/**
 * What is wrong at one key, in `locale`: a required key left out, the choices of a discriminated union (a model's
 * `provider:`) or of a fixed list with a "did you mean", the expected type with an example (the key's default), or
 * the schema's or zod's own message.
 * @param value what the YAML document holds at the issue's path.
 */
function issueText(
  issue: z.core.$ZodIssue,
  doc: Document,
  path: readonly string[],
  defaults: unknown,
  schema: z.ZodType | undefined,
  locale: Locale,
): string {
  // A list or mapping as data (yaml gives its node), so that it is described as what it is.
  const node = doc.getIn(path);
  const value = isCollection(node) ? node.toJSON() : node;
  const missing = missingKeyText(issue, doc, path, locale);
  if (missing !== undefined) return missing;
  if (issue.code === 'invalid_union' && 'discriminator' in issue && issue.discriminator) {
    // A model's `provider:` (zod says "Invalid discriminator value"): name the choices and what was written.
    const options = ((issue as { options?: unknown[] }).options ?? []).map(String);
    return value === undefined
      ? tc(locale, 'cli.configFile.missingChoice', {
          key: issue.discriminator,
          choices: options
            .map((o) => `\`${issue.discriminator}: ${o}\``)
            .join(tc(locale, 'cli.configFile.or')),
        })
      : tc(locale, 'cli.configFile.oneOf', {
          choices: listText(locale, options),
          got: describeValue(value, locale),
        }) + meantChoiceText(value, options, locale);
  }
  if (issue.code === 'invalid_value' && value !== undefined)
    return (
      tc(locale, 'cli.configFile.oneOf', {
        choices: choicesText(issue.values, locale),
        got: describeValue(value, locale),
      }) + meantChoiceText(value, issue.values, locale)
    );
  if (issue.code === 'invalid_type' && TYPE_WORDS[issue.expected] !== undefined) {
    const fallback =
      path.reduce<unknown>(
        (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
        defaults,
      ) ?? schemaDefaultAt(schema, path);
    return tc(locale, 'cli.configFile.expected', {
      what: tc(locale, TYPE_WORDS[issue.expected] as CliMessageKey),
      example: exampleOf(issue.expected, fallback, locale),
      got: describeValue(value, locale),
    });
  }
  return schemaMessageIn(issue.message, locale);
}

/**
 * The keys a mapping at `path` may hold: those of the defaults there, else those of the schema's object there (a
 * list item, e.g. a model of models.yaml, has no defaults); `[]` when `isMapping` is false or none is known.
 */
function knownKeysAt(
  isMapping: boolean,
  defaults: unknown,
  schema: z.ZodType | undefined,
  path: readonly string[],
): string[] {
  if (!isMapping) return [];
  const d = path.reduce<unknown>(
    (o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined),
    defaults,
  );
  if (d && typeof d === 'object' && !Array.isArray(d) && Object.keys(d).length > 0)
    return Object.keys(d);
  return schemaKeysAt(schema, path);
}

/** The keys of the object schema(s) at `path` (every option of a union), walking as {@link schemaDefaultAt}. */
function schemaKeysAt(schema: z.ZodType | undefined, path: readonly string[]): string[] {
  if (schema === undefined) return [];
  const def = defOf(schema);
  if (['default', 'prefault', 'optional', 'nullable', 'readonly'].includes(def.type))
    return schemaKeysAt(def.innerType, path);
  if (def.type === 'pipe') return schemaKeysAt(def.in, path);
  if (def.type === 'union')
    return [...new Set((def.options ?? []).flatMap((o) => schemaKeysAt(o, path)))];
  if (def.type === 'array') return schemaKeysAt(def.element, path.slice(1));
  if (def.type !== 'object') return [];
  if (path.length === 0) return Object.keys(def.shape ?? {});
  return schemaKeysAt(def.shape?.[path[0] as string], path.slice(1));
}

/** One problem of a file at its position: the line and column it is reported at, its key path and its text. */
type Located = {
  readonly pos: readonly [number, number];
  readonly path: PropertyKey[];
  readonly line: string;
};

/** The `line:col` of the deepest node of `keyPath` that exists in `doc` (the document's start when none does). */
function closestPos(doc: Document, lc: LineCounter, keyPath: readonly string[]): [number, number] {
  for (let depth = keyPath.length; depth >= 0; depth--) {
    const node = depth === 0 ? doc.contents : doc.getIn(keyPath.slice(0, depth), true);
    if (isNode(node) && node.range) {
      const p = lc.linePos(node.range[0]);
      return [p.line, p.col];
    }
  }
  return [1, 1];
}

/** Each unknown key of an `unrecognized_keys` issue at its own line:col (not at the first key of its mapping). */
function unknownKeys(
  doc: Document,
  lc: LineCounter,
  file: string,
  issue: z.core.$ZodIssue & { code: 'unrecognized_keys' },
  known: (isMapping: boolean, path: readonly string[]) => string[],
  locale: Locale,
): Located[] {
  const path = issue.path.map(String);
  const map = path.length === 0 ? doc.contents : doc.getIn(path, true);
  return issue.keys.map((key) => {
    const pair = isMap(map)
      ? map.items.find((it) => isScalar(it.key) && String(it.key.value) === key)
      : undefined;
    const range = pair && isNode(pair.key) ? pair.key.range : undefined;
    const pos: [number, number] = range
      ? (({ line, col }) => [line, col] as [number, number])(lc.linePos(range[0]))
      : closestPos(doc, lc, path);
    const near = unknownKeyHint(key, known(isMap(map), path), locale);
    const keyPath = [...issue.path, key];
    return {
      pos,
      path: keyPath,
      line: tc(locale, 'cli.configFile.unknownKey', {
        at: `${file}:${pos[0]}:${pos[1]}`,
        path: configPathText(keyPath),
        key,
        near,
      }),
    };
  });
}

/**
 * Formats zod issues against a YAML document as `file:line:col path: message` lines, in the order of the file
 * (by line and column; problems at one place by key path).
 */
function locate(
  doc: Document,
  lc: LineCounter,
  file: string,
  issues: readonly z.core.$ZodIssue[],
  defaults: unknown,
  schema: z.ZodType | undefined,
  locale: Locale,
): string[] {
  const known = (isMapping: boolean, path: readonly string[]) =>
    knownKeysAt(isMapping, defaults, schema, path);
  const located = issues.flatMap((issue): Located[] => {
    if (issue.code === 'unrecognized_keys') return unknownKeys(doc, lc, file, issue, known, locale);
    const path = issue.path.map(String);
    const pos = closestPos(doc, lc, path);
    const message = issueText(issue, doc, path, defaults, schema, locale);
    return [
      {
        pos,
        path: issue.path,
        line: tc(locale, 'cli.configFile.problem', {
          at: `${file}:${pos[0]}:${pos[1]}`,
          path: configPathText(issue.path),
          message,
        }),
      },
    ];
  });
  return located
    .sort((a, b) => a.pos[0] - b.pos[0] || a.pos[1] - b.pos[1] || comparePaths(a.path, b.path))
    .map((l) => l.line);
}

/**
 * Parses and validates one YAML file read where the reader's language is not known (a rubric of
 * `config/rubrics/`): throws AppError('config_invalid') listing every problem, its message in English and its
 * `said` the same list in each language of the catalogue (schema and YAML syntax errors said as for the config
 * files), so the command line says it in its own.
 */
export function parseYamlFile<S extends z.ZodType>(
  file: string,
  schema: S,
  cwd = process.cwd(),
): z.output<S> {
  try {
    return parseYamlFileLocated(file, schema, cwd, 'en').data;
  } catch (err) {
    if (!(err instanceof AppError) || err.said !== undefined || err.code !== 'config_invalid')
      throw err;
    let zh = err.message;
    try {
      parseYamlFileLocated(file, schema, cwd, 'zh-CN');
    } catch (again) {
      if (again instanceof AppError) zh = again.message;
    }
    const texts = { en: err.message, 'zh-CN': zh };
    throw new AppError('config_invalid', err.message, {
      cause: err,
      said: said('cli.config.fileProblems', { text: { texts } }),
    });
  }
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

/** The catalogue sentence of each YAML parser error code (yaml's `ErrorCode`, its dist/errors.d.ts). */
const YAML_CODES: Readonly<Record<string, CliMessageKey>> = {
  ALIAS_PROPS: 'cli.config.yamlCode.ALIAS_PROPS',
  BAD_ALIAS: 'cli.config.yamlCode.BAD_ALIAS',
  BAD_DIRECTIVE: 'cli.config.yamlCode.BAD_DIRECTIVE',
  BAD_DQ_ESCAPE: 'cli.config.yamlCode.BAD_DQ_ESCAPE',
  BAD_INDENT: 'cli.config.yamlCode.BAD_INDENT',
  BAD_PROP_ORDER: 'cli.config.yamlCode.BAD_PROP_ORDER',
  BAD_SCALAR_START: 'cli.config.yamlCode.BAD_SCALAR_START',
  BLOCK_AS_IMPLICIT_KEY: 'cli.config.yamlCode.BLOCK_AS_IMPLICIT_KEY',
  BLOCK_IN_FLOW: 'cli.config.yamlCode.BLOCK_IN_FLOW',
  DUPLICATE_KEY: 'cli.config.yamlCode.DUPLICATE_KEY',
  IMPOSSIBLE: 'cli.config.yamlCode.IMPOSSIBLE',
  KEY_OVER_1024_CHARS: 'cli.config.yamlCode.KEY_OVER_1024_CHARS',
  MISSING_CHAR: 'cli.config.yamlCode.MISSING_CHAR',
  MULTILINE_IMPLICIT_KEY: 'cli.config.yamlCode.MULTILINE_IMPLICIT_KEY',
  MULTIPLE_ANCHORS: 'cli.config.yamlCode.MULTIPLE_ANCHORS',
  MULTIPLE_DOCS: 'cli.config.yamlCode.MULTIPLE_DOCS',
  MULTIPLE_TAGS: 'cli.config.yamlCode.MULTIPLE_TAGS',
  NON_STRING_KEY: 'cli.config.yamlCode.NON_STRING_KEY',
  RESOURCE_EXHAUSTION: 'cli.config.yamlCode.RESOURCE_EXHAUSTION',
  TAB_AS_INDENT: 'cli.config.yamlCode.TAB_AS_INDENT',
  TAG_RESOLVE_FAILED: 'cli.config.yamlCode.TAG_RESOLVE_FAILED',
  UNEXPECTED_TOKEN: 'cli.config.yamlCode.UNEXPECTED_TOKEN',
  BAD_COLLECTION_TYPE: 'cli.config.yamlCode.BAD_COLLECTION_TYPE',
};

/**
 * What a YAML syntax error says in `locale`: a parser message that says more than its code (an unclosed `[`, a
 * quote, a character a plain value cannot start with: config/yaml-messages.ts) in the catalogue's words; any other,
 * in English the parser's own message (its first line), in another language the catalogue sentence of its code
 * (the code alone for one the catalogue does not know). Outside English the code comes first (`BAD_INDENT：…`).
 */
export function yamlErrorDetail(
  error: { readonly code: string; readonly message: string },
  locale: Locale,
): string {
  const known = yamlMessageSaid(error.message);
  if (locale === 'en')
    return known ? sayCli('en', known) : error.message.split('\n')[0] || error.code;
  const key = Object.hasOwn(YAML_CODES, error.code) ? YAML_CODES[error.code] : undefined;
  if (known === undefined && key === undefined) return error.code;
  return tc(locale, 'cli.config.yamlCodeDetail', {
    code: error.code,
    sentence: known ? sayCli(locale, known) : tc(locale, key as CliMessageKey),
  });
}

/**
 * The refusal of a YAML file with syntax errors: the first one only (`file:line:col`, what
 * {@link yamlErrorDetail} says of it), and how many more follow (one typo often gives many).
 */
function yamlSyntaxError(
  shown: string,
  errors: readonly { pos: [number, number]; code: string; message: string }[],
  lc: LineCounter,
  locale: Locale,
): AppError {
  const first = errors[0] as (typeof errors)[number];
  const p = lc.linePos(first.pos[0]);
  const more = errors.length - 1;
  return new AppError(
    'config_invalid',
    tc(locale, 'cli.config.yamlSyntax', {
      at: `${shown}:${p.line}:${p.col}`,
      detail: yamlErrorDetail(first, locale),
      more: more > 0 ? tc(locale, 'cli.config.yamlMore', { n: more }) : '',
    }),
  );
}

/**
 * {@link parseYamlFile}, also returning a function that gives the `file:line:col` of a key path (for problems
 * found after validation, e.g. a duplicate name or an unset `api_key_env`).
 */
export function parseYamlFileLocated<S extends z.ZodType>(
  file: string,
  schema: S,
  cwd = process.cwd(),
  locale: Locale = 'en',
): { data: z.output<S>; at: (path: readonly (string | number)[]) => string } {
  const shown = display(file, cwd);
  let text: string;
  try {
    text = readUtf8FileSync(file, { name: shown, code: 'config_missing' });
  } catch (err) {
    // A file that is not UTF-8 is invalid, not missing.
    if (err instanceof AppError && /: not UTF-8 text:/.test(err.message))
      throw new AppError('config_invalid', err.message, {
        cause: err,
        ...(err.said ? { said: err.said } : {}),
      });
    throw err;
  }
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  if (doc.errors.length > 0) throw yamlSyntaxError(shown, doc.errors, lc, locale);
  const data = doc.toJS() ?? {};
  const options = zodParseOptions(locale);
  const parsed = schema.safeParse(data, options);
  if (!parsed.success) {
    // The schema's defaults (when it has one for an empty file) give examples and the valid keys.
    const defaults = schema.safeParse({});
    // An entry refused for its kind alone (a model's `provider:`) is also checked for its other problems.
    const issues = [
      ...parsed.error.issues,
      ...wrongVariantIssues(schema, data, parsed.error.issues, options),
    ];
    throw new AppError(
      'config_invalid',
      locate(
        doc,
        lc,
        shown,
        issues,
        defaults.success ? defaults.data : undefined,
        schema,
        locale,
      ).join('\n'),
    );
  }
  return { data: parsed.data, at: (path) => positionOf(doc, lc, shown, path) ?? shown };
}

/**
 * Validates the environment; throws AppError('env_invalid') naming each bad variable (never its value), one line
 * each, said in `locale` (the command line's; default English).
 */
export function parseEnv(
  env: Readonly<Record<string, string | undefined>>,
  locale: Locale = 'en',
): Env {
  const parsed = envSchema.safeParse(env, zodParseOptions(locale));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const name = i.path.join('.');
      // A fixed list (LOG_LEVEL, LOG_FORMAT): the values and a "did you mean", never the value itself.
      const msg =
        i.code === 'invalid_value'
          ? tc(locale, 'cli.schema.env.oneOf', { choices: choicesText(i.values, locale) }) +
            meantChoiceText(env[name]?.trim(), i.values, locale)
          : schemaMessageIn(i.message, locale);
      return tc(locale, 'cli.schema.env.problem', { name, msg });
    });
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
 * Whether `path` exists. A folder that cannot be searched or listed (EACCES, EPERM) is an error naming it, not
 * an absent file: read as absent, an unreadable config folder would silently become the defaults.
 * @throws AppError `config_invalid` naming the path and the fix.
 */
function present(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch (err) {
    throw unreadable(path, err);
  }
}

/** Where the config folder was named: the caller (`LoadOptions.configDir`) or ZHUJIU_CONFIG_DIR. */
function configDirFrom(options: LoadOptions): Said | string {
  return options.configDir !== undefined ? said('cli.config.fromCaller') : 'ZHUJIU_CONFIG_DIR';
}

/**
 * The error for a config path that cannot be read, as catalogue data (`cli.config.unreadable`: the command line
 * says it in its language, and {@link problemText} in the language of a problem list).
 */
function unreadable(path: string, err: unknown): AppError {
  const code = (err as NodeJS.ErrnoException).code ?? 'error';
  return saidError(
    'config_invalid',
    said('cli.config.unreadable', { path, code: causeSaid(code) }),
  );
}

/** An error's message as a line of a problem list in `locale`: its catalogue data said again, else its message. */
function problemText(err: AppError, locale: Locale): string {
  return err.said === undefined ? err.message : sayCli(locale, err.said);
}

/** The names in folder `dir`, sorted. @throws AppError `config_invalid` when it cannot be listed. */
function listFolder(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch (err) {
    throw unreadable(dir, err);
  }
}

/**
 * The suites of `config/suites/*.yaml`, their includes resolved (config/suite-include.ts). Each problem (a bad
 * file, a suite name used twice, an unknown or cyclic include, a dataset name twice in one suite) is pushed to
 * `problems`, one line naming the file.
 */
function loadSuites(
  suitesDir: string,
  cwd: string,
  problems: string[],
  locale: Locale,
): Map<string, SuiteConfig> {
  const parsed = new Map<string, ParsedSuite>();
  if (!present(suitesDir)) return new Map();
  for (const f of listFolder(suitesDir)) {
    if (!/\.ya?ml$/.test(f)) continue;
    const file = join(suitesDir, f);
    try {
      const { data, at } = parseYamlFileLocated(file, suiteSchema, cwd, locale);
      const first = parsed.get(data.name);
      if (first) {
        problems.push(
          tc(locale, 'cli.configFile.suiteTwice', {
            file: display(file, cwd),
            name: data.name,
            first: first.file,
          }),
        );
        continue;
      }
      parsed.set(data.name, { file: display(file, cwd), suite: data, at });
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      problems.push(problemText(err, locale));
    }
  }
  const resolved = resolveSuiteIncludes(parsed, locale);
  problems.push(...resolved.problems);
  return resolved.suites;
}

/**
 * The key readers of a loaded config over the raw environment `rawEnv` (LoadedConfig `apiKeyFor`, `apiKeyEmpty`,
 * `keyVariable`): functions, so the config never holds a key as data. Values are trimmed; an empty one is unset.
 */
function keyFunctions(
  models: readonly ModelConfig[],
  rawEnv: LoadOptions['env'],
): Pick<LoadedConfig, 'apiKeyFor' | 'apiKeyEmpty'> & {
  keyVariable: NonNullable<LoadedConfig['keyVariable']>;
} {
  const keyVars = new Map(
    models.flatMap((m) =>
      m.provider === 'openai' && m.api_key_env ? [[m.name, m.api_key_env] as const] : [],
    ),
  );
  const keyVariable = (variable: string) => {
    const value = rawEnv[variable]?.trim();
    return { value: value === '' ? undefined : value, empty: value === '' };
  };
  return {
    apiKeyFor: (modelName) => {
      const v = keyVars.get(modelName);
      return v === undefined ? undefined : keyVariable(v).value;
    },
    apiKeyEmpty: (modelName) => {
      const v = keyVars.get(modelName);
      return v !== undefined && keyVariable(v).empty;
    },
    keyVariable,
  };
}

/**
 * Loads the whole configuration. Missing `default.yaml` / `models.yaml` mean "all defaults"; a file that exists
 * must be valid.
 * @throws AppError `config_invalid` (with `file:line:col path: message` lines), `env_invalid`.
 */
export function loadConfig(options: LoadOptions): LoadedConfig {
  const cwd = options.cwd ?? process.cwd();
  const locale = options.locale ?? 'en';
  const env = parseEnv(options.env, locale);
  const explicitDir = options.configDir ?? env.ZHUJIU_CONFIG_DIR;
  const configDir = resolve(cwd, explicitDir ?? 'config');
  const state = explicitDir === undefined ? undefined : folderState(configDir);
  if (state?.kind === 'underFile') {
    throw saidError(
      'config_missing',
      said('cli.config.folderUnderFile', {
        dir: configDir,
        file: state.file,
        from: configDirFrom(options),
      }),
    );
  }
  if (explicitDir !== undefined && !present(configDir)) {
    throw saidError(
      'config_missing',
      said('cli.config.noFolder', { dir: configDir, from: configDirFrom(options) }),
    );
  }
  if (explicitDir !== undefined && !statSync(configDir).isDirectory()) {
    throw saidError(
      'config_missing',
      said('cli.config.folderIsFile', { dir: configDir, from: configDirFrom(options) }),
    );
  }
  const dataDir = resolve(cwd, options.dataDir ?? env.ZHUJIU_DATA_DIR ?? join('data', 'pg'));
  const datasetsDir = resolve(cwd, options.datasetsDir ?? env.ZHUJIU_DATASETS_DIR ?? 'datasets');
  const datasetsCacheDir = resolve(
    cwd,
    env.ZHUJIU_DATASETS_CACHE ?? join('data', 'datasets-cache'),
  );
  const datasetRoots = (env.ZHUJIU_DATASETS_ROOTS ?? '')
    .split(delimiter)
    .filter((p) => p.trim() !== '')
    .map((p) => resolve(cwd, p.trim()));
  const problems: string[] = [];
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (err) {
      if (err instanceof AppError) {
        problems.push(problemText(err, locale));
        return fallback;
      }
      throw err;
    }
  };

  const defaultFile = join(configDir, 'default.yaml');
  const noPosition = (shown: string) => () => shown;
  let atDefault: (path: readonly (string | number)[]) => string = noPosition('(defaults)');
  const app = present(defaultFile)
    ? attempt(() => {
        const r = parseYamlFileLocated(defaultFile, appConfigSchema, cwd, locale);
        atDefault = r.at;
        return r.data;
      }, appConfigSchema.parse({}))
    : appConfigSchema.parse({});
  const modelsFile = join(configDir, 'models.yaml');
  let atModels: (path: readonly (string | number)[]) => string = noPosition('(no models.yaml)');
  const models = present(modelsFile)
    ? attempt(() => {
        const r = parseYamlFileLocated(modelsFile, modelsFileSchema, cwd, locale);
        atModels = r.at;
        return r.data.models;
      }, [] as ModelConfig[])
    : [];
  const first = new Map<string, number>();
  models.forEach((m, i) => {
    const prev = first.get(m.name);
    if (prev !== undefined) {
      problems.push(
        tc(locale, 'cli.configFile.modelTwice', {
          at: atModels(['models', i, 'name']),
          i: i + 1,
          name: m.name,
          first: atModels(['models', prev, 'name']),
        }),
      );
    } else first.set(m.name, i);
  });
  const suites = loadSuites(join(configDir, 'suites'), cwd, problems, locale);
  if (problems.length > 0) throw new AppError('config_invalid', problems.join('\n'));
  const finalApp: AppConfig = {
    ...app,
    log: { level: env.LOG_LEVEL ?? app.log.level },
    http: { host: env.ZHUJIU_HTTP_HOST ?? app.http.host, port: env.PORT ?? app.http.port },
    platforms: {
      ...app.platforms,
      slack: { ...app.platforms.slack, host: env.ZHUJIU_SLACK_HOST ?? app.platforms.slack.host },
    },
  };
  return deepFreeze({
    ...keyFunctions(models, options.env),
    app: finalApp,
    models,
    suites,
    env,
    configDir,
    files: configFilesIn(configDir, cwd),
    dataDir,
    datasetsDir,
    datasetsCacheDir,
    datasetRoots,
    locate: (file: 'default' | 'models', path: readonly (string | number)[]) =>
      file === 'default' ? atDefault(path) : atModels(path),
  });
}
