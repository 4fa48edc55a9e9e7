/**
 * @module bot/commands
 * Platform-neutral slash-command handlers and their specs (for registration).
 */

export { type CommandDeps, createCommandHandler, MAINTAINER_REFUSAL } from './handlers.ts';
export { type JudgeCrowdRow, judgeAgreeContent, judgeCrowdAgreement } from './judge.ts';
export {
  LEADERBOARD_VIEWS,
  type LeaderboardRequest,
  leaderboardReply,
  pageLink,
  parseLeaderboardArgs,
} from './leaderboard.ts';
export { isMaintainer, SHELL_MAINTAINER_ROLE } from './permissions.ts';
export { COMMAND_SPECS } from './specs.ts';
