/**
 * @module core/voter-id
 * Voter ids are stored as an HMAC-SHA-256 of platform + user id with a server secret (docs/architecture.md):
 * the same person on the same platform always maps to the same id (so one live vote per voter works), and raw
 * platform user ids never reach the database.
 */
import { createHmac } from 'node:crypto';

/**
 * Hashes a platform user id.
 * @param secret server secret (≥ 16 chars), from `ZHUJIU_VOTER_SECRET`.
 * @returns 32 lower-case hex characters (128 bits of the HMAC).
 */
export function hashVoterId(secret: string, platform: string, userId: string): string {
  return createHmac('sha256', secret)
    .update(`${platform}\u0000${userId}`)
    .digest('hex')
    .slice(0, 32);
}
