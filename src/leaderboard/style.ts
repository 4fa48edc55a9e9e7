/**
 * @module leaderboard/style
 * Style-controlled arena ratings of the stored votes (docs/scoring.md §4.6): the votes whose battles have both
 * answers stored, with FastChat's style metadata, and the `/leaderboard style` content.
 */
import type { Kysely } from 'kysely';
import type { MessageContent } from '../chat/port.ts';
import { type Locale, t } from '../i18n/index.ts';
import { winnerOf } from '../import/formats/arena-export.ts';
import type { StyleBattle, StyleControlResult } from '../rating/index.ts';
import { rankByIntervals, STYLE_FEATURES, styleMetadata } from '../rating/index.ts';
import { exportVotePages } from '../storage/export.ts';
import type { Database } from '../storage/schema.ts';
import type { VoteFilter } from '../storage/vote-flags.ts';

/** Stored votes with style metadata, and how many votes had no stored answers (left out). */
export interface StoredStyleBattles {
  readonly battles: StyleBattle[];
  readonly withoutMetadata: number;
}

/**
 * Every live vote of `sources` (optionally of one ability) whose battle has both answers stored, as a
 * {@link StyleBattle} (one per vote, as FastChat has one row per vote), in export order. Named and flagged votes
 * are left out, as from every rating, unless `votes` includes them (docs/scoring.md §4.3).
 */
export async function loadStyleBattles(
  db: Kysely<Database>,
  sources: readonly string[],
  ability?: string,
  votes: VoteFilter = {},
): Promise<StoredStyleBattles> {
  const battles: StyleBattle[] = [];
  let withoutMetadata = 0;
  for (const source of sources) {
    await exportVotePages(db, { source }, async (rows) => {
      for (const v of rows) {
        if (ability !== undefined && v.ability !== ability) continue;
        if (v.named === true && votes.includeNamed !== true) continue;
        if (v.flag && votes.includeFlagged !== true) continue;
        if (!v.answersLeft || !v.answersRight) {
          withoutMetadata++;
          continue;
        }
        battles.push({
          model_a: v.leftModel,
          model_b: v.rightModel,
          winner: winnerOf(v) as StyleBattle['winner'],
          conv_metadata: styleMetadata(v.answersLeft, v.answersRight),
        });
      }
    });
  }
  return { battles, withoutMetadata };
}

/**
 * `/leaderboard style`: the style-controlled ratings with 95 % intervals, rank by intervals, votes, and the four
 * style coefficients; `null` result: no vote has stored answers yet. In `locale` (the configured language; default
 * English).
 */
export function styleContent(
  r: StyleControlResult | null,
  votes: ReadonlyMap<string, number>,
  leftOut: number,
  locale: Locale = 'en',
): MessageContent {
  if (r === null) return { text: t(locale, 'style.none'), locale };
  const ranks =
    r.rounds > 0 ? rankByIntervals(r.ratingLo, r.ratingHi) : rankByIntervals(r.ratings, r.ratings);
  const order = r.models.map((_, j) => j).sort((x, y) => r.ratings[y]! - r.ratings[x]!);
  const coef = STYLE_FEATURES.map((f, k) =>
    t(locale, 'style.coefficient', {
      feature: t(locale, `style.feature.${f}`),
      value: `${r.coefficients[k]! >= 0 ? '+' : ''}${r.coefficients[k]!.toFixed(3)}`,
      ci:
        r.rounds > 0
          ? ` [${r.coefficientLo[k]!.toFixed(3)}, ${r.coefficientHi[k]!.toFixed(3)}]`
          : '',
    }),
  ).join(t(locale, 'style.sep'));
  return {
    text: t(locale, 'style.text'),
    title: t(locale, 'style.title'),
    locale,
    table: {
      columns: (['rank', 'model', 'rating', 'ci', 'votes'] as const).map((c) =>
        t(locale, `style.col.${c}`),
      ),
      align: ['right', 'left', 'right', 'right', 'right'],
      rows: order.map((j) => [
        String(ranks[j]),
        r.models[j]!,
        r.ratings[j]!.toFixed(0),
        r.rounds > 0 ? `${r.ratingLo[j]!.toFixed(0)}–${r.ratingHi[j]!.toFixed(0)}` : '—',
        String(votes.get(r.models[j]!) ?? 0),
      ]),
    },
    footer: t(locale, 'style.footer', {
      coef,
      intervals:
        r.rounds > 0
          ? t(locale, 'style.intervals', { rounds: r.rounds })
          : t(locale, 'style.noIntervals'),
      leftOut: leftOut > 0 ? t(locale, 'style.leftOut', { n: leftOut }) : '',
    }),
  };
}
