/**
 * The board chart's own words (leaderboard/chart.ts: panel titles, axis titles, the unranked label, the cut note,
 * the heat map's ability names and legend) in the chart's language (docs/architecture.md "Languages"): a zh-CN
 * chart's SVG texts are Chinese but for model names, numbers and `/board.json`; an English one is as it was. The
 * glyphs themselves are drawn by the shipped font (test/unit/leaderboard/chart.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { type ChartRow, renderBoardSvg } from '../../../src/leaderboard/chart.ts';
import { abilityScores } from '../../helpers/chart-rows.ts';

const ab = abilityScores;
const ROWS: ChartRow[] = [
  { model: 'gpt-4o', rank: 1, final: 8.2, lo: 7.1, hi: 9.0, abilities: ab(8) },
  { model: 'glm-4', rank: 2, final: 6.5, lo: 5.0, hi: 7.7, abilities: ab(6) },
  {
    model: 'qwen-max',
    rank: null,
    final: 5.1,
    lo: 4.0,
    hi: 6.0,
    abilities: ab(5),
    unranked: '没有打分评估结果',
  },
  { model: 'yi-34b', rank: null, final: null, lo: null, hi: null, abilities: ab(4) },
];

/** The texts an SVG draws (its `<text>` elements' contents, entities decoded). */
function drawnTexts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/gu)].map((m) =>
    (m[1] as string).replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>'),
  );
}

describe('chart words in zh-CN', () => {
  it('the panel titles, axes, labels, abilities, legend and cut note are Chinese', async () => {
    const svg = await renderBoardSvg(ROWS, {
      title: '煮酒排行榜 2026-12-02',
      maxRows: 3,
      locale: 'zh-CN',
    });
    const texts = drawnTexts(svg);
    for (const s of [
      '已排名：综合分覆盖每种评估方法',
      '未排名：这些综合分合并的评估方法较少，不可比较',
      '综合分（95% 置信区间）',
      '综合分，不可比较（95% 置信区间）',
      '5.10 · 未排名：没有打分评估结果',
      'qwen-max（未排名）',
      '知识',
      '鲁棒性',
      '得分（0–10）',
      '图中画出了 4 个模型中的 3 个（已排名的在前）；所有模型都在结果网站和 /board.json 中',
    ])
      expect(texts, s).toContain(s);
    const english = texts
      .join(' ')
      .replace(/gpt-4o|glm-4|qwen-max|\/board\.json/gu, ' ')
      .match(/[A-Za-z]{3,}/gu);
    expect(english).toBeNull();
  });

  it('an English chart says what it always said', async () => {
    const texts = drawnTexts(await renderBoardSvg(ROWS, { title: 'ZhuJiu board', maxRows: 3 }));
    for (const s of [
      'Ranked: finals over every method',
      'final score (95% interval)',
      '5.10 · not ranked: 没有打分评估结果',
      'qwen-max (not ranked)',
      'knowledge',
      'score (0–10)',
      '3 of 4 models drawn (ranked first); every model is on the results page and in /board.json',
    ])
      expect(texts, s).toContain(s);
  });
});
