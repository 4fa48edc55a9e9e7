/**
 * @module chat/discord
 * Public surface of the Discord adapter (only `main.ts` should construct it).
 */
export {
  DISCORD_CAPABILITIES,
  DiscordAdapter,
  type DiscordAdapterOptions,
  encodeEmoji,
} from './adapter.ts';
export { DISCORD_LIMITS, renderDiscordMessages } from './render.ts';
