/**
 * @module config/schema
 * zod schemas for the YAML configuration files and the environment. Types are inferred from them.
 */
import { Cron } from 'croner';
import { z } from 'zod';
import { listSaid } from '../i18n/cli.ts';
import { idOfName, type NameKind } from '../i18n/display-names.ts';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '../i18n/index.ts';
import { shown } from '../i18n/quote.ts';
import { ABILITIES } from './abilities.ts';
import { modelNameSaid } from './model-name.ts';
import { schemaMessage, schemaSaid } from './schema-messages.ts';

export { ABILITIES, type Ability } from './abilities.ts';
export { MAX_MODEL_NAME_CHARS, modelNameProblem } from './model-name.ts';

/** The three evaluation methods (docs/scoring.md §1). */
export const METHODS = ['metrics', 'scoring', 'comparative'] as const;
/** One evaluation method. */
export type Method = (typeof METHODS)[number];

/**
 * The vote emoji of one platform: left, equal, right and both bad (`bothbad`, docs/scoring.md §4.1: absent in a
 * file written before it existed, it takes the platform's default, 👎).
 */
const emojiSet = (bothbad: string) =>
  z
    .strictObject({
      left: z.string().min(1),
      equal: z.string().min(1),
      right: z.string().min(1),
      bothbad: z.string().min(1).default(bothbad),
    })
    .superRefine((e, ctx) => {
      // One emoji for two choices would make every such reaction count as the first choice only.
      const keys = ['left', 'equal', 'right', 'bothbad'] as const;
      const norm = (x: string) =>
        x
          .normalize('NFC')
          .replace(/[\uFE0E\uFE0F]/g, '')
          .trim();
      keys.forEach((k, i) => {
        const same = keys.slice(0, i).find((j) => norm(e[j]) === norm(e[k]));
        if (same) {
          ctx.addIssue({
            code: 'custom',
            path: [k],
            message: schemaMessage('cli.schema.emojiTaken', { emoji: String(e[k]), choice: same }),
          });
        }
      });
    });

/**
 * A platform endpoint (`platforms.*.api_url`, `gateway_url`): an absolute URL with one of `protocols`, or null for
 * the platform's own.
 */
function endpointUrl(protocols: readonly [string, string]) {
  return z
    .string()
    .refine(
      (u) => {
        try {
          return protocols.includes(new URL(u).protocol);
        } catch {
          return false;
        }
      },
      {
        message: schemaMessage('cli.schema.absoluteUrl', {
          first: protocols[0]?.replace(':', '') ?? '',
          second: protocols[1]?.replace(':', '') ?? '',
        }),
      },
    )
    .nullable()
    .default(null);
}

/**
 * An absolute `http://` or `https://` URL (a model's `base_url`, `leaderboard.public_url`). `z.url()` alone takes
 * any scheme, and the WHATWG URL parser reads `localhost:8000` as the scheme `localhost:`, so a URL written without
 * `http://` passed and failed only when called; refused here naming the value and an example.
 */
function httpUrl(example: string) {
  return z.string().refine(
    (u) => {
      try {
        const p = new URL(u).protocol;
        return p === 'http:' || p === 'https:';
      } catch {
        return false;
      }
    },
    {
      error: (iss) =>
        schemaMessage('cli.schema.httpUrl', { example, got: shown(String(iss.input)) }),
    },
  );
}

