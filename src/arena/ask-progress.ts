/**
 * @module arena/ask-progress
 * The progress message of a live battle (step 2 of arena/ask): posted in the channel while the models answer,
 * edited at most every `arena.ask.progress_every_ms` (the latest state wins), then removed when the battle is
 * posted or given up. It never names a model or a side.
 */
import type { ChatPlatform, MessageContent, MessageRef } from '../chat/port.ts';
import type { Logger } from '../core/logger.ts';
import { type Locale, t } from '../i18n/index.ts';

/** One side's state as the progress message shows it. */
export interface SlotProgress {
  /** Its answer is in. */
  readonly ready: boolean;
  /** A note for the channel ("One model did not answer in time; another is answering instead."), or ''. */
  readonly note: string;
}

const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n)}…` : s);

/**
 * The progress message's content for `prompt` (clipped to 500 characters) and the two sides' states, in `locale`
 * (config `locale`, default en; `ask.progress.*` of the catalogue). Pure.
 */
export function progressContent(
  prompt: string,
  slots: readonly SlotProgress[],
  locale: Locale = 'en',
): MessageContent {
  const ready = slots.filter((s) => s.ready).length;
  const noted = slots.map((s) => s.note).filter(Boolean);
  const notes = noted.length
    ? t(locale, 'ask.progress.notes', { notes: noted.join(t(locale, 'ask.progress.notes.sep')) })
    : '';
  return {
    text: t(locale, 'ask.progress.text', { ready }),
    title: t(locale, 'ask.progress.title'),
    sections: [{ heading: t(locale, 'arena.battle.prompt'), body: clip(prompt, 500) }],
    footer: t(locale, 'ask.progress.footer', { ready, notes }),
  };
}

/**
 * A progress message in the channel, edited at most every `everyMs` (the latest state wins), then removed.
 * Failures to post or edit are logged and never stop the battle.
 */
export class ProgressMessage {
  readonly #platform: ChatPlatform;
  readonly #everyMs: number;
  readonly #log: Logger;
  #ref: Promise<MessageRef | undefined>;
  #chain: Promise<void> = Promise.resolve();
  #last = 0;
  #pending: MessageContent | undefined;
  #timer: NodeJS.Timeout | undefined;
  #done = false;

  constructor(
    platform: ChatPlatform,
    channelId: string,
    content: MessageContent,
    everyMs: number,
    log: Logger,
  ) {
    this.#platform = platform;
    this.#everyMs = everyMs;
    this.#log = log;
    this.#last = performance.now();
    this.#ref = platform.post(channelId, content).catch((err: unknown) => {
      log.warn({ err }, 'posting the progress message failed; answering without it');
      return undefined;
    });
  }

  /** Shows `content` now, or when the edit interval allows (only the latest content is sent). */
  update(content: MessageContent): void {
    if (this.#done) return;
    this.#pending = content;
    if (this.#timer) return;
    const wait = Math.max(0, this.#last + this.#everyMs - performance.now());
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const c = this.#pending;
      this.#pending = undefined;
      if (!c || this.#done) return;
      this.#last = performance.now();
      this.#chain = this.#chain.then(async () => {
        const ref = await this.#ref;
        if (!ref || this.#done) return;
        await this.#platform.edit(ref, c).catch((err: unknown) => {
          this.#log.warn({ err }, 'editing the progress message failed');
        });
      });
    }, wait);
    this.#timer.unref?.();
  }

  /** Removes the message (or, where deleting is impossible, replaces it with `fallback`). */
  async finish(fallback: MessageContent): Promise<void> {
    this.#done = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#chain;
    const ref = await this.#ref;
    if (!ref) return;
    try {
      if (this.#platform.delete) await this.#platform.delete(ref);
      else await this.#platform.edit(ref, fallback);
    } catch (err) {
      this.#log.warn(
        { err },
        'removing the progress message failed; replacing it with a short note',
      );
      await this.#platform.edit(ref, fallback).catch(() => undefined);
    }
  }
}
