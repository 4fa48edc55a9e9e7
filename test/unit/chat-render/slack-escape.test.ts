import { describe, expect, it } from 'vitest';
import { decodeSlackText, renderSlackMessages } from '../../../src/chat/slack/render.ts';

describe('Slack text', () => {
  it('is decoded once', () => {
    expect(decodeSlackText('Is 3 &lt; 5 &amp;&amp; 5 &gt; 4')).toBe('Is 3 < 5 && 5 > 4');
    expect(decodeSlackText('&amp;lt; stays what was typed')).toBe('&lt; stays what was typed');
    expect(decodeSlackText('<@U123|bob> &quot;')).toBe('<@U123|bob> &quot;');
  });

  it('cannot ping from the notification text or the blocks', () => {
    const [m] = renderSlackMessages({
      text: 'no model named <!channel> <!here> <@U1> <!subteam^S1>',
      sections: [{ heading: '<!here>', body: '<!channel>' }],
      footer: '<@U1>',
    });
    const all = JSON.stringify(m);
    for (const p of ['<!channel>', '<!here>', '<@U1>', '<!subteam^S1>'])
      expect(all).not.toContain(p);
    expect(m?.text).toBe(
      'no model named &lt;!channel&gt; &lt;!here&gt; &lt;@U1&gt; &lt;!subteam^S1&gt;',
    );
  });
});