/** `config/default.yaml`. */
export const appConfigSchema = z.strictObject({
  /**
   * The language of the results site and of the converted chat texts (i18n/index.ts): `zh-CN` (the default of a
   * new install) or `en`. A page can be asked for in the other with `?lang=`; a chat reply seen by one person
   * follows their platform locale when it is one of these.
   */
  locale: z
    .enum(LOCALES, { message: schemaMessage('cli.schema.locale', { locales: listSaid(LOCALES) }) })
    .default(DEFAULT_LOCALE),
  http: z
    .strictObject({
      port: z.number().int().min(0).max(65535).default(8080),
      host: z.string().default('127.0.0.1'),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    })
    .prefault({}),
  database: z
    .strictObject({
      /**
       * How long `bot` / `worker` keep trying to reach a PostgreSQL server that refuses connections at start
       * (1 s doubling to 15 s apart), s; 0: give up at once.
       */
      start_retry_seconds: z.number().int().min(0).max(3600).default(60),
    })
    .prefault({}),
  arena: z
    .strictObject({
      window_hours: z
        .number()
        .positive()
        .max(24 * 365)
        .default(24),
      vote_cap: z.number().int().min(0).default(0),
      /** Vote hygiene (docs/scoring.md §4.3): flagged votes are stored and left out of ratings unless asked. */
      hygiene: z
        .strictObject({
          /** Most votes one voter casts per UTC day that count; later ones are flagged `daily_cap`. 0: no cap. */
          daily_vote_cap: z.number().int().min(0).default(0),
          /**
           * Least reading time, in milliseconds per character of the two answers: a vote cast sooner after the
           * battle was posted is flagged `too_fast`. 0: no check.
           */
          read_ms_per_char: z.number().min(0).max(10_000).default(0),
        })
        .prefault({}),
      /**
       * Minutes between two re-reads of the reactions on every open battle (besides the re-reads at start, after
       * a gap in a platform's events and before a battle closes); 0: none. README "Configuration".
       */
      reconcile_minutes: z
        .number()
        .min(0)
        .max(24 * 60)
        .default(30),
      schedule: z
        .strictObject({
          every_minutes: z.number().int().min(0).default(0),
          channels: z
            .array(
              z.strictObject({
                platform: z.enum(['discord', 'slack', 'shell']),
                channel_id: z.string().min(1),
              }),
            )
            .default([]),
        })
        .prefault({}),
      identity_guard: z
        .strictObject({
          words: z.array(z.string().min(1)).default([]),
          patterns: z
            .array(
              z.string().refine(
                (p) => {
                  try {
                    new RegExp(p, 'iu');
                    return true;
                  } catch {
                    return false;
                  }
                },
                { message: schemaMessage('cli.schema.regex') },
              ),
            )
            .default([]),
        })
        .prefault({}),
      /** `/ask` (live battles, README "The live arena"). */
      ask: z
        .strictObject({
          /** Longest prompt accepted, in characters. */
          max_prompt_chars: z.number().int().min(1).max(100_000).default(4000),
          /** Questions (first turns and follow-ups) one person may ask per window. */
          rate_limit: z
            .strictObject({
              max: z.number().int().min(1).default(5),
              window_minutes: z.number().positive().default(10),
            })
            .prefault({}),
          /** How long a model may take to answer before another replaces it. */
          answer_timeout_ms: z.number().int().positive().default(60_000),
          /** Most models tried for one battle (the two first and their replacements). */
          max_attempts: z.number().int().min(2).default(4),
          /** Least time between two edits of the progress message (platform edit rate limits). */
          progress_every_ms: z.number().int().min(0).default(2000),
          /** Most turns of one conversation (the first and the follow-ups). */
          max_turns: z.number().int().min(1).default(5),
          /** The model (config/models.yaml) that classifies untagged prompts by ability; null: none. */
          classifier_model: z.string().min(1).nullable().default(null),
          /** Longest wait for the classifier (the battle is posted without waiting for it). */
          classifier_timeout_ms: z.number().int().positive().default(30_000),
        })
        .prefault({}),
      /**
       * How people vote on battles, per platform (README "Voting"): `reactions` (emoji reactions, public counts:
       * the default) or `buttons` (four buttons; each vote is confirmed privately and the tally stays hidden until
       * the battle closes). The terminal always takes typed votes.
       */
      voting: z
        .strictObject({
          discord: z.enum(['reactions', 'buttons']).default('reactions'),
          slack: z.enum(['reactions', 'buttons']).default('reactions'),
        })
        .prefault({}),
      /**
       * Buttons mode only: the private confirmation of a vote also tells the voter which model answered left and
       * which right (Chatbot Arena's reveal after voting); that voter's vote is then final.
       */
      reveal_after_vote: z.boolean().default(false),
      /**
       * Most messages one battle takes per platform; longer answers are cut visibly and the whole battle goes
       * along as a text file (chat/render/fit.ts). The terminal shows everything.
       */
      max_messages: z
        .strictObject({
          discord: z.number().int().min(1).max(10).default(3),
          slack: z.number().int().min(1).max(10).default(1),
          shell: z.number().int().min(1).max(10).default(1),
        })
        .prefault({}),
      emoji: z
        .strictObject({
          discord: emojiSet('👎').default({
            left: '⬅️',
            equal: '🟰',
            right: '➡️',
            bothbad: '👎',
          }),
          slack: emojiSet('-1').default({
            left: 'arrow_left',
            equal: 'heavy_equals_sign',
            right: 'arrow_right',
            bothbad: '-1',
          }),
          shell: emojiSet('👎').default({ left: '⬅️', equal: '🟰', right: '➡️', bothbad: '👎' }),
        })
        .prefault({}),
    })
    .prefault({}),
  platforms: z
    .strictObject({
      discord: z
        .strictObject({
          guild_ids: z.array(z.string()).default([]),
          maintainer_role_ids: z.array(z.string()).default([]),
          /** REST base URL without the version (a proxy); null: Discord's own. */
          api_url: endpointUrl(['http:', 'https:']),
          /** Gateway WebSocket URL (a proxy), used instead of the one Discord names; null: Discord's. */
          gateway_url: endpointUrl(['ws:', 'wss:']),
        })
        .prefault({}),
      slack: z
        .strictObject({
          mode: z.enum(['socket', 'http']).default('socket'),
          port: z.number().int().min(0).max(65535).default(3000),
          host: z.string().min(1).default('127.0.0.1'),
          maintainer_user_ids: z.array(z.string()).default([]),
          maintainer_usergroup_ids: z.array(z.string()).default([]),
          /** Web API base URL ending in `/api/` (a proxy); null: Slack's own. */
          api_url: endpointUrl(['http:', 'https:']),
        })
        .prefault({}),
      shell: z
        .strictObject({
          user_id: z.string().min(1).default('local'),
          /** The name of the person at the terminal; null: "you" in the chat's language (你 in Chinese). */
          user_name: z.string().min(1).nullable().default(null),
          maintainer: z.boolean().default(true),
        })
        .prefault({}),
    })
    .prefault({}),
  /** Scoring Evaluation (docs/scoring.md §3): the judge of `/eval` runs on suites with `method: scoring` datasets. */
  judge: z
    .strictObject({
      /** The model (config/models.yaml) that judges scoring datasets during `/eval`; null: such runs are refused. */
      model: z.string().min(1).nullable().default(null),
    })
    .prefault({}),
  ratings: z
    .strictObject({
      bootstrap: z.number().int().min(0).max(100_000).default(1000),
      seed: z.number().int().default(0),
      include_sources: z
        .array(
          z
            .string()
            .regex(/^[\w.:@-]{1,64}$/, schemaMessage('cli.schema.sourceName'))
            .refine((s) => s !== 'arena', {
              message: schemaMessage('cli.schema.sourceArena'),
            }),
        )
        .default([]),
      anchor: z
        .strictObject({ model: z.string().min(1), rating: z.number() })
        .nullable()
        .default(null),
    })
    .prefault({}),
  aggregation: z
    .strictObject({
      min_votes: z.number().int().min(0).default(20),
      bootstrap: z.number().int().min(0).max(1_000_000).default(10_000),
      seed: z.number().int().default(0),
      /**
       * What the board is ranked by (docs/scoring.md §5 "Ranking"): `overall`, the mean of the seven ability
       * columns (the published ZhuJiu board's total and order), or `final`, App. A's normalised final score.
       * Intervals and "separated" follow it.
       */
      rank_by: z.enum(['overall', 'final']).default('overall'),
    })
    .prefault({}),
  /** Evaluation runs (README "Evaluation runs"). */
  eval: z
    .strictObject({
      /** Lease of a claimed item, s: a killed worker's items are taken over this long after it died. */
      lease_seconds: z.number().min(1).max(3600).default(60),
      /** pg-boss: how long a run's job may stay active before it is handed to another worker, s (< 24 h). */
      job_expire_seconds: z
        .number()
        .int()
        .min(1)
        .max(23 * 3600)
        .default(4 * 3600),
      /** pg-boss: how often expired jobs are looked for, s. */
      maintenance_seconds: z.number().int().min(1).max(3600).default(60),
      /**
       * Longest prompt built from one dataset item, characters (all its messages): a longer one is that item's
       * failure `prompt_too_long`, never sent (eval/runner).
       */
      max_prompt_chars: z.number().int().min(1).default(100_000),
      /** Least time between two edits of a progress message in chat, s. */
      progress_edit_seconds: z.number().min(1).max(600).default(5),
      /**
       * Highest share (0–1) of a run's items that may end unscored (answer failures and judge failures alike)
       * for `zhujiu eval` to exit 0; above it the run is reported as an error (exit 1). 0: any failure is one.
       */
      max_failure_rate: z.number().min(0).max(1).default(0.1),
    })
    .prefault({}),
  /** Model submissions (`/submit`, `zhujiu submissions`; README "Submissions"). */
  submissions: z
    .strictObject({
      /**
       * The suites an approved submission is queued on: those of this list that are configured and runnable; when
       * none is, `zhujiu-metrics` if it is (src/eval/submissions.ts `submissionSuites`).
       */
      suites: z.array(z.string().min(1)).default(['zhujiu']),
    })
    .prefault({}),
  leaderboard: z
    .strictObject({
      public_url: httpUrl('https://arena.example.org').nullable().default(null),
      refresh_seconds: z.number().int().min(0).default(60),
      /**
       * Most models drawn in the board chart's bars and heat map (the ranked ones first); the rest are counted in
       * a note under the title. The page and `/board.json` always list every model.
       */
      chart_rows: z.number().int().min(1).max(200).default(30),
      /**
       * Which stored board snapshots are kept, checked after each new snapshot (docs/architecture.md "Board
       * snapshots"): the `last` newest of each source set, and the newest of each UTC day of the last `days` days;
       * the others are deleted. Each model's rank and score per day are kept apart (`board_history`), so the
       * model cards' history outlives the snapshots.
       */
      keep: z
        .strictObject({
          last: z.number().int().min(1).default(10),
          days: z.number().int().min(1).default(30),
        })
        .prefault({}),
      daily_post: z
        .strictObject({
          cron: z
            .string()
            .refine(
              (c) => {
                try {
                  new Cron(c, { paused: true });
                  return true;
                } catch {
                  return false;
                }
              },
              { message: schemaMessage('cli.schema.cron') },
            )
            .nullable()
            .default(null),
          timezone: z
            .string()
            .refine(
              (tz) => {
                try {
                  new Intl.DateTimeFormat('en-US', { timeZone: tz });
                  return true;
                } catch {
                  return false;
                }
              },
              { message: schemaMessage('cli.schema.timezone') },
            )
            .default('UTC'),
          channels: z
            .array(
              z.strictObject({
                platform: z.enum(['discord', 'slack', 'shell']),
                channel_id: z.string().min(1),
              }),
            )
            .default([]),
        })
        .prefault({}),
    })
    .prefault({}),
});
/** Validated `config/default.yaml`. */
export type AppConfig = z.infer<typeof appConfigSchema>;

