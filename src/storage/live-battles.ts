/**
 * @module storage/live-battles
 * Live battles (`/ask`, migration 0006): creating one with its first turn, adding follow-up turns, the asker's
 * recent questions (rate limit), the classifier's ability (never over a tag or a maintainer's choice), a
 * maintainer's override and void (both written to `battle_audit` in the same transaction), and the list of
 * unclassified battles.
 */
import type { Kysely, Transaction } from 'kysely';
import type { AbilitySource, Database } from './schema.ts';

type Conn = Kysely<Database> | Transaction<Database>;

/** One turn's texts. */
export interface TurnTexts {
  readonly turn: number;
  readonly prompt: string;
  readonly answerLeft: string;
  readonly answerRight: string;
}

/** A live battle to create (pending until posted). */
export interface NewLiveBattle {
  readonly leftModelId: number;
  readonly rightModelId: number;
  readonly askerHash: string;
  readonly seed: number;
  readonly ability: string | null;
  readonly abilitySource: AbilitySource | null;
  readonly prompt: string;
  readonly answerLeft: string;
  readonly answerRight: string;
  readonly latencyLeftMs: number;
  readonly latencyRightMs: number;
  readonly askedAt: Date;
  readonly answeredAt: Date;
}

/**
 * Creates a pending live battle and its first turn in one transaction; returns the battle's internal id and its
 * number in the community's arena (what its message shows; migration 0008).
 */
export async function createLiveBattle(
  db: Kysely<Database>,
  b: NewLiveBattle,
): Promise<{ id: number; number: number }> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto('battles')
      .values({
        item_id: null,
        ability: b.ability,
        ability_source: b.abilitySource,
        model_left_id: b.leftModelId,
        model_right_id: b.rightModelId,
        seed: b.seed,
        source: 'arena',
        kind: 'live',
        asker_hash: b.askerHash,
        turns: 1,
      })
      .returning(['id', 'number'])
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('battle_turns')
      .values({
        battle_id: row.id,
        turn: 1,
        prompt: b.prompt,
        answer_left: b.answerLeft,
        answer_right: b.answerRight,
        latency_left_ms: Math.round(b.latencyLeftMs),
        latency_right_ms: Math.round(b.latencyRightMs),
        asker_hash: b.askerHash,
        asked_at: b.askedAt,
        answered_at: b.answeredAt,
      })
      .execute();
    return { id: row.id, number: Number(row.number) };
  });
}

/**
 * Adds turn `turn` to a live battle (the next one) and bumps its turn count, in one transaction.
 * @returns false when another follow-up took that turn number first (nothing written).
 */
export async function addTurn(
  db: Kysely<Database>,
  battleId: number,
  t: TurnTexts & {
    readonly askerHash: string;
    readonly latencyLeftMs: number;
    readonly latencyRightMs: number;
    readonly askedAt: Date;
    readonly answeredAt: Date;
    readonly messageIds: readonly string[];
  },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .insertInto('battle_turns')
      .values({
        battle_id: battleId,
        turn: t.turn,
        prompt: t.prompt,
        answer_left: t.answerLeft,
        answer_right: t.answerRight,
        latency_left_ms: Math.round(t.latencyLeftMs),
        latency_right_ms: Math.round(t.latencyRightMs),
        asker_hash: t.askerHash,
        asked_at: t.askedAt,
        answered_at: t.answeredAt,
        message_ids: JSON.stringify(t.messageIds),
      })
      .onConflict((oc) => oc.columns(['battle_id', 'turn']).doNothing())
      .returning('turn')
      .executeTakeFirst();
    if (r === undefined) return false;
    await trx.updateTable('battles').set({ turns: t.turn }).where('id', '=', battleId).execute();
    return true;
  });
}

/** Every turn of a battle, in order. */
export async function listTurns(db: Conn, battleId: number): Promise<TurnTexts[]> {
  const rows = await db
    .selectFrom('battle_turns')
    .select(['turn', 'prompt', 'answer_left', 'answer_right'])
    .where('battle_id', '=', battleId)
    .orderBy('turn')
    .execute();
  return rows.map((r) => ({
    turn: r.turn,
    prompt: r.prompt,
    answerLeft: r.answer_left,
    answerRight: r.answer_right,
  }));
}

/** When the asker's questions (first turns and follow-ups) since `since` were asked, oldest first. */
export async function askTimesSince(db: Conn, askerHash: string, since: Date): Promise<Date[]> {
  const rows = await db
    .selectFrom('battle_turns')
    .select('asked_at')
    .where('asker_hash', '=', askerHash)
    .where('asked_at', '>=', since)
    .orderBy('asked_at')
    .execute();
  return rows.map((r) => new Date(r.asked_at));
}

/**
 * Stores the classifier's ability for a battle, unless it already has one (a tag or a maintainer's override wins).
 * @returns true when stored.
 */
