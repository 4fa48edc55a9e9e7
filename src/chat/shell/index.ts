/**
 * @module chat/shell
 * The terminal chat adapter (zero-setup default).
 */
export {
  SHELL_BOT_USER_ID,
  SHELL_CAPABILITIES,
  ShellAdapter,
  type ShellAdapterOptions,
  type ShellBattleInfo,
} from './adapter.ts';
export { renderPlain } from './render.ts';