/**
 * The one rule for model names ({@link modelNameProblem}, config/model-name.ts) as a zod schema, for
 * config/models.yaml.
 */
export const modelNameSchema = z.string().superRefine((name, ctx) => {
  const problem = modelNameSaid(name);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: schemaSaid(problem) });
});

/** Longest dataset name (characters): the database's limit (`datasets.name`, migrations/0001). */
export const MAX_DATASET_NAME_CHARS = 200;

/**
 * Dataset names are stored as `datasets.name`, typed in commands (`--dataset`) and shown in item ids
 * (`<dataset>/<key>`): letters and digits first, then letters, digits and `. _ : @ + -` (no spaces, no `/`, so
 * `../x` is not a name).
 */
export const datasetNameSchema = z
  .string()
  .min(1, schemaMessage('cli.schema.datasetName.empty'))
  .max(
    MAX_DATASET_NAME_CHARS,
    schemaMessage('cli.schema.datasetName.tooLong', { max: MAX_DATASET_NAME_CHARS }),
  )
  .regex(/^[\p{L}\p{N}][\p{L}\p{N}._:@+-]*$/u, schemaMessage('cli.schema.datasetName.invalid'));

/**
 * What is wrong with a dataset name, by the one rule of {@link datasetNameSchema} (`config/suites/*.yaml` dataset
 * names, `import outputs --dataset`, the name `import outputs` takes from a file's name).
 * @returns a phrase to put after the name, or undefined when the name is fine.
 */
