#!/usr/bin/env node
// Entry point for `npx zhujiu` and `npm start`: registers tsx so the TypeScript sources run without a build step.
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../src/cli/index.ts');
await runCli(process.argv);
