import { describe, expect, it } from 'vitest';
import { renderDiscordMessages } from '../../../src/chat/discord/render.ts';
import {
  displayWidth,
  fromMarkdownLiteral,
  markdownLiteral,
  renderTable,
  splitText,
  splitTransformed,
  truncate,
} from '../../../src/chat/render/index.ts';
import { parseCommandArgs } from '../../../src/chat/slack/adapter.ts';
import { escapeMrkdwn, renderSlackMessages } from '../../../src/chat/slack/render.ts';

describe('splitText', () => {
  it('returns short text unchanged and empty text as no chunks', () => {
    expect(splitText('hello', 10)).toEqual(['hello']);
    expect(splitText('', 10)).toEqual([]);
  });

  it('prefers paragraph, then line, then word boundaries', () => {
    expect(splitText('aaaa bbbb\n\ncccc', 12)).toEqual(['aaaa bbbb', 'cccc']);
    expect(splitText('aaaa\nbbbb cccc', 12)).toEqual(['aaaa', 'bbbb cccc']);
    expect(splitText('aaaa bbbb cccc', 12)).toEqual(['aaaa bbbb', 'cccc']);
  });

  it('cuts hard when there is no boundary, never inside a surrogate pair', () => {
    expect(splitText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    const emoji = '😀'.repeat(5); // 10 code units
    const chunks = splitText(`a${emoji}`, 4);
    expect(chunks).toEqual(['a😀', '😀😀', '😀😀']);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(4);
    expect(chunks.join('')).toBe(`a${emoji}`);
  });

  it('keeps every chunk within the limit and loses no non-space text', () => {
    const text = Array.from(
      { length: 200 },
      (_, i) => `第${i}段 ${'词'.repeat(i % 17)}\n${i % 5 === 0 ? '\n' : ''}`,
    ).join('');
    for (const max of [7, 50, 333]) {
      const chunks = splitText(text, max);
      for (const c of chunks) expect(c.length).toBeLessThanOrEqual(max);
      expect(chunks.join('').replace(/\s/gu, '')).toBe(text.replace(/\s/gu, ''));
    }
  });

  it('splitTransformed bounds the transformed length', () => {
    const text = '<&>'.repeat(100);
    const chunks = splitTransformed(text, 50, escapeMrkdwn);
    for (const c of chunks) expect(c.length).toBeLessThanOrEqual(50);
    expect(chunks.join('')).toBe(escapeMrkdwn(text));
  });

  it('truncate adds an ellipsis only when cutting', () => {
    expect(truncate('abcdef', 4)).toBe('abc…');
    expect(truncate('abc', 4)).toBe('abc');
    expect(truncate('a😀b', 3)).toBe('a…');
  });
});

describe('renderTable', () => {
  it('aligns columns by display width (CJK = 2) with right alignment', () => {
    expect(displayWidth('模型A')).toBe(5);
    expect(
      renderTable({
        columns: ['#', 'Model', 'Elo'],
        rows: [
          ['1', '文心一言', '1523'],
          ['2', 'gpt', '98'],
        ],
        align: ['right', 'left', 'right'],
      }),
    ).toBe(
      ['#  Model      Elo', '-  --------  ----', '1  文心一言  1523', '2  gpt         98'].join(
        '\n',
      ),
    );
  });

  it('fills missing cells and flattens newlines', () => {
    expect(renderTable({ columns: ['a', 'b'], rows: [['x\ny']] })).toBe('a    b\n---  -\nx y');
  });
});

describe('renderDiscordMessages', () => {
  it('renders a small message as content + titled embed with footer', () => {
    expect(
      renderDiscordMessages({
        text: 'Which is better?',
        title: 'Battle',
        sections: [{ body: 'answer' }],
        footer: 'vote below',
      }),
    ).toEqual([
      {
        content: 'Which is better?',
        embeds: [{ title: 'Battle', description: 'answer', footer: { text: 'vote below' } }],
      },
    ]);
  });

  it('puts the footer into content when there are no embeds and never sends an empty message', () => {
    expect(renderDiscordMessages({ text: 'hi', footer: 'f' })).toEqual([
      { content: 'hi\n\nf', embeds: [] },
    ]);
    expect(renderDiscordMessages({ text: '' })).toEqual([{ content: '\u200b', embeds: [] }]);
  });

  it('splits long content and embeds across messages within every limit', () => {
    const msgs = renderDiscordMessages({
      text: 'x'.repeat(4500),
      sections: [
        { heading: 'H'.repeat(300), body: 'y'.repeat(9000) },
        { heading: 'R', body: 'z'.repeat(100) },
      ],
    });
    expect(msgs.map((m) => m.content.length)).toEqual([2000, 2000, 500, 0]);
    for (const m of msgs) {
      const total = m.embeds.reduce(
        (n, e) => n + (e.title?.length ?? 0) + (e.description?.length ?? 0),
        0,
      );
      expect(total).toBeLessThanOrEqual(6000);
      expect(m.embeds.length).toBeLessThanOrEqual(10);
    }
    const embeds = msgs.flatMap((m) => m.embeds);
    expect(embeds[0]?.title).toHaveLength(256);
    expect(embeds.map((e) => e.description?.length)).toEqual([4096, 4096, 808, 100]);
  });
});

describe('renderSlackMessages', () => {
  it('renders header, escaped sections, code-block table and context footer', () => {
    expect(
      renderSlackMessages({
        text: 'a<b',
        title: 'Board',
        sections: [{ heading: 'Left', body: 'x & y' }],
        table: { columns: ['m', 'e'], rows: [['a', '1']] },
        footer: 'note',
      }),
    ).toEqual([
      {
        // The notification text is escaped like the blocks: it is mrkdwn too.
        text: 'a&lt;b',
        blocks: [
          { type: 'header', text: { type: 'plain_text', text: 'Board', emoji: true } },
          { type: 'section', text: { type: 'mrkdwn', text: 'a&lt;b' } },
          { type: 'section', text: { type: 'mrkdwn', text: '*Left*' } },
          { type: 'section', text: { type: 'mrkdwn', text: 'x &amp; y' } },
          { type: 'section', text: { type: 'mrkdwn', text: '```\nm  e\n-  -\na  1\n```' } },
          { type: 'context', elements: [{ type: 'mrkdwn', text: 'note' }] },
        ],
      },
    ]);
  });

  it('packs at most 50 blocks per message', () => {
    const msgs = renderSlackMessages({
      text: 't',
      sections: Array.from({ length: 60 }, (_, i) => ({ heading: `h${i}`, body: 'b' })),
    });
    expect(msgs.map((m) => m.blocks.length)).toEqual([50, 50, 21]);
  });
});

describe('parseCommandArgs', () => {
  const spec = {
    name: 'eval',
    description: '',
    options: [
      { name: 'model', description: '' },
      { name: 'suite', description: '' },
    ],
  };
  it('maps key=value words and positional words in option order', () => {
    expect(parseCommandArgs('suite=mmlu qwen', spec)).toEqual({ suite: 'mmlu', model: 'qwen' });
    expect(parseCommandArgs('qwen "c eval" more', spec)).toEqual({
      model: 'qwen',
      suite: 'c eval',
    });
    expect(parseCommandArgs('', spec)).toEqual({});
    expect(parseCommandArgs('other=1', spec)).toEqual({ model: 'other=1' });
  });
});

describe('model names in chat Markdown (markdownLiteral)', () => {
  it.each([
    ['GPT 3.5 Turbo (16k)', 'GPT 3.5 Turbo (16k)'],
    ['文心一言 4.0', '文心一言 4.0'],
    ['*bold* _it_ ~s~', '\\*bold\\* \\_it\\_ \\~s\\~'],
    ['`code` ||spoiler|| [x](y)', '\\`code\\` \\|\\|spoiler\\|\\| \\[x\\](y)'],
    ['<@123> a\\b', '\\<@123\\> a\\\\b'],
  ])('%j → %j, and back', (name, literal) => {
    expect(markdownLiteral(name)).toBe(literal);
    expect(fromMarkdownLiteral(markdownLiteral(name))).toBe(name);
  });
});