export function datasetNameProblem(name: string): string | undefined {
  const r = datasetNameSchema.safeParse(name);
  return r.success ? undefined : (r.error.issues[0]?.message ?? 'is not a valid dataset name');
}

/**
 * What the results page shows about a model on its card (all optional; README "Models"): who made it, its
 * licence, its size (as written, e.g. "7B", "8x7B"), whether its weights are open, and a link to its page.
 */
const modelInfo = {
  organisation: z.string().min(1).max(200).optional(),
  licence: z.string().min(1).max(200).optional(),
  parameters: z.string().min(1).max(50).optional(),
  open_weights: z.boolean().optional(),
  link: z.url().optional(),
};
const openAiModel = z.strictObject({
  name: modelNameSchema,
  provider: z.literal('openai'),
  base_url: httpUrl('http://127.0.0.1:8000/v1'),
  model: z.string().min(1),
  api_key_env: z
    .string()
    .regex(/^[A-Z_][A-Z0-9_]*$/, schemaMessage('cli.schema.envVarName'))
    .optional(),
  /** Sampling parameters sent with every request (temperature, top_p, max_tokens, seed...). */
  params: z.record(z.string(), z.unknown()).default({}),
  /** Timeout of one HTTP attempt, in ms. */
  timeout_ms: z.number().int().positive().default(60_000),
  /** The most requests in flight to this endpoint at once (per process). */
  max_concurrency: z.number().int().positive().max(1000).default(4),
  /** Retries of a failed attempt (429, 408, 409, 5xx, connection errors), by the openai SDK. */
  max_retries: z.number().int().min(0).max(10).default(2),
  /** The longest `Retry-After` we wait out, in ms; a server asking for longer fails the request as rate-limited. */
  max_retry_after_ms: z.number().int().min(0).default(60_000),
  /**
   * Reasoning in replies (src/llm/reply.ts): `auto` separates it from the answer and stores it; `strip`
   * separates it and drops it; `keep` reads no `<think>` tags (the text is the answer as sent).
   */
  reasoning: z.enum(['auto', 'strip', 'keep']).default('auto'),
  /** Answers `/ask` live in the arena. */
  arena: z.boolean().default(false),
  /**
   * How strongly the arena favours this model's pairs when choosing who answers `/ask` (1 = as everyone;
   * e.g. 3 for a newcomer, as Chatbot Arena boosts new models): its pairs' (votes + 1) are divided by the
   * product of the two weights before the fewest-votes-first order (arena/live-pairs.ts).
   */
  arena_weight: z.number().positive().max(100).default(1),
  ...modelInfo,
});
const recordedModel = z.strictObject({
  name: modelNameSchema,
  provider: z.literal('recorded'),
  file: z.string().optional(),
  ...modelInfo,
});

