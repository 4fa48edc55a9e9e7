/**
 * @module bot/commands/judge
 * `/judge agree` (maintainers): how well each LLM judge's verdicts on the arena's battles ("judge votes", stored
 * apart from the crowd's votes) agree with the crowd's majority on the same battles (docs/scoring.md §3.6):
 * Cohen's kappa, quadratic-weighted kappa (left better < equal < right better), exact agreement and n.
 */
import type { Kysely } from 'kysely';
import type { MessageContent } from '../../chat/port.ts';
import { agreement, BATTLE_CHOICE_ORDER, crowdLabel } from '../../eval/metrics/agreement.ts';
import { listBattleJudgments } from '../../storage/judge-scores.ts';
import type { Database } from '../../storage/schema.ts';
import { ARENA_SOURCE } from '../../storage/sources.ts';

/** One judge's agreement with the crowd. */
export interface JudgeCrowdRow {
  readonly judge: string;
  /** Battles the judge gave a verdict on. */
  readonly judged: number;
  /** Battles the judge failed on (listed, never counted). */
  readonly failed: number;
  /** Of the judged battles, those with a crowd majority (compared). */
  readonly n: number;
  readonly kappa: number | null;
  readonly kappaQuadratic: number | null;
  readonly exact: number | null;
}

/**
 * Judge-vs-crowd agreement per judge on the battles of `source` (default the arena's own): each battle's crowd
 * label is the choice with the most live votes; battles without votes or with tied top choices are left out.
 */
export async function judgeCrowdAgreement(
  db: Kysely<Database>,
  opts: { readonly judge?: string; readonly source?: string } = {},
): Promise<JudgeCrowdRow[]> {
  const rows = await listBattleJudgments(db, {
    source: opts.source ?? ARENA_SOURCE,
    ...(opts.judge !== undefined ? { judge: opts.judge } : {}),
  });
  const byJudge = new Map<string, typeof rows>();
  for (const r of rows) byJudge.set(r.judge, [...(byJudge.get(r.judge) ?? []), r]);
  const out: JudgeCrowdRow[] = [];
  for (const [judge, list] of byJudge) {
    const pairs: { a: string; b: string }[] = [];
    let judged = 0;
    for (const r of list) {
      if (r.status !== 'judged' || r.judgeChoice === null) continue;
      judged++;
      // Both bad is a tie for agreement, as for ratings (docs/scoring.md §4.1): the judge has no such answer.
      const crowd = crowdLabel(r.votes.map((v) => (v === 'bothbad' ? 'equal' : v)));
      if (crowd !== null) pairs.push({ a: r.judgeChoice, b: crowd });
    }
    const a = agreement(pairs, { order: BATTLE_CHOICE_ORDER });
    out.push({
      judge,
      judged,
      failed: list.length - judged,
      n: pairs.length,
      kappa: a.ok ? a.value.kappa : null,
      kappaQuadratic: a.ok ? a.value.kappa_quadratic : null,
      exact: a.ok ? a.value.exact : null,
    });
  }
  return out.sort((x, y) => x.judge.localeCompare(y.judge));
}

const f = (x: number | null, d = 3) => (x === null ? 'n/a' : x.toFixed(d));

/** The chat reply of `/judge agree`. */
export function judgeAgreeContent(rows: readonly JudgeCrowdRow[]): MessageContent {
  if (rows.length === 0) {
    return {
      text: 'No judge has judged arena battles yet. Judge votes are stored apart from the crowd and never counted as votes.',
    };
  }
  return {
    title: 'Judge vs crowd',
    text: 'Agreement of each LLM judge with the crowd majority on the same arena battles (judge votes are never counted as votes).',
    table: {
      columns: ['judge', 'n', 'kappa', 'kappa (quadratic)', 'exact', 'judged', 'failed'],
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      rows: rows.map((r) => [
        r.judge,
        String(r.n),
        f(r.kappa),
        f(r.kappaQuadratic),
        r.exact === null ? 'n/a' : `${(100 * r.exact).toFixed(1)} %`,
        String(r.judged),
        String(r.failed),
      ]),
    },
    footer:
      'n: battles with a judge verdict and a crowd majority; quadratic weights order left better < equal < right better.',
  };
}
