/**
 * @module chat/slack
 * Public surface of the Slack adapter (only `main.ts` should construct it).
 */
export {
  parseCommandArgs,
  SLACK_CAPABILITIES,
  SlackAdapter,
  type SlackAdapterOptions,
} from './adapter.ts';
export { escapeMrkdwn, renderSlackMessages, SLACK_LIMITS } from './render.ts';
