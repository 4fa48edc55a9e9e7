/**
 * @module arena
 * Battle pool, pair sampling, anonymity guard, emoji → vote mapping, battle lifecycle.
 */
export { CHOICES, EmojiMap, type EmojiSet, normaliseEmoji } from './emoji.ts';
export {
  IdentityGuard,
  type IdentityGuardConfig,
  type IdentityHit,
  modelTokens,
  termRegex,
} from './identity-guard.ts';
export { type BattleView, battleContent, revealContent } from './message.ts';
export {
  type SelectedBattle,
  type SelectionStats,
  sameAnswer,
  selectBattle,
  shuffle,
} from './selection.ts';
export {
  ArenaService,
  type ArenaServiceOptions,
  type PostedBattle,
  type ReactionOutcome,
  type ReconcileReport,
  refOf,
} from './service.ts';