/** `config/models.yaml`. */
export const modelsFileSchema = z.strictObject({
  models: z.array(z.discriminatedUnion('provider', [openAiModel, recordedModel])).default([]),
});
/** One configured model. */
export type ModelConfig = z.infer<typeof modelsFileSchema>['models'][number];

/** A model's card details from config/models.yaml (see `modelInfo` above). */
export interface ModelInfo {
  readonly organisation?: string;
  readonly licence?: string;
  readonly parameters?: string;
  readonly open_weights?: boolean;
  readonly link?: string;
}

/** The card details of each configured model that has any, by name. */
export function modelInfos(models: readonly ModelConfig[]): Map<string, ModelInfo> {
  const out = new Map<string, ModelInfo>();
  for (const m of models) {
    const info: ModelInfo = {
      ...(m.organisation !== undefined ? { organisation: m.organisation } : {}),
      ...(m.licence !== undefined ? { licence: m.licence } : {}),
      ...(m.parameters !== undefined ? { parameters: m.parameters } : {}),
      ...(m.open_weights !== undefined ? { open_weights: m.open_weights } : {}),
      ...(m.link !== undefined ? { link: m.link } : {}),
    };
    if (Object.keys(info).length > 0) out.set(m.name, info);
  }
  return out;
}

/** Dataset formats the suite loader reads (src/eval/datasets/). */
export const DATASET_LOADERS = [
  'c3',
  'cmrc2018',
  'drcd',
  'ocnli',
  'cluewsc2020',
  'chid',
  'ccpm',
  'math23k',
  'gaokao',
  // Scoring Evaluation (judged by an LLM with a rubric; src/eval/datasets/scoring-sets.ts)
  'alignbench',
  'mt_bench',
  'gaokao_subjective',
  'safetybench_zh',
  'flames',
  'cvalues',
  'selfaware',
  'chisafetybench',
  // Derived from a base dataset's items (src/eval/robustness/): needs `task:` and `base:`, reads no files itself
  'robustness',
  // Constructed by `zhujiu datasets build` (src/eval/datasets/knowledge/)
  'knowledge',
] as const;
/** One dataset format. */
export type DatasetLoaderName = (typeof DATASET_LOADERS)[number];

