#!/usr/bin/env node
// Entry point for `npx zhujiu` and `npm start`: runs the compiled JavaScript in dist/ (built by `npm run build`,
// which `npm ci` / `npm install` run through the `prepare` script). Nothing is transpiled at run time.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/src/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write(
    'error: zhujiu is not built (dist/ is missing). Run `npm run build` (`npm ci` builds it too).\n',
  );
  process.exit(1);
}
const { runCli } = await import(entry.href);
await runCli(process.argv);
