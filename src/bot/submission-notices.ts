/**
 * @module bot/submission-notices
 * Tells submitters what became of their submissions (eval/submissions.ts): each approval or rejection not yet told
 * (`submissions.notified_status`, migration 0011) is delivered by the bot that holds the submitter's platform, in
 * the channel they submitted from, only to them where the platform can (`ChatPlatform.notify`: Slack's ephemeral
 * message, the terminal), else as a message in that channel. The bot delivers right after a decision in chat and
 * on every loop tick, so a decision taken with `zhujiu submissions` or while the bot was down reaches them too.
 * A notice is claimed before it is sent (at most once, whichever bot gets it).
 */
import type { Kysely } from 'kysely';
import { type ChatPlatform, type MessageContent, markdownLiteral } from '../chat/port.ts';
import type { Logger } from '../core/logger.ts';
import { listText } from '../i18n/cli.ts';
import { type Locale, t } from '../i18n/index.ts';
import type { Database } from '../storage/schema.ts';
import {
  markToldSubmission,
  type SubmissionRow,
  untoldSubmissions,
} from '../storage/submissions.ts';

/** The notice of a decided submission, in `locale` (config `locale`; default en). */
export function submissionNotice(s: SubmissionRow, locale: Locale = 'en'): MessageContent {
  const p = { id: s.id, name: markdownLiteral(s.name) };
  if (s.status === 'rejected')
    return {
      text: t(locale, 'notice.rejected', { ...p, reason: markdownLiteral(s.reason ?? '') }),
    };
  const runs = s.run_ids;
  return {
    text: t(locale, 'notice.approved', {
      ...p,
      runs:
        runs.length > 0
          ? t(locale, 'notice.runs', {
              n: runs.length,
              runs: listText(
                locale,
                runs.map((r) => `#${r}`),
              ),
            })
          : t(locale, 'notice.noRuns'),
    }),
  };
}

/**
 * Delivers the untold decisions of every platform in `platforms`, in `locale` (config `locale`; default en).
 * @returns the ids of the submissions told.
 */
export async function deliverSubmissionNotices(
  db: Kysely<Database>,
  platforms: readonly ChatPlatform[],
  logger: Logger,
  locale: Locale = 'en',
): Promise<number[]> {
  const told: number[] = [];
  for (const p of platforms) {
    for (const s of await untoldSubmissions(db, p.name)) {
      if (s.status === 'pending' || !s.submitter_channel) continue;
      if (!(await markToldSubmission(db, s.id, s.status))) continue;
      const content = submissionNotice(s, locale);
      try {
        if (p.notify) await p.notify(s.submitter_channel, s.submitter_id, content);
        else await p.post(s.submitter_channel, content);
        told.push(s.id);
      } catch (err) {
        logger.warn({ err, submission: s.id, platform: p.name }, 'telling the submitter failed');
      }
    }
  }
  return told;
}
