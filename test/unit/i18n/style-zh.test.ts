/**
 * `/leaderboard style` (leaderboard/style.ts) in zh-CN (docs/architecture.md "Languages"): Chinese through every
 * renderer, no English words but model names and names of things (Bradley–Terry, FastChat, Markdown, CI), the
 * typed command as it is; the English unchanged.
 */
import { describe, expect, it } from 'vitest';
import { renderDiscordMessages } from '../../../src/chat/discord/render.ts';
import { renderPlain } from '../../../src/chat/shell/render.ts';
import { renderSlackMessages } from '../../../src/chat/slack/render.ts';
import { styleContent } from '../../../src/leaderboard/style.ts';
import type { StyleControlResult } from '../../../src/rating/index.ts';

const CJK = /[\u3400-\u9fff]/u;

const RESULT: StyleControlResult = {
  models: ['qwen-7b', 'glm-4'],
  ratings: Float64Array.from([1040, 960]),
  coefficients: Float64Array.from([0.21, -0.05, 0.1, 0]),
  constant: [],
  iterations: 5,
  rounds: 20,
  ratingLo: Float64Array.from([1010, 930]),
  ratingHi: Float64Array.from([1070, 990]),
  coefficientLo: Float64Array.from([0.1, -0.1, 0, -0.05]),
  coefficientHi: Float64Array.from([0.3, 0, 0.2, 0.05]),
};

/** The English words of `s` once code spans and the allowed names are taken out. */
function englishWords(s: string): string[] {
  let rest = s.replace(/`[^`]*`/gu, ' ');
  for (const d of ['qwen-7b', 'glm-4', 'Bradley–Terry', 'FastChat', 'Markdown'])
    rest = rest.replaceAll(d, ' ');
  return rest.match(/[A-Za-z]{3,}/gu) ?? [];
}

describe('/leaderboard style in zh-CN', () => {
  it('is Chinese through every renderer', () => {
    const c = styleContent(RESULT, new Map([['qwen-7b', 12]]), 3, 'zh-CN');
    expect(c.title).toBe('竞技场（风格控制）');
    expect(c.table?.columns).toEqual(['排名', '模型', '评分', '95% 置信区间', '票数']);
    expect(c.footer).toContain('长度 +0.210 [0.100, 0.300]；标题 -0.050');
    expect(c.footer).toContain('95% 置信区间来自 20 轮自助抽样；3 票没有存储回答，未计入。');
    const none = styleContent(null, new Map(), 0, 'zh-CN');
    for (const m of [c, none]) {
      const shown = [
        ...renderDiscordMessages(m).map((x) =>
          JSON.stringify([
            x.content,
            x.embeds?.map((e) => [e.title, e.description, e.footer?.text]),
          ]),
        ),
        ...renderSlackMessages(m).map((x) => x.text),
        renderPlain(m),
      ];
      for (const s of shown) {
        expect(s).toMatch(CJK);
        expect(englishWords(s), s).toEqual([]);
      }
    }
  });

  it('keeps its English', () => {
    const c = styleContent(RESULT, new Map(), 1);
    expect(c.table?.columns).toEqual(['rank', 'model', 'rating', '95% CI', 'votes']);
    expect(c.footer).toBe(
      'Bradley–Terry with style features (FastChat style control), 1000 + 400·r; style coefficients (log-odds per SD): length +0.210 [0.100, 0.300]; headers -0.050 [-0.100, 0.000]; lists +0.100 [0.000, 0.200]; bold +0.000 [-0.050, 0.050]. 95% CI from 20 bootstrap rounds; 1 vote without stored answers left out. `zhujiu ratings --style-control` gives the full figures.',
    );
  });
});
