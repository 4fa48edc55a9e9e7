/**
 * @module bot/commands/permissions
 * Who is a maintainer, per platform (config `platforms`): Discord by role id, Slack by user id or user-group id
 * (the Slack adapter reports the configured groups the caller belongs to as roles), the terminal by its
 * `maintainer` flag (the shell adapter reports it as the role `maintainer`). Checked server-side for every
 * maintainer-only command, whatever the platform hides.
 */

import { type ChatUser, type PlatformName, SHELL_MAINTAINER_ROLE } from '../../chat/port.ts';
import type { AppConfig } from '../../config/schema.ts';

export { SHELL_MAINTAINER_ROLE };

/** True when `user` on `platform` may run maintainer-only commands. */
export function isMaintainer(
  user: ChatUser,
  platform: PlatformName,
  cfg: AppConfig['platforms'],
): boolean {
  switch (platform) {
    case 'discord':
      return user.roles.some((r) => cfg.discord.maintainer_role_ids.includes(r));
    case 'slack':
      return (
        cfg.slack.maintainer_user_ids.includes(user.id) ||
        user.roles.some((r) => cfg.slack.maintainer_usergroup_ids.includes(r))
      );
    case 'shell':
      return user.roles.includes(SHELL_MAINTAINER_ROLE);
  }
}
