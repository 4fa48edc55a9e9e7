/** The progress message of a live battle (arena/ask-progress): its content, edits at most every interval, removal. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressMessage, progressContent } from '../../../src/arena/ask-progress.ts';
import type { ChatPlatform, MessageContent, MessageRef } from '../../../src/chat/port.ts';
import { silentLogger } from '../../../src/core/logger.ts';

/** A platform that records posts, edits and deletes; `canDelete: false` leaves `delete` out. */
function platform(o: { canDelete?: boolean; failDelete?: boolean } = {}) {
  const events: string[] = [];
  const ref: MessageRef = { platform: 'shell', channelId: 'c', messageId: 'm1', partIds: [] };
  const p = {
    post: async (_c: string, content: MessageContent) => {
      events.push(`post ${content.text}`);
      return ref;
    },
    edit: async (_r: MessageRef, content: MessageContent) => {
      events.push(`edit ${content.text}`);
    },
    ...(o.canDelete === false
      ? {}
      : {
          delete: async () => {
            if (o.failDelete) throw new Error('no permission');
            events.push('delete');
          },
        }),
  };
  return { events, p: p as unknown as ChatPlatform };
}

describe('progressContent', () => {
  it('counts the answers ready, shows the notes and clips the prompt, never naming a model', () => {
    const c = progressContent('x'.repeat(600), [
      { ready: true, note: '' },
      { ready: false, note: 'One model did not answer in time; another is answering instead.' },
    ]);
    expect(c.text).toBe('Two anonymous models are answering a question (1 of 2 answers ready)…');
    expect(c.sections?.[0]?.body).toBe(`${'x'.repeat(500)}…`);
    expect(c.footer).toBe(
      'Answers ready: 1 of 2. One model did not answer in time; another is answering instead. The battle appears when both are in.',
    );
  });
});

describe('ProgressMessage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const text = (t: string): MessageContent => ({ text: t });

  it('edits at most every interval, sending only the latest content, then deletes the message', async () => {
    const { events, p } = platform();
    const m = new ProgressMessage(p, 'c', text('start'), 1000, silentLogger);
    m.update(text('one'));
    m.update(text('two'));
    await vi.advanceTimersByTimeAsync(999);
    expect(events).toEqual(['post start']);
    await vi.advanceTimersByTimeAsync(1);
    expect(events).toEqual(['post start', 'edit two']);
    m.update(text('three'));
    await m.finish(text('gone'));
    await vi.advanceTimersByTimeAsync(5000);
    expect(events).toEqual(['post start', 'edit two', 'delete']);
  });

  it('where messages cannot be deleted, or deleting fails, it is replaced with the fallback', async () => {
    const a = platform({ canDelete: false });
    await new ProgressMessage(a.p, 'c', text('start'), 0, silentLogger).finish(text('see below'));
    expect(a.events).toEqual(['post start', 'edit see below']);
    const b = platform({ failDelete: true });
    await new ProgressMessage(b.p, 'c', text('start'), 0, silentLogger).finish(text('see below'));
    expect(b.events).toEqual(['post start', 'edit see below']);
  });

  it('a post that fails leaves nothing to edit or remove, and never throws', async () => {
    const { events, p } = platform();
    const failing = {
      ...p,
      post: async () => {
        throw new Error('missing access');
      },
    } as unknown as ChatPlatform;
    const m = new ProgressMessage(failing, 'c', text('start'), 0, silentLogger);
    m.update(text('one'));
    await vi.advanceTimersByTimeAsync(10);
    await m.finish(text('gone'));
    expect(events).toEqual([]);
  });
});
