/**
 * @module storage/submissions
 * The `submissions` aggregate (migration 0011): models submitted in chat, pending until a maintainer approves or
 * rejects them. Every change of state is one transaction: an approval creates the model's `models` row (its
 * endpoint in `config`, never a key) and marks the submission approved together, so nothing is ever half
 * registered.
 */
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, SubmissionsTable } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;
/** A chat platform's name, as `submissions.submitter_platform` holds it. */
type PlatformName = NonNullable<SubmissionsTable['submitter_platform']>;

/** A stored submission. */
export type SubmissionRow = Selectable<SubmissionsTable>;

/** What a person submits (already checked by eval/submissions `submissionProblems`). */
export interface NewSubmission {
  readonly name: string;
  readonly baseUrl: string;
  readonly model: string;
  readonly description: string;
  readonly organisation: string;
  readonly licence: string;
  /** Where the submitter can be told of decisions; platform and channel are null for a submission without chat. */
  readonly submitter: {
    readonly platform: PlatformName | null;
    readonly userId: string;
    readonly channelId: string | null;
  };
}

/**
 * Why a name cannot be used: held by a model of the `models` table (configured, imported or approved), or by a
 * submission that is not rejected. Undefined when it is free.
 */
export async function nameHolder(
  db: Conn,
  name: string,
): Promise<
  { readonly kind: 'model' } | { readonly kind: 'submission'; readonly id: number } | undefined
> {
  const model = await db
    .selectFrom('models')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  if (model) return { kind: 'model' };
  const sub = await db
    .selectFrom('submissions')
    .select('id')
    .where('name', '=', name)
    .where('status', '<>', 'rejected')
    .executeTakeFirst();
  return sub ? { kind: 'submission', id: sub.id } : undefined;
}

/**
 * Stores a pending submission, in one transaction with the check that its name is free (the partial unique index
 * `submissions_name_held` also stops two at once).
 * @returns the stored row, or who holds the name.
 */
export async function insertSubmission(
  db: Kysely<Database>,
  s: NewSubmission,
): Promise<
  | { readonly ok: true; readonly row: SubmissionRow }
  | { readonly ok: false; readonly heldBy: 'model' | 'submission'; readonly id?: number }
