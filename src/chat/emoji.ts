/**
 * @module chat/emoji
 * How each platform spells a reaction, folded to one form: a platform concern, so it lives in the platform layer
 * and the arena's emoji map builds on it.
 * - Discord and the terminal: every presentation and modifier form folds to the bare emoji. Removed: U+FE0F
 *   (emoji presentation) and U+FE0E (text presentation, `➡︎`), the skin-tone modifiers U+1F3FB–U+1F3FF, and a
 *   trailing zero-width joiner left behind by them. Discord treats `⬅`, `⬅︎` and `⬅️` as different reactions;
 *   keyboards and clients vary. Keycaps keep U+20E3, so `1⃣`, `1️⃣` and `1︎⃣` are one form (and differ from a
 *   plain `1`). Custom emoji (`name:id`) are left as they are.
 * - Slack: surrounding colons, `::skin-tone-N` suffixes (one or two, as for two-person emoji) are removed
 *   (`:point_left::skin-tone-3:` → `point_left`), lower case.
 */
import type { PlatformName } from './port.ts';

/** Normalises a raw reaction emoji of `platform` (idempotent). */
export function normaliseEmoji(platform: PlatformName, raw: string): string {
  if (platform === 'slack') {
    return raw
      .trim()
      .replace(/^:+|:+$/gu, '')
      .replace(/(::skin-tone-\d+)+$/u, '')
      .replace(/:+$/u, '')
      .toLowerCase();
  }
  return raw
    .trim()
    .replace(/[\u{FE0E}\u{FE0F}\u{1F3FB}-\u{1F3FF}]/gu, '')
    .replace(/\u{200D}+$/u, '');
}
