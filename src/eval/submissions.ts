/**
 * @module eval/submissions
 * Model submissions (the ZhuJiu platform's "Submission of Evaluation Model", Zhang et al., "ZhuJiu", §3): anyone
 * submits an OpenAI-compatible endpoint (a name, base URL, model id, description, organisation, licence); it waits
 * as pending until a maintainer approves it, which registers the model (a `models` row; its endpoint is merged with
 * config/models.yaml by {@link EvalService}) and queues the suites of `submissions.suites`, or rejects it with a
 * reason. The API key never travels through chat: the maintainer names the environment variable that holds it
 * (`api_key_env`) at approval, and it must be set in the approving process's environment.
 *
 * Chat (`/submit`, bot/commands/submit.ts) and the command line (`zhujiu submissions`, cli/submissions.ts) both go
 * through {@link SubmissionService}; the submitter is told of each decision by the bot that holds their platform
 * (bot/submission-notices.ts).
 */
import type { Kysely } from 'kysely';
import { modelNameProblem } from '../config/model-name.ts';
import { type ModelConfig, modelsFileSchema } from '../config/schema.ts';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../core/logger.ts';
import type { Database } from '../storage/schema.ts';
import {
  decideSubmission,
  getSubmission,
  insertSubmission,
  listSubmissions,
  type NewSubmission,
  type SubmissionRow,
  setSubmissionRuns,
} from '../storage/submissions.ts';
import type { EvalService } from './service.ts';

/** What a person submits, as typed. */
export interface SubmissionInput {
  readonly name: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly description: string;
  readonly organisation: string;
  readonly licence: string;
}

/** Longest description, organisation and licence (characters; migration 0011's limits). */
export const SUBMISSION_LIMITS = {
  baseUrl: 2000,
  model: 200,
  description: 2000,
  organisation: 200,
  licence: 200,
} as const;

/** The form of an `api_key_env` (as in config/models.yaml). */
export const API_KEY_ENV_PATTERN = /^[A-Z_][A-Z0-9_]*$/;

/** The suite queued when none of `submissions.suites` can run. */
export const FALLBACK_SUBMISSION_SUITE = 'zhujiu-metrics';

/**
 * What is wrong with the base URL of a submission: not a URL, not http(s), or holding a user name or password (a
 * key is never given in chat). Undefined when it is fine.
 */
export function baseUrlProblem(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `base URL "${url}" is not a URL; give the endpoint's address, e.g. https://api.example.com/v1`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return `base URL "${url}" is not http(s) (it is ${u.protocol.replace(/:$/, '')}:); give an http:// or https:// address`;
  if (u.username !== '' || u.password !== '')
    return 'base URL holds a user name or password; never give a key in chat: the maintainers set it in their environment';
  if (url.length > SUBMISSION_LIMITS.baseUrl)
    return `base URL is ${url.length} characters long, over ${SUBMISSION_LIMITS.baseUrl}`;
  return undefined;
}

/**
 * Every problem of a submission, each a sentence naming the field and the fix: missing fields, the model-name
 * rule (config/model-name.ts), a name configured in config/models.yaml, the base URL ({@link baseUrlProblem}), and
 * the lengths of {@link SUBMISSION_LIMITS}. Names held in the database are checked when it is stored.
 * @returns an empty list when the submission may be stored.
 */
export function submissionProblems(
  s: SubmissionInput,
  configuredNames: readonly string[],
): string[] {
  const problems: string[] = [];
  const missing = (
    [
      ['name', s.name],
      ['url', s.baseUrl],
      ['model', s.model],
      ['description', s.description],
      ['org', s.organisation],
      ['licence', s.licence],
    ] as const
  ).filter(([, v]) => v.trim() === '');
  if (missing.length > 0) problems.push(`missing ${missing.map(([k]) => k).join(', ')}`);
  if (s.name !== '') {
    const bad = modelNameProblem(s.name);
    if (bad) problems.push(`name "${s.name}" ${bad}`);
    else if (configuredNames.includes(s.name))
      problems.push(
        `name "${s.name}" is already a model of config/models.yaml; choose another name`,
      );
  }
  if (s.baseUrl !== '') {
    const bad = baseUrlProblem(s.baseUrl);
    if (bad) problems.push(bad);
  }
  for (const [key, field] of [
    ['model', 'model'],
    ['description', 'description'],
    ['org', 'organisation'],
    ['licence', 'licence'],
  ] as const) {
    const n = [...s[field]].length;
    if (n > SUBMISSION_LIMITS[field])
      problems.push(`${key} is ${n} characters long, over ${SUBMISSION_LIMITS[field]}; shorten it`);
  }
  return problems;
}

/**
 * The suites an approved submission is queued on: those of `wanted` (`submissions.suites`) that are in `runnable`
 * (configured suites eval can run), in their order; when none is, {@link FALLBACK_SUBMISSION_SUITE} if runnable;
 * else none.
 */
