/**
 * @module chat/emoji
 * How each platform spells a reaction, folded to one form: a platform concern, so it lives in the platform layer
 * and the arena's emoji map builds on it.
 * - Discord and the terminal: U+FE0F (variation selector 16) and the skin-tone modifiers U+1F3FB–U+1F3FF are
 *   removed (Discord treats `⬅` and `⬅️` as different reactions; Android keyboards vary).
 * - Slack: surrounding colons and `::skin-tone-N` suffixes are removed (`:point_left::skin-tone-3:` → `point_left`).
 */
import type { PlatformName } from './port.ts';

/** Normalises a raw reaction emoji of `platform` (idempotent). */
export function normaliseEmoji(platform: PlatformName, raw: string): string {
  if (platform === 'slack') {
    return raw
      .trim()
      .replace(/^:+|:+$/gu, '')
      .replace(/::skin-tone-\d+$/u, '')
      .replace(/:+$/u, '')
      .toLowerCase();
  }
  return raw.trim().replace(/[\u{FE0F}\u{1F3FB}-\u{1F3FF}]/gu, '');
}
