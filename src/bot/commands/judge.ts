/**
 * @module bot/commands/judge
 * `/judge agree` (maintainers): how well each LLM judge's verdicts on the arena's battles ("judge votes", stored
 * apart from the crowd's votes) agree with the crowd's majority on the same battles (docs/scoring.md §3.6):
 * Cohen's kappa, quadratic-weighted kappa (left better < equal < right better), exact agreement and n.
 */
import type { Kysely } from 'kysely';
import type { MessageContent } from '../../chat/port.ts';
import { agreement, BATTLE_CHOICE_ORDER, crowdLabel } from '../../eval/metrics/agreement.ts';
import { type Locale, t } from '../../i18n/index.ts';
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

/** The chat reply of `/judge agree`, in `locale` (config `locale`; default en). */
export function judgeAgreeContent(
  rows: readonly JudgeCrowdRow[],
  locale: Locale = 'en',
): MessageContent {
  if (rows.length === 0) return { text: t(locale, 'judge.none') };
  const na = t(locale, 'judge.na');
  const f = (x: number | null) => (x === null ? na : x.toFixed(3));
  const col = (k: 'judge' | 'kappaQuadratic' | 'exact' | 'judged' | 'failed') =>
    t(locale, `judge.col.${k}`);
  return {
    title: t(locale, 'judge.title'),
    text: t(locale, 'judge.text'),
    table: {
      // n and kappa are the statistics' own names.
      columns: [
        col('judge'),
        'n',
        'kappa',
        col('kappaQuadratic'),
        col('exact'),
        col('judged'),
        col('failed'),
      ],
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'right'],
      rows: rows.map((r) => [
        r.judge,
        String(r.n),
        f(r.kappa),
        f(r.kappaQuadratic),
        r.exact === null ? na : `${(100 * r.exact).toFixed(1)} %`,
        String(r.judged),
        String(r.failed),
      ]),
    },
    footer: t(locale, 'judge.footer'),
  };
}
