/**
 * Ability scores of a chart test row (leaderboard/chart.ts `ChartRow.abilities`): around `x`, language missing.
 */
export const abilityScores = (x: number) => ({
  knowledge: x,
  chinese_specific: x - 1,
  language: null,
  reasoning: x + 0.5,
  refusal: x,
  safety: x - 2,
  robustness: x,
});
