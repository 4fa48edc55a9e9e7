/**
 * Through the real discord.js and Bolt against the fakes: an answer with a 261-line fenced ```python
 * block (about 9,900 characters) is split across Discord embeds and Slack sections so that every part that holds
 * code is fenced (closed at the cut, reopened with the same language), in every split path: a battle answer
 * (section body), a long reply (message text), an edit, and a long table. The code survives the cuts exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscordAdapter } from '../../../src/chat/discord/adapter.ts';
import type { MessageContent } from '../../../src/chat/port.ts';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID } from '../../fakes/discord.ts';
import { FakeSlack, CHANNEL_ID as SLACK_CHANNEL } from '../../fakes/slack.ts';
import { captureLogger, Recorder, TEST_COMMANDS } from './helpers.ts';

/** 261 lines of Python, 9,900 characters or so, with indentation and a blank line between functions. */
function pythonBlock(): string {
  const lines: string[] = [];
  for (let i = 0; lines.length < 261; i++) {
    if (i % 10 === 0) {
      if (lines.length > 0) lines.push('');
      lines.push(`def step_${i}(values, factor=${i}):`);
    } else lines.push(`    values[${i}] = values[${i - 1}] * factor + ${i}  # step ${i}`);
  }
  return lines.slice(0, 261).join('\n');
}
const CODE = pythonBlock();
const ANSWER = `Here is the program you asked for:\n\n\`\`\`python\n${CODE}\n\`\`\`\n\nRun it with Python 3.`;

/**
 * Checks that each part is balanced (no fence left open), that every code line of {@link CODE} sits inside a
 * ```python fence, and that the code, read across the parts, is exactly {@link CODE}.
 */
function checkParts(parts: readonly string[]): void {
  const codeLines = new Set(CODE.split('\n').filter((l) => l !== ''));
  const seen: string[] = [];
  let partsWithCode = 0;
  for (const part of parts) {
    let inside = false;
    let hasCode = false;
    for (const line of part.split('\n')) {
      if (/^```/u.test(line)) {
        if (!inside) expect(line).toBe('```python');
        inside = !inside;
        continue;
      }
      if (codeLines.has(line)) {
        expect(inside, `code line outside a fence: ${line}`).toBe(true);
        hasCode = true;
      }
      if (inside) seen.push(line);
    }
    expect(inside, 'a part ends inside a code block').toBe(false);
    if (hasCode) partsWithCode++;
  }
  expect(partsWithCode).toBeGreaterThan(2); // the block really was cut, more than once
  expect(seen.join('\n')).toBe(CODE);
}

describe('long code blocks split across Discord embeds', () => {
  let fake: FakeDiscord;
  let adapter: DiscordAdapter;

  beforeAll(async () => {
    fake = await FakeDiscord.start();
    adapter = new DiscordAdapter({
      token: 'fake-token',
      guildIds: [GUILD_ID],
      restApi: fake.restApi,
      logger: captureLogger().logger,
      restRetries: 0,
      restTimeoutMs: 60_000,
    });
    await adapter.start(new Recorder(), TEST_COMMANDS);
  });
  afterAll(async () => {
    await adapter.stop();
    await fake.close();
  });

  const posted = (ids: string[]) =>
    ids.flatMap((id) => {
      const m = fake.messages.get(id);
      return [
        ...(m?.content ? [m.content] : []),
        ...((m?.embeds ?? []) as { description?: string }[]).flatMap((e) =>
          e.description ? [e.description] : [],
        ),
      ];
    });

  it('a 261-line ```python answer: every embed that holds code is fenced, code intact', async () => {
    expect(CODE.split('\n')).toHaveLength(261);
    expect(CODE.length).toBeGreaterThan(9000);
    const content: MessageContent = {
      text: 'Arena battle #1',
      title: 'Arena battle #1',
      sections: [
        { heading: 'Prompt', body: 'Write a long program.' },
        { heading: 'Left answer', body: ANSWER },
        { heading: 'Right answer', body: 'A short answer.' },
      ],
    };
    const ref = await adapter.post(CHANNEL_ID, content);
    const parts = posted([ref.messageId, ...ref.partIds]).filter((p) => p.includes('step_'));
    checkParts(parts);
    // The same holds after an edit (the reveal path).
    await adapter.edit(ref, { ...content, footer: 'Left: a · Right: b' });
    checkParts(posted([ref.messageId, ...ref.partIds]).filter((p) => p.includes('step_')));
  });

  it('a long reply as message text (2,000-character messages) keeps its fences too', async () => {
    const ref = await adapter.post(CHANNEL_ID, { text: ANSWER });
    const parts = posted([ref.messageId, ...ref.partIds]);
    expect(parts.length).toBeGreaterThan(4);
    checkParts(parts);
  });

  it('a long table: every part is its own code block', async () => {
    const rows = Array.from({ length: 400 }, (_, i) => [`model-${i}`, String(1000 + i)]);
    const ref = await adapter.post(CHANNEL_ID, {
      text: 'Board',
      table: { columns: ['model', 'rating'], rows },
    });
    const parts = posted([ref.messageId, ...ref.partIds]).filter((p) => p.includes('model-'));
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p).toMatch(/^```\n[\s\S]*\n```$/u);
  });
});

describe('long code blocks split across Slack sections', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter;

  beforeAll(async () => {
    fake = await FakeSlack.start();
    adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      signingSecret: fake.signingSecret,
      port: 0,
      host: '127.0.0.1',
      slackApiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      apiRetries: 0,
      apiTimeoutMs: 60_000,
    });
    await adapter.start(new Recorder(), TEST_COMMANDS);
  });
  afterAll(async () => {
    await adapter.stop();
    await fake.close();
  });

  const sectionsOf = (calls: { args: Record<string, unknown> }[]) =>
    calls.flatMap((c) =>
      ((c.args.blocks ?? []) as { type: string; text?: { text: string } }[])
        .filter((b) => b.type === 'section' && b.text)
        .map((b) => b.text?.text as string),
    );

  it('a 261-line ```python answer: every section that holds code is fenced, code intact', async () => {
    const before = fake.callsOf('chat.postMessage').length;
    const ref = await adapter.post(SLACK_CHANNEL, {
      text: 'Arena battle #1',
      title: 'Arena battle #1',
      sections: [{ heading: 'Left answer', body: ANSWER }],
    });
    const calls = fake.callsOf('chat.postMessage').slice(before);
    checkParts(sectionsOf(calls).filter((p) => p.includes('step_')));
    const upBefore = fake.callsOf('chat.update').length;
    await adapter.edit(ref, {
      text: 'revealed',
      sections: [{ heading: 'Left answer', body: ANSWER }],
    });
    checkParts(
      sectionsOf(fake.callsOf('chat.update').slice(upBefore)).filter((p) => p.includes('step_')),
    );
  });

  it('a long reply as the message text keeps its fences too', async () => {
    const before = fake.callsOf('chat.postMessage').length;
    await adapter.post(SLACK_CHANNEL, { text: ANSWER });
    checkParts(sectionsOf(fake.callsOf('chat.postMessage').slice(before)));
  });
});