/** A dataset file: a path relative to the datasets folder, or a URL with the SHA-256 of its bytes. */
export const datasetFileSchema = z.union([
  z.string().min(1),
  z.strictObject({
    url: z.url({ protocol: /^https?$/ }),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, schemaMessage('cli.schema.sha256')),
  }),
]);
/** A dataset file entry. */
export type DatasetFileSpec = z.infer<typeof datasetFileSchema>;

/** The six robustness tasks of ZhuJiu (§2.3.7), derived datasets of `loader: robustness` (src/eval/robustness/). */
export const ROBUSTNESS_TASKS = [
  'error_message',
  'redundant_information',
  'redundant_dialogue',
  'format_output',
  'dialect',
  'unique_solution',
] as const;
/** One robustness task. */
export type RobustnessTask = (typeof ROBUSTNESS_TASKS)[number];

/**
 * The base dataset of a robustness dataset: an entry of a file-backed format, as in any suite (its `name` is the
 * dataset the clean scores of the drop are read from, e.g. `c3` of zhujiu-metrics; give the same files, sample
 * and seed so the derived items are a subset of its items).
 */
export const robustnessBaseSchema = z
  .strictObject({
    name: datasetNameSchema,
    loader: z.enum(DATASET_LOADERS).refine((l) => l !== 'robustness', {
      message: schemaMessage('cli.schema.baseLoader'),
    }),
    path: z.string().optional(),
    files: z.array(datasetFileSchema).min(1).optional(),
    profile: z.string().optional(),
    sample: z.number().int().positive().optional(),
    seed: z.number().int().min(0).default(0),
    shots: z.number().int().min(0).max(16).default(0),
    prompts: datasetFileSchema.optional(),
  })
  .refine((d) => d.path !== undefined || d.files !== undefined, {
    message: schemaMessage('cli.schema.pathOrFiles'),
    path: ['files'],
  });
/** The base entry of a robustness dataset. */
export type RobustnessBaseConfig = z.infer<typeof robustnessBaseSchema>;

/**
 * An ability or a method of a suite's dataset: its id, or its display name in either language (`知识`, `Knowledge`,
 * `对比评估`; i18n/display-names.ts `idOfName`), read as the id, as the command line takes them.
 */
function displayNamed<const T extends readonly [string, ...string[]]>(ids: T, kind: NameKind) {
  return z.preprocess(
    (v) => (typeof v === 'string' ? (idOfName(v, ids, kind) ?? v) : v),
    z.enum(ids),
  );
}

