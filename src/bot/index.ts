/**
 * @module bot
 * The bot service wiring (platforms + commands + arena + loop).
 */
export { BotService, type BotServiceOptions, type TickReport } from './service.ts';
