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
import { modelNameIssue } from '../config/model-name.ts';
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
import { type EvalRefusal, evalRefusalText } from './refusal.ts';
import type { EvalService } from './service.ts';
import {
  type BaseUrlIssue,
  type FormProblem,
  type SubmissionProblem,
  submissionProblemText,
} from './submission-problems.ts';

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
 * key is never given in chat), or too long. Undefined when it is fine.
 */
export function baseUrlIssue(url: string): BaseUrlIssue | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { code: 'not_url', url };
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    return { code: 'not_http', url, scheme: u.protocol.replace(/:$/, '') };
  if (u.username !== '' || u.password !== '') return { code: 'credentials' };
  if (url.length > SUBMISSION_LIMITS.baseUrl)
    return { code: 'too_long', chars: url.length, max: SUBMISSION_LIMITS.baseUrl };
  return undefined;
}

/**
 * Every problem of a submission, each naming the field (eval/submission-problems.ts says it with the fix):
 * missing fields, the model-name rule (config/model-name.ts), a name configured in config/models.yaml, the base URL
 * ({@link baseUrlIssue}), and the lengths of {@link SUBMISSION_LIMITS}. Names held in the database are checked
 * when it is stored.
 * @returns an empty list when the submission may be stored.
 */
export function submissionProblems(
  s: SubmissionInput,
  configuredNames: readonly string[],
): FormProblem[] {
  const problems: FormProblem[] = [];
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
  if (missing.length > 0) problems.push({ code: 'missing', fields: missing.map(([k]) => k) });
  if (s.name !== '') {
    const issue = modelNameIssue(s.name);
    if (issue) problems.push({ code: 'bad_name', name: s.name, issue });
    else if (configuredNames.includes(s.name))
      problems.push({ code: 'name_configured', name: s.name });
  }
  if (s.baseUrl !== '') {
    const issue = baseUrlIssue(s.baseUrl);
    if (issue) problems.push({ code: 'bad_url', issue });
  }
  for (const [key, field] of [
    ['model', 'model'],
    ['description', 'description'],
    ['org', 'organisation'],
    ['licence', 'licence'],
  ] as const) {
    const n = [...s[field]].length;
    if (n > SUBMISSION_LIMITS[field])
      problems.push({ code: 'too_long', field: key, chars: n, max: SUBMISSION_LIMITS[field] });
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
      /** Why, for eval/submission-problems.ts to say in a language. */
      readonly problem: SubmissionProblem;
      /** {@link problem} in English (the command line, the logs). */
      readonly reason: string;
      /** `not_found`: no such submission; `conflict`: decided already, or its name is taken; else `input_invalid`. */
      readonly code: 'not_found' | 'conflict' | 'input_invalid';
    };

/** What an approval queued: a run per suite, or why a suite was not queued. */
export interface ApprovalRuns {
  readonly runs: readonly { readonly suite: string; readonly run: number }[];
  readonly refused: readonly {
    readonly suite: string;
    /** Why, for eval/refusal.ts to say in a language. */
    readonly refusals: readonly EvalRefusal[];
    /** {@link refusals} in English, with the fix in the form of the approval's surface. */
    readonly reason: string;
  }[];
}

/** A refused request: why, in the form of {@link Outcome}. */
type Refusal = {
  readonly ok: false;
  readonly code: 'not_found' | 'conflict' | 'input_invalid';
  readonly problem: SubmissionProblem;
  readonly reason: string;
};

/** The {@link Refusal} of `problem`, its English text as `reason`. */
function refusal(code: Refusal['code'], problem: SubmissionProblem): Refusal {
  return { ok: false, code, problem, reason: submissionProblemText(problem, 'en') };
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
    if (problems.length > 0) return refusal('input_invalid', { code: 'invalid', problems });
    const stored = await insertSubmission(this.#o.db, { ...clean, submitter });
    if (!stored.ok)
      return refusal('conflict', {
        code: 'name_taken',
        name: clean.name,
        by: stored.heldBy === 'model' ? 'model' : 'submission',
        id: stored.id,
      });
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
  #notDecided(id: number, r: Awaited<ReturnType<typeof decideSubmission>>): Refusal {
    if (!r.ok && r.why === 'not_found') return refusal('not_found', { code: 'no_submission', id });
    if (!r.ok && r.why === 'decided')
      return refusal('conflict', { code: 'decided', id, status: r.row.status });
    return refusal('conflict', { code: 'name_now_model', id });
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
    const keyProblem = this.#keyProblem(id, o.apiKeyEnv);
    if (keyProblem) return refusal('input_invalid', keyProblem);
    const pending = await getSubmission(this.#o.db, id);
    if (pending && this.#o.evals.configuredModelNames().includes(pending.name))
      return refusal('conflict', { code: 'name_now_configured', id, name: pending.name });
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

  /** Why `apiKeyEnv` cannot be used to approve submission `id`, or undefined. */
  #keyProblem(id: number, apiKeyEnv: string | undefined): SubmissionProblem | undefined {
    if (apiKeyEnv === undefined) return undefined;
    if (!API_KEY_ENV_PATTERN.test(apiKeyEnv))
      return { code: 'bad_key_variable', id, variable: apiKeyEnv };
    const k = this.#o.evals.keyVariable(apiKeyEnv);
    if (k.value === undefined)
      return { code: 'key_unset', id, variable: apiKeyEnv, empty: k.empty };
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
    if (suites.length === 0) {
      const none: EvalRefusal = {
        code: 'no_submission_suites',
        fallback: FALLBACK_SUBMISSION_SUITE,
      };
      const reason = evalRefusalText(none, 'en', surface);
      return {
        runs: [],
        refused: [{ suite: this.#o.suites.join(', ') || '(none)', refusals: [none], reason }],
      };
    }
    const runs: { suite: string; run: number }[] = [];
    const refused: ApprovalRuns['refused'][number][] = [];
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
      else refused.push({ suite, refusals: started.refusals, reason: started.reason });
    }
    return { runs, refused };
  }

  /** Rejects pending submission `id` with `reason` (required: the submitter is told it). */
  async reject(
    id: number,
    o: { readonly by: string; readonly reason: string },
  ): Promise<Outcome<{ readonly row: SubmissionRow }>> {
    const reason = o.reason.trim();
    if (reason === '') return refusal('input_invalid', { code: 'no_reason', id });
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