export function submissionSuites(wanted: readonly string[], runnable: readonly string[]): string[] {
  const out = wanted.filter((s, i) => runnable.includes(s) && wanted.indexOf(s) === i);
  if (out.length > 0) return out;
  return runnable.includes(FALLBACK_SUBMISSION_SUITE) ? [FALLBACK_SUBMISSION_SUITE] : [];
}

/** The model configuration of an approved submission (config/models.yaml's defaults for everything else). */
export function submissionModelConfig(row: SubmissionRow): ModelConfig {
  const parsed = modelsFileSchema.parse({
    models: [
      {
        name: row.name,
        provider: 'openai',
        base_url: row.base_url,
        model: row.model,
        ...(row.api_key_env ? { api_key_env: row.api_key_env } : {}),
      },
    ],
  });
  return parsed.models[0] as ModelConfig;
}

/** A refusal, or what was done. */
export type Outcome<T> =
  | ({ readonly ok: true } & T)
  | {
      readonly ok: false;
      readonly reason: string;
      /** `not_found`: no such submission; `conflict`: decided already, or its name is taken; else `input_invalid`. */
      readonly code: 'not_found' | 'conflict' | 'input_invalid';
    };

/** What an approval queued: a run per suite, or why a suite was not queued. */
export interface ApprovalRuns {
  readonly runs: readonly { readonly suite: string; readonly run: number }[];
  readonly refused: readonly { readonly suite: string; readonly reason: string }[];
}

/** Options of {@link SubmissionService}. */
export interface SubmissionServiceOptions {
  readonly db: Kysely<Database>;
  readonly logger: Logger;
  readonly clock: Clock;
  /**
   * Queues the runs of an approved model, and knows the configured model names and whether an `api_key_env` is set
   * here (EvalService `configuredModelNames`, `keyVariable`).
   */
  readonly evals: EvalService;
  /** `submissions.suites`. */
  readonly suites: readonly string[];
}

/** Submissions: submit, list, approve, reject. */
export class SubmissionService {
  readonly #o: SubmissionServiceOptions;
  readonly #log: Logger;

  constructor(o: SubmissionServiceOptions) {
    this.#o = o;
    this.#log = o.logger.child({ component: 'submissions' });
  }

