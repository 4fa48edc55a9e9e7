/**
 * @module chat/shell
 * The terminal chat adapter (zero-setup default).
 */
export {
  SHELL_BOT_USER_ID,
  ShellAdapter,
  type ShellAdapterOptions,
  type ShellBattleInfo,
  type ShellBattleResolver,
  type ShellVoteHandler,
} from './adapter.ts';
export { renderPlain } from './render.ts';