/** One dataset of a suite. */
export const suiteDatasetSchema = z
  .strictObject({
    name: datasetNameSchema,
    ability: displayNamed(ABILITIES, 'ability'),
    method: displayNamed(METHODS, 'method'),
    /** One file or folder, relative to the datasets folder (shorthand for `files: [path]`). */
    path: z.string().optional(),
    /** The files the loader reads (paths relative to the datasets folder, or `{url, sha256}`). */
    files: z.array(datasetFileSchema).min(1).optional(),
    /** The dataset format; required for method `metrics`. */
    loader: z.enum(DATASET_LOADERS).optional(),
    metric: z.string().optional(),
    /** Scorer profile (`default`, `cmrc2018`, `gaokao`); default: the loader's. */
    profile: z.string().optional(),
    /** Ask at most this many items: a seeded sample (the same items every time for the same seed). */
    sample: z.number().int().positive().optional(),
    seed: z.number().int().min(0).default(0),
    /** In-context examples per prompt (drawn, seeded, from rows outside the sample). */
    shots: z.number().int().min(0).max(16).default(0),
    /** GAOKAO-Bench: the `Obj_Prompt.json` file with the prefix prompt of each keyword. */
    prompts: datasetFileSchema.optional(),
    /** Scoring datasets: the judge rubric (config/rubrics/<name>.yaml), e.g. ten_point or industry_0_3. */
    rubric: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_]*$/, schemaMessage('cli.schema.rubricName'))
      .optional(),
    /** Scoring datasets: also run the separate safety-violation check on every judged answer. */
    safety_check: z.boolean().default(false),
    /** `loader: robustness`: the task (src/eval/robustness/). */
    task: z.enum(ROBUSTNESS_TASKS).optional(),
    /** `loader: robustness`: the dataset its items are derived from. */
    base: robustnessBaseSchema.optional(),
  })
  .refine((d) => d.method !== 'metrics' || d.loader !== undefined, {
    message: schemaMessage('cli.schema.metricsLoader'),
    path: ['loader'],
  })
  .refine((d) => d.method !== 'scoring' || d.rubric !== undefined, {
    message: schemaMessage('cli.schema.scoringRubric'),
    path: ['rubric'],
  })
  .refine((d) => d.loader !== 'robustness' || (d.task !== undefined && d.base !== undefined), {
    message: schemaMessage('cli.schema.robustnessTask', { tasks: listSaid(ROBUSTNESS_TASKS) }),
    path: ['task'],
  })
  .refine(
    (d) =>
      d.loader !== 'robustness' ||
      (d.path === undefined &&
        d.files === undefined &&
        d.prompts === undefined &&
        d.shots === 0 &&
        d.profile === undefined),
    {
      message: schemaMessage('cli.schema.robustnessFiles'),
      path: ['base'],
    },
  )
  .refine((d) => (d.task === undefined && d.base === undefined) || d.loader === 'robustness', {
    message: schemaMessage('cli.schema.robustnessOnly'),
    path: ['task'],
  })
  .refine(
    (d) =>
      d.loader === undefined ||
      d.loader === 'robustness' ||
      d.path !== undefined ||
      d.files !== undefined,
    {
      message: schemaMessage('cli.schema.pathOrFiles'),
      path: ['files'],
    },
  );
/** A dataset entry of a suite. */
export type SuiteDatasetConfig = z.infer<typeof suiteDatasetSchema>;

/** A suite name: the `name:` of a `config/suites/<file>.yaml`. */
export const suiteNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_.-]*$/, schemaMessage('cli.schema.suiteName'));

/**
 * One entry of a suite's `include:` (README "Datasets and suites"): another suite whose datasets join this one,
 * by name (`- zhujiu-metrics`) or with overrides (`- {suite: zhujiu-scoring, sample: 50, seed: 3}`): `sample` caps
 * every included dataset at that many items (a dataset's own smaller `sample:` stays), `seed` replaces each
 * included dataset's seed. Config/suite-include.ts resolves it.
 */
export const suiteIncludeSchema = z
  .union([
    suiteNameSchema,
    z.strictObject({
      suite: suiteNameSchema,
      /** Ask at most this many items of each included dataset (seeded; with the same seed, a subset). */
      sample: z.number().int().positive().optional(),
      /** The seed of every included dataset's sample (default: each dataset's own). */
      seed: z.number().int().min(0).optional(),
    }),
  ])
  .transform((x) => (typeof x === 'string' ? { suite: x } : x));
/** A validated `include:` entry. */
export type SuiteInclude = z.output<typeof suiteIncludeSchema>;

/**
 * A suite's `description`: one text for every language, or one per language of the catalogue
 * (`{en: …, zh-CN: …}`, at least one of them); {@link suiteDescription} picks the one to show.
 */
export const suiteDescriptionSchema = z.union([
  z.string(),
  z
    .strictObject({ en: z.string().optional(), 'zh-CN': z.string().optional() })
    .refine((d) => d.en !== undefined || d['zh-CN'] !== undefined, {
      message: schemaMessage('cli.schema.description'),
    }),
]);
/** A validated suite `description`. */
export type SuiteDescription = z.output<typeof suiteDescriptionSchema>;

/**
 * The text of a suite description in `locale`: the one text when it is a string, else the text of that language,
 * else of the other one (a description given in one language is shown in it rather than not at all).
 */