> {
  return db.transaction().execute(async (tx) => {
    const held = await nameHolder(tx, s.name);
    if (held)
      return {
        ok: false,
        heldBy: held.kind,
        ...(held.kind === 'submission' ? { id: held.id } : {}),
      };
    const row = await tx
      .insertInto('submissions')
      .values({
        name: s.name,
        base_url: s.baseUrl,
        model: s.model,
        description: s.description,
        organisation: s.organisation,
        licence: s.licence,
        submitter_platform: s.submitter.platform,
        submitter_id: s.submitter.userId,
        submitter_channel: s.submitter.channelId,
        notified_status: 'pending',
      })
      .onConflict((oc) => oc.column('name').where('status', '<>', 'rejected').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row ? { ok: true, row } : { ok: false, heldBy: 'submission' };
  });
}

/** One submission by id. */
export async function getSubmission(db: Conn, id: number): Promise<SubmissionRow | undefined> {
  return db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Submissions, newest first: of one status and/or one submitter (`platform:userId`), at most `limit` (default 50).
 */
export async function listSubmissions(
  db: Conn,
  o: {
    readonly status?: SubmissionRow['status'];
    readonly submitter?: { readonly platform: PlatformName; readonly userId: string };
    readonly limit?: number;
  } = {},
): Promise<SubmissionRow[]> {
  let q = db.selectFrom('submissions').selectAll();
  if (o.status) q = q.where('status', '=', o.status);
  if (o.submitter) {
    q = q
      .where('submitter_platform', '=', o.submitter.platform)
      .where('submitter_id', '=', o.submitter.userId);
  }
  return q
    .orderBy('id', 'desc')
    .limit(o.limit ?? 50)
    .execute();
}

/** The approved submissions, by name: the models they registered (eval/service merges them with config). */
export async function approvedSubmissions(db: Conn): Promise<SubmissionRow[]> {
  return db
    .selectFrom('submissions')
    .selectAll()
    .where('status', '=', 'approved')
    .orderBy('name')
    .execute();
}

/** The approved submission named `name`, if any. */
export async function approvedSubmission(
  db: Conn,
  name: string,
): Promise<SubmissionRow | undefined> {
  return db
    .selectFrom('submissions')
    .selectAll()
    .where('status', '=', 'approved')
    .where('name', '=', name)
    .executeTakeFirst();
}

/** What {@link decideSubmission} did. */
export type DecideResult =
  | { readonly ok: true; readonly row: SubmissionRow }
  | { readonly ok: false; readonly why: 'not_found' }
  | { readonly ok: false; readonly why: 'decided'; readonly row: SubmissionRow }
  | { readonly ok: false; readonly why: 'name_taken' };

/**
 * Approves or rejects pending submission `id`, in one transaction with its row locked: an approval first creates
 * the model's `models` row (provider `openai`, the endpoint and `api_key_env` in `config`) and fails as
 * `name_taken` when a model of that name appeared meanwhile; a submission already decided is left as it is.
 */
export async function decideSubmission(
  db: Kysely<Database>,
  id: number,
  d:
    | {
        readonly approve: true;
        readonly by: string;
        readonly apiKeyEnv: string | null;
        readonly at: Date;
      }
    | { readonly approve: false; readonly by: string; readonly reason: string; readonly at: Date },
): Promise<DecideResult> {
  return db.transaction().execute(async (tx): Promise<DecideResult> => {
    const row = await tx
      .selectFrom('submissions')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { ok: false, why: 'not_found' };
    if (row.status !== 'pending') return { ok: false, why: 'decided', row };
    let modelId: number | null = null;
    if (d.approve) {
      const model = await tx
        .insertInto('models')
        .values({
          name: row.name,
          provider: 'openai',
          config: JSON.stringify({
            base_url: row.base_url,
            model: row.model,
            api_key_env: d.apiKeyEnv,
            submission: row.id,
          }),
        })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('id')
        .executeTakeFirst();
      if (!model) return { ok: false, why: 'name_taken' };
      modelId = model.id;
    }
    const updated = await tx
      .updateTable('submissions')
      .set({
        status: d.approve ? 'approved' : 'rejected',
        decided_by: d.by,
        decided_at: d.at,
        reason: d.approve ? null : d.reason,
        api_key_env: d.approve ? d.apiKeyEnv : null,
        model_id: modelId,
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { ok: true, row: updated };
  });
}

/** Records the evaluation runs queued for approved submission `id`. */
export async function setSubmissionRuns(
  db: Conn,
  id: number,
  runIds: readonly number[],
): Promise<void> {
  await db
    .updateTable('submissions')
    .set({ run_ids: JSON.stringify(runIds) })
    .where('id', '=', id)
    .execute();
}

/** Submissions from `platform` whose status the submitter has not been told of yet, oldest first. */
export async function untoldSubmissions(
  db: Conn,
  platform: PlatformName,
): Promise<SubmissionRow[]> {
  return db
    .selectFrom('submissions')
    .selectAll()
    .where('submitter_platform', '=', platform)
    .where('submitter_channel', 'is not', null)
    .where((eb) =>
      eb.or([eb('notified_status', 'is', null), eb('notified_status', '<>', eb.ref('status'))]),
    )
    .orderBy('id')
    .limit(100)
    .execute();
}

/**
 * Marks that the submitter was told status `status` of submission `id`.
 * @returns false when another process told them first (nothing changed).
 */
export async function markToldSubmission(db: Conn, id: number, status: string): Promise<boolean> {
  const r = await db
    .updateTable('submissions')
    .set({ notified_status: status })
    .where('id', '=', id)
    .where('status', '=', status as SubmissionRow['status'])
    .where((eb) => eb.or([eb('notified_status', 'is', null), eb('notified_status', '<>', status)]))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}