  /** Checks and stores a pending submission; the reason lists every problem. */
  async submit(
    input: SubmissionInput,
    submitter: NewSubmission['submitter'],
  ): Promise<Outcome<{ readonly row: SubmissionRow }>> {
    const clean = {
      name: input.name,
      baseUrl: input.baseUrl.trim(),
      model: input.model.trim(),
      description: input.description.trim(),
      organisation: input.organisation.trim(),
      licence: input.licence.trim(),
    };
    const problems = submissionProblems(clean, this.#o.evals.configuredModelNames());
    if (problems.length > 0)
      return { ok: false, code: 'input_invalid', reason: `Not submitted: ${problems.join('; ')}.` };
    const stored = await insertSubmission(this.#o.db, { ...clean, submitter });
    if (!stored.ok) {
      return {
        ok: false,
        code: 'conflict',
        reason:
          stored.heldBy === 'model'
            ? `Not submitted: name "${clean.name}" is already a model here; choose another name.`
            : `Not submitted: name "${clean.name}" is already submitted${stored.id !== undefined ? ` (#${stored.id})` : ''}; choose another name, or wait for the maintainers' decision.`,
      };
    }
    this.#log.info({ submission: stored.row.id, name: clean.name }, 'model submitted');
    return { ok: true, row: stored.row };
  }

  /** Submissions, newest first (of one status, or one submitter's). */
  list(o: Parameters<typeof listSubmissions>[1] = {}): Promise<SubmissionRow[]> {
    return listSubmissions(this.#o.db, o);
  }

  /** One submission. */
  get(id: number): Promise<SubmissionRow | undefined> {
    return getSubmission(this.#o.db, id);
  }

  /** The refusal of a decision the storage did not make. */
  #notDecided(
    id: number,
    r: Awaited<ReturnType<typeof decideSubmission>>,
  ): { ok: false; code: 'not_found' | 'conflict'; reason: string } {
    if (!r.ok && r.why === 'not_found')
      return {
        ok: false,
        code: 'not_found',
        reason: `There is no submission #${id}; see /submit list or \`zhujiu submissions list\`.`,
      };
    if (!r.ok && r.why === 'decided')
      return {
        ok: false,
        code: 'conflict',
        reason: `Submission #${id} is already ${r.row.status}.`,
      };
    return {
      ok: false,
      code: 'conflict',
      reason: `Submission #${id} cannot be approved: a model of its name now exists; reject it and ask for another name.`,
    };
  }

  /**
   * Approves pending submission `id`: registers the model (one transaction with the status) and queues the suites
   * (`suites`, else {@link submissionSuites} of the config). Refused, with nothing changed, when `apiKeyEnv` is not
   * a variable name or is unset here, when the name is now configured or taken, or when the submission is not
   * pending. A suite that cannot be queued is listed in `refused` with the reason; the approval stands.
   */
  async approve(
    id: number,
    o: {
      readonly by: string;
      readonly apiKeyEnv?: string | undefined;
      readonly suites?: readonly string[] | undefined;
      /** Where the approval came from, so a refused suite gives that surface's fix (default `chat`). */
      readonly surface?: 'chat' | 'cli' | undefined;
    },
  ): Promise<Outcome<{ readonly row: SubmissionRow } & ApprovalRuns>> {
    const keyProblem = this.#keyProblem(o.apiKeyEnv);
    if (keyProblem)
      return {
        ok: false,
        code: 'input_invalid',
        reason: `Submission #${id} not approved: ${keyProblem}`,
      };
    const pending = await getSubmission(this.#o.db, id);
    if (pending && this.#o.evals.configuredModelNames().includes(pending.name))
      return {
        ok: false,
        code: 'conflict',
        reason: `Submission #${id} not approved: "${pending.name}" is now a model of config/models.yaml; reject it and ask for another name.`,
      };
    const r = await decideSubmission(this.#o.db, id, {
      approve: true,
      by: o.by,
      apiKeyEnv: o.apiKeyEnv ?? null,
      at: this.#o.clock.now(),
    });
    if (!r.ok) return this.#notDecided(id, r);
    this.#log.info({ submission: id, name: r.row.name, by: o.by }, 'submission approved');
    const queued = await this.#queue(r.row, o.suites, o.surface ?? 'chat');
    await setSubmissionRuns(
      this.#o.db,
      id,
      queued.runs.map((x) => x.run),
    );
    return { ok: true, row: { ...r.row, run_ids: queued.runs.map((x) => x.run) }, ...queued };
  }

  /** Why `apiKeyEnv` cannot be used, or undefined. */
  #keyProblem(apiKeyEnv: string | undefined): string | undefined {
    if (apiKeyEnv === undefined) return undefined;
    if (!API_KEY_ENV_PATTERN.test(apiKeyEnv))
      return `api_key_env "${apiKeyEnv}" is not an environment variable name (capitals, digits and _, e.g. ACME_API_KEY).`;
    const k = this.#o.evals.keyVariable(apiKeyEnv);
    if (k.value === undefined)
      return `${apiKeyEnv} is ${k.empty ? 'set but empty' : 'not set'} in this process's environment: export it (restart the bot for chat approvals), then approve again.`;
    return undefined;
  }

  /** Queues the runs of an approved model. */
  async #queue(
    row: SubmissionRow,
    asked: readonly string[] | undefined,
    surface: 'chat' | 'cli',
  ): Promise<ApprovalRuns> {
    const evals = this.#o.evals;
    const runnable = evals.suiteNames();
    const suites =
      asked && asked.length > 0 ? [...asked] : submissionSuites(this.#o.suites, runnable);
    if (suites.length === 0)
      return {
        runs: [],
        refused: [
          {
            suite: this.#o.suites.join(', ') || '(none)',
            reason: `none of submissions.suites is configured, nor ${FALLBACK_SUBMISSION_SUITE}; start a run with /eval`,
          },
        ],
      };
    const runs: { suite: string; run: number }[] = [];
    const refused: { suite: string; reason: string }[] = [];
    for (const suite of suites) {
      const started = await evals.start({
        model: row.name,
        suite,
        requestedBy: `submission:${row.id}`,
        surface,
        report:
          row.submitter_platform && row.submitter_channel
            ? { platform: row.submitter_platform, channelId: row.submitter_channel }
            : undefined,
      });
      if (started.ok) runs.push({ suite, run: started.run.id });
      else refused.push({ suite, reason: started.reason });
    }
    return { runs, refused };
  }

  /** Rejects pending submission `id` with `reason` (required: the submitter is told it). */
  async reject(
    id: number,
    o: { readonly by: string; readonly reason: string },
  ): Promise<Outcome<{ readonly row: SubmissionRow }>> {
    const reason = o.reason.trim();
    if (reason === '')
      return {
        ok: false,
        code: 'input_invalid',
        reason: `Give a reason: the submitter is told why submission #${id} is rejected.`,
      };
    const r = await decideSubmission(this.#o.db, id, {
      approve: false,
      by: o.by,
      reason,
      at: this.#o.clock.now(),
    });
    if (!r.ok) return this.#notDecided(id, r);
    this.#log.info({ submission: id, by: o.by }, 'submission rejected');
    return { ok: true, row: r.row };
  }
}