export async function setClassifiedAbility(
  db: Conn,
  battleId: number,
  c: { ability: string; classifier: string; version: string },
): Promise<boolean> {
  const r = await db
    .updateTable('battles')
    .set({
      ability: c.ability,
      ability_source: 'classifier',
      ability_classifier: c.classifier,
      ability_classifier_version: c.version,
    })
    .where('id', '=', battleId)
    .where('ability_source', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Records which classifier looked at an unclassified battle (its answer could not be parsed). */
export async function markClassifierTried(
  db: Conn,
  battleId: number,
  c: { classifier: string; version: string },
): Promise<void> {
  await db
    .updateTable('battles')
    .set({ ability_classifier: c.classifier, ability_classifier_version: c.version })
    .where('id', '=', battleId)
    .where('ability_source', 'is', null)
    .execute();
}

/** A maintainer sets a battle's ability (wins over a tag and the classifier); audited. @returns false if no battle. */
export async function overrideAbility(
  db: Kysely<Database>,
  battleId: number,
  ability: string,
  actorHash: string,
  at: Date,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('battles')
      .set({ ability, ability_source: 'maintainer' })
      .where('id', '=', battleId)
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) !== 1) return false;
    await trx
      .insertInto('battle_audit')
      .values({
        battle_id: battleId,
        action: 'ability_override',
        actor_hash: actorHash,
        ability,
        at,
      })
      .execute();
    return true;
  });
}

/**
 * Voids a battle in any state: it leaves every rating (they all skip void battles) while its votes and vote events
 * stay as the audit log; the void itself is audited.
 * @returns the status it had, or undefined when there is no such battle. Voiding a void battle changes nothing.
 */
export async function voidAnyBattle(
  db: Kysely<Database>,
  battleId: number,
  actorHash: string,
  reason: string | null,
  at: Date,
): Promise<string | undefined> {
  return db.transaction().execute(async (trx) => {
    const b = await trx
      .selectFrom('battles')
      .select('status')
      .where('id', '=', battleId)
      .forUpdate()
      .executeTakeFirst();
    if (!b) return undefined;
    if (b.status === 'void') return 'void';
    await trx
      .updateTable('battles')
      .set({
        status: 'void',
        voided_at: at,
        voided_by: actorHash,
        void_reason: reason,
        // Why voting ended stays what it was for a battle that had closed already.
        ...(b.status === 'closed' ? {} : { close_reason: 'voided' as const }),
      })
      .where('id', '=', battleId)
      .execute();
    await trx
      .insertInto('battle_audit')
      .values({ battle_id: battleId, action: 'void', actor_hash: actorHash, reason, at })
      .execute();
    return b.status;
  });
}

/** An unclassified live battle. */
export interface UnclassifiedBattle {
  readonly id: number;
  /** Its number in the community's arena (what chat shows and `/arena ability` takes). */
  readonly number: number;
  readonly status: string;
  readonly createdAt: Date;
  readonly prompt: string;
  readonly classifier: string | null;
}

/** Live battles without an ability (not void), oldest first, at most `limit`. */
export async function listUnclassified(db: Conn, limit = 50): Promise<UnclassifiedBattle[]> {
  const rows = await db
    .selectFrom('battles as b')
    .leftJoin('battle_turns as t', (j) => j.onRef('t.battle_id', '=', 'b.id').on('t.turn', '=', 1))
    .select(['b.id', 'b.number', 'b.status', 'b.created_at', 't.prompt', 'b.ability_classifier'])
    .where('b.kind', '=', 'live')
    .where('b.ability', 'is', null)
    .where('b.status', '<>', 'void')
    .orderBy('b.id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    number: Number(r.number),
    status: r.status,
    createdAt: new Date(r.created_at),
    prompt: r.prompt ?? '',
    classifier: r.ability_classifier,
  }));
}

/** The stored ability fields of a battle (tests, `/arena` answers). */
export async function abilityOf(
  db: Conn,
  battleId: number,
): Promise<
  | {
      ability: string | null;
      source: AbilitySource | null;
      classifier: string | null;
      version: string | null;
    }
  | undefined
> {
  const r = await db
    .selectFrom('battles')
    .select(['ability', 'ability_source', 'ability_classifier', 'ability_classifier_version'])
    .where('id', '=', battleId)
    .executeTakeFirst();
  return r
    ? {
        ability: r.ability,
        source: r.ability_source,
        classifier: r.ability_classifier,
        version: r.ability_classifier_version,
      }
    : undefined;
}

/** The live-battle fields of a battle: kind, asker, turns. */
export async function liveInfo(
  db: Conn,
  battleId: number,
): Promise<{ kind: string; askerHash: string | null; turns: number } | undefined> {
  const r = await db
    .selectFrom('battles')
    .select(['kind', 'asker_hash', 'turns'])
    .where('id', '=', battleId)
    .executeTakeFirst();
  return r ? { kind: r.kind, askerHash: r.asker_hash, turns: r.turns } : undefined;
}
