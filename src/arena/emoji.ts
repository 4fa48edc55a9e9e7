/**
 * @module arena/emoji
 * Reaction emoji ↔ vote choice, per platform (chat-testing.md §4.3). What comes back from a platform is
 * normalised before lookup, so a skin-toned or FE0F-decorated reaction still counts as the configured choice:
 * - Discord and the terminal: U+FE0F (variation selector 16) and the skin-tone modifiers U+1F3FB–U+1F3FF are
 *   removed (Discord treats `⬅` and `⬅️` as different reactions; Android keyboards vary).
 * - Slack: surrounding colons and `::skin-tone-N` suffixes are removed (`:point_left::skin-tone-3:` → `point_left`).
 * The configured emoji are normalised the same way, so the map is keyed by the normalised form.
 */
import { normaliseEmoji } from '../chat/emoji.ts';
import type { PlatformName } from '../chat/port.ts';
import type { VoteChoice } from '../storage/schema.ts';

/** The four vote choices, in display order (left, equal, right, both bad). */
export const CHOICES: readonly VoteChoice[] = ['left', 'equal', 'right', 'bothbad'];

/** The configured emoji of one platform. */
export interface EmojiSet {
  readonly left: string;
  readonly equal: string;
  readonly right: string;
  readonly bothbad: string;
}

export { normaliseEmoji };

/** Maps reactions to choices for each platform. */
export class EmojiMap {
  readonly #sets: Readonly<Record<PlatformName, EmojiSet>>;
  readonly #lookup = new Map<string, VoteChoice>();

  constructor(sets: Readonly<Record<PlatformName, EmojiSet>>) {
    this.#sets = sets;
    for (const platform of Object.keys(sets) as PlatformName[]) {
      for (const choice of CHOICES) {
        this.#lookup.set(
          `${platform}\u0000${normaliseEmoji(platform, sets[platform][choice])}`,
          choice,
        );
      }
    }
  }

  /** The choice a raw reaction stands for, or undefined for any other emoji. */
  choiceOf(platform: PlatformName, raw: string): VoteChoice | undefined {
    return this.#lookup.get(`${platform}\u0000${normaliseEmoji(platform, raw)}`);
  }

  /** The configured emoji of a platform (what the bot reacts with), left, equal, right, both bad. */
  emojisFor(platform: PlatformName): readonly [string, string, string, string] {
    const s = this.#sets[platform];
    return [s.left, s.equal, s.right, s.bothbad];
  }

  /** The configured emoji for one choice. */
  emojiFor(platform: PlatformName, choice: VoteChoice): string {
    return this.#sets[platform][choice];
  }
}
