/**
 * Vitest global setup of the `process` project and of e2e: brings dist/ up to date (test/helpers/build.ts), since
 * their tests start the compiled `bin/zhujiu.js` as a user's `npm start` / `npx zhujiu` does.
 */
import { ensureBuilt } from './build.ts';

export default async function setup(): Promise<void> {
  await ensureBuilt();
}