export function suiteDescription(description: SuiteDescription, locale: Locale): string {
  if (typeof description === 'string') return description;
  const other: Locale = locale === 'en' ? 'zh-CN' : 'en';
  return description[locale] ?? description[other] ?? '';
}

/** `config/suites/<name>.yaml`. */
export const suiteSchema = z
  .strictObject({
    name: suiteNameSchema,
    description: suiteDescriptionSchema.default(''),
    /** Other suites whose datasets this suite also runs (resolved by the loader, config/suite-include.ts). */
    include: z.array(suiteIncludeSchema).default([]),
    datasets: z.array(suiteDatasetSchema).default([]),
  })
  .refine((s) => s.datasets.length > 0 || s.include.length > 0, {
    message: schemaMessage('cli.schema.suiteDatasets'),
    path: ['datasets'],
    // A misspelled key (`datasetz:`) is the one problem to say: its line names the key and the fix, and the
    // missing `datasets:` it causes would be a second, misleading error.
    when: (p) =>
      !p.issues.some((i) => i.code === 'unrecognized_keys' && (i.path ?? []).length === 0),
  })
  .refine((s) => new Set(s.datasets.map((d) => d.name)).size === s.datasets.length, {
    message: schemaMessage('cli.schema.uniqueDatasets'),
    path: ['datasets'],
  });
/**
 * A validated suite. Once loaded (config/loader.ts), `datasets` holds the included suites' datasets too (with
 * their overrides) and `from` names, per dataset, the suite whose file defines it.
 */
export type SuiteConfig = z.infer<typeof suiteSchema> & {
  readonly from?: Readonly<Record<string, string>>;
};

const optionalSecret = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** The environment variables the app reads, from `LoadOptions.env` (bin/zhujiu.js passes the process's own). */
export const envSchema = z.object({
  DATABASE_URL: optionalSecret.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, schemaMessage('cli.schema.env.databaseUrl'))
      .optional(),
  ),
  ZHUJIU_DATA_DIR: optionalSecret,
  ZHUJIU_CONFIG_DIR: optionalSecret,
  /** Where dataset files of suites are looked up (default ./datasets). */
  ZHUJIU_DATASETS_DIR: optionalSecret,
  /** Where datasets given by URL are cached after their checksum is verified (default ./data/datasets-cache). */
  ZHUJIU_DATASETS_CACHE: optionalSecret,
  /**
   * More folders dataset files may really lie in (absolute paths, separated by `:`; `;` on Windows): a file of the
   * datasets folder that is a symlink into one of them is read (eval/datasets/source).
   */
  ZHUJIU_DATASETS_ROOTS: optionalSecret,
  ZHUJIU_VOTER_SECRET: optionalSecret.pipe(
    z.string().min(16, schemaMessage('cli.schema.env.voterSecret')).optional(),
  ),
  DISCORD_TOKEN: optionalSecret,
  DISCORD_APPLICATION_ID: optionalSecret,
  SLACK_BOT_TOKEN: optionalSecret,
  SLACK_APP_TOKEN: optionalSecret,
  SLACK_SIGNING_SECRET: optionalSecret,
  LOG_LEVEL: optionalSecret.pipe(
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  ),
  /** `pretty` (default: one human line per event) or `json` (JSON lines for log collectors). */
  LOG_FORMAT: optionalSecret.pipe(z.enum(['pretty', 'json']).optional()),
  /**
   * Where logs go: a file path, or `-` / `stderr`. Default: stderr, except for the bot chatting in this terminal
   * (no chat tokens, input typed or piped), which writes them to `zhujiu.log` beside the data folder.
   */
  LOG_FILE: optionalSecret,
  PORT: optionalSecret.pipe(
    z.coerce
      .number<string | undefined>({ error: schemaMessage('cli.schema.env.port') })
      .int(schemaMessage('cli.schema.env.portWhole'))
      .min(0, schemaMessage('cli.schema.env.port'))
      .max(65535, schemaMessage('cli.schema.env.port'))
      .optional(),
  ),
  ZHUJIU_HTTP_HOST: optionalSecret,
  /** The Slack HTTP receiver's address (overrides `platforms.slack.host`; the Docker image sets 0.0.0.0). */
  ZHUJIU_SLACK_HOST: optionalSecret,
});
/** Validated environment. */
export type Env = z.infer<typeof envSchema>;
