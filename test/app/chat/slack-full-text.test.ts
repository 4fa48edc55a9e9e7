/**
 * A cut battle on Slack whose full-text file cannot be uploaded (the app lacks `files:write`: `missing_scope`)
 * still stands: its message is posted and returned, so the arena records and seeds it, instead of a visible
 * message whose battle was voided because `post` failed after posting it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SlackAdapter } from '../../../src/chat/slack/adapter.ts';
import { CHANNEL_ID, FakeSlack } from '../../fakes/slack.ts';
import { captureLogger, Recorder, TEST_COMMANDS } from './helpers.ts';

describe('SlackAdapter: a cut battle whose full text cannot be uploaded', () => {
  let fake: FakeSlack;
  let adapter: SlackAdapter;
  let log: ReturnType<typeof captureLogger>;

  beforeEach(async () => {
    fake = await FakeSlack.start();
    log = captureLogger();
    adapter = new SlackAdapter({
      botToken: 'xoxb-fake',
      signingSecret: fake.signingSecret,
      port: 0,
      host: '127.0.0.1',
      slackApiUrl: fake.apiUrl,
      logger: log.logger,
      apiRetries: 0,
      apiTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
    });
    await adapter.start(new Recorder(), TEST_COMMANDS);
  });

  afterEach(async () => {
    await adapter.stop();
    await fake.close();
  });

  it('posts the battle, warns, and returns its ref', async () => {
    fake.failingMethods.set('files.getUploadURLExternal', 'missing_scope');
    const ref = await adapter.post(CHANNEL_ID, {
      text: 'Arena battle #1: which answer is better?',
      title: 'Arena battle #1',
      sections: [
        { heading: 'Left', body: 'left answer. '.repeat(2000) },
        { heading: 'Right', body: 'right answer. '.repeat(2000) },
      ],
      footer: 'Vote by reacting.',
      fit: { maxMessages: 1, fileName: 'battle-1.txt' },
    });
    expect(ref.messageId).toBeTruthy();
    expect(ref.partIds).toEqual([]);
    expect(fake.callsOf('chat.postMessage')).toHaveLength(1);
    expect(fake.uploads).toHaveLength(0);
    expect(
      log.lines.some((l) => String(l.msg).includes('full text') && l.level === 40),
      JSON.stringify(log.lines),
    ).toBe(true);
  });
});
