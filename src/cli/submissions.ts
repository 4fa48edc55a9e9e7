/**
 * @module cli/submissions
 * `zhujiu submissions list|approve|reject` (eval/submissions.ts): the maintainers' side of `/submit` on the
 * command line. `approve` registers the model and creates its runs as queued: a running `bot` or `worker` takes them
 * up at its next sweep (within `eval.lease_seconds`); the bot that holds the submitter's platform tells them of the
 * decision on its next tick. Text on stdout, or JSON with `--json` (README "Submissions").
 */
import { AppError } from '../core/errors.ts';
import { evalRefusalsText } from '../eval/refusal.ts';
import { submissionProblemText } from '../eval/submission-problems.ts';
import type { ApprovalRuns, Outcome } from '../eval/submissions.ts';
import { listText, tc } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';
import type { SubmissionRow } from '../storage/submissions.ts';
import { type CliDeps, cliLocale, openCommandRuntime } from './deps.ts';
import type { CliIo } from './io.ts';

/** Flags of `zhujiu submissions list`. */
export interface SubmissionsListFlags {
  readonly status?: 'pending' | 'approved' | 'rejected';
  readonly json?: boolean;
}

/** Flags of `zhujiu submissions approve`. */
export interface SubmissionsApproveFlags {
  readonly apiKeyEnv?: string;
  readonly suite?: string[];
  readonly json?: boolean;
}

/** Flags of `zhujiu submissions reject`. */
export interface SubmissionsRejectFlags {
  readonly reason: string;
  readonly json?: boolean;
}

/** A submission as `--json` prints it. */
export function submissionJson(s: SubmissionRow): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    base_url: s.base_url,
    model: s.model,
    description: s.description,
    organisation: s.organisation,
    licence: s.licence,
    status: s.status,
    submitted_by: `${s.submitter_platform ?? 'cli'}:${s.submitter_id}`,
    submitted_at: s.submitted_at.toISOString(),
    decided_by: s.decided_by,
    decided_at: s.decided_at?.toISOString() ?? null,
    reason: s.reason,
    api_key_env: s.api_key_env,
    runs: s.run_ids,
  };
}

/** Runs `fn` with a submission service over the command's runtime (runs are created, not executed, here). */
async function withSubmissions<T>(
  deps: CliDeps,
  fn: (svc: import('../eval/submissions.ts').SubmissionService) => Promise<T>,
): Promise<T> {
  const { createEvalRuntime } = await import('../main.ts');
  const { SubmissionService } = await import('../eval/submissions.ts');
  const { systemClock } = await import('../core/clock.ts');
  const rt = deps.rt ?? (await openCommandRuntime(deps, {}));
  const evr = await createEvalRuntime(rt, { queue: false, worker: false });
  try {
    const svc = new SubmissionService({
      db: rt.db.db,
      logger: rt.logger,
      clock: deps.clock ?? systemClock,
      evals: evr.evals,
      suites: rt.config.app.submissions.suites,
    });
    return await fn(svc);
  } finally {
    await evr.stop();
    if (!deps.rt) await rt.close();
  }
}

/** Runs `zhujiu submissions list`: newest first, at most 200. */
export async function runSubmissionsList(
  io: CliIo,
  o: SubmissionsListFlags,
  deps: CliDeps,
): Promise<void> {
  const rows = await withSubmissions(deps, (svc) =>
    svc.list({ ...(o.status ? { status: o.status } : {}), limit: 200 }),
  );
  if (o.json) return io.out(JSON.stringify({ submissions: rows.map(submissionJson) }));
  const locale = cliLocale(deps);
  if (rows.length === 0)
    return io.out(
      o.status
        ? tc(locale, 'cli.submissions.noneWith', { status: o.status })
        : tc(locale, 'cli.submissions.none'),
    );
  for (const s of rows) {
    io.out(
      tc(locale, 'cli.submissions.row', {
        id: s.id,
        status: s.status.padEnd(8),
        name: s.name,
        model: s.model,
        url: s.base_url,
        organisation: s.organisation,
        licence: s.licence,
      }) +
        (s.reason ? tc(locale, 'cli.submissions.reason', { reason: s.reason }) : '') +
        (s.run_ids.length > 0
          ? tc(locale, 'cli.submissions.runs', {
              runs: listText(
                locale,
                s.run_ids.map((r) => `#${r}`),
              ),
            })
          : ''),
    );
  }
}

/**
 * The error of a refused approval or rejection, its reason in the command line's language (the service's English
 * `reason` for `en`, the same problem said in `locale` otherwise: eval/submission-problems.ts).
 */
function refusedError(r: Extract<Outcome<unknown>, { ok: false }>, locale: Locale): AppError {
  return new AppError(
    r.code,
    locale === 'en' ? r.reason : submissionProblemText(r.problem, locale),
  );
}

/**
 * Runs `zhujiu submissions approve ID`.
 * @throws AppError `input_invalid` / `not_found` / `conflict` with the service's reason (nothing changed).
 */
export async function runSubmissionsApprove(
  io: CliIo,
  id: number,
  o: SubmissionsApproveFlags,
  deps: CliDeps,
): Promise<void> {
  const r = await withSubmissions(deps, (svc) =>
    svc.approve(id, { by: 'cli', apiKeyEnv: o.apiKeyEnv, suites: o.suite, surface: 'cli' }),
  );
  if (!r.ok) throw refusedError(r, cliLocale(deps));
  if (o.json) {
    const out: { submission: Record<string, unknown> } & ApprovalRuns = {
      submission: submissionJson(r.row),
      runs: r.runs,
      refused: r.refused,
    };
    return io.out(JSON.stringify(out));
  }
  const locale = cliLocale(deps);
  io.out(tc(locale, 'cli.submissions.approved', { id, name: r.row.name }));
  for (const x of r.runs)
    io.out(tc(locale, 'cli.submissions.queued', { run: x.run, name: r.row.name, suite: x.suite }));
  for (const x of r.refused) {
    const reason = locale === 'en' ? x.reason : evalRefusalsText(x.refusals, locale, 'cli');
    // No suite to queue on: the reason names submissions.suites itself (`suite` is the service's English list).
    io.out(
      x.refusals[0]?.code === 'no_submission_suites'
        ? tc(locale, 'cli.submissions.notQueuedAny', { reason })
        : tc(locale, 'cli.submissions.notQueued', { suite: x.suite, reason }),
    );
  }
}

/**
 * Runs `zhujiu submissions reject ID --reason TEXT`.
 * @throws AppError with the service's reason (nothing changed).
 */
export async function runSubmissionsReject(
  io: CliIo,
  id: number,
  o: SubmissionsRejectFlags,
  deps: CliDeps,
): Promise<void> {
  const r = await withSubmissions(deps, (svc) => svc.reject(id, { by: 'cli', reason: o.reason }));
  if (!r.ok) throw refusedError(r, cliLocale(deps));
  if (o.json) return io.out(JSON.stringify({ submission: submissionJson(r.row) }));
  io.out(
    tc(cliLocale(deps), 'cli.submissions.rejected', {
      id,
      name: r.row.name,
      reason: r.row.reason ?? '',
    }),
  );
}
