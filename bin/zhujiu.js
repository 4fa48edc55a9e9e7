#!/usr/bin/env node
// Entry point for `npx zhujiu` and `npm start`: runs the compiled JavaScript in dist/ (built by `npm run build`,
// which `npm ci` / `npm install` run through the `prepare` script). Nothing is transpiled at run time.
import { existsSync, statSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { setFlagsFromString } from 'node:v8';

// The supported runtimes are package.json's `engines` (Node 22.12+ and 24). The project brings one as its `node`
// dev dependency, which npm puts first on the PATH of `npm start`, `npm test` and `npx zhujiu`; run directly by
// an older Node (`node bin/zhujiu.js` with the system's Node 20), say so and how to fix it instead of failing
// later on a dependency that needs a newer Node.
const [major, minor] = process.versions.node.split('.').map(Number);
// The command line's language, chosen as src/i18n/cli.ts localeFromPosixEnv chooses it (the first non-empty of
// LC_ALL, LC_MESSAGES, LANG; zh* is Chinese). The message catalogue is TypeScript compiled into dist/ for Node 22,
// so it cannot be loaded before this check (nor when dist/ is missing): these two texts are here in both languages.
const posixLocale = [process.env.LC_ALL, process.env.LC_MESSAGES, process.env.LANG].find((v) => v);
const zh = posixLocale?.startsWith('zh') === true;
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    zh
      ? `错误：zhujiu 需要 Node.js 22.12 或更高版本，或 24；当前是 Node ${process.version}（${process.execPath}）。\n` +
          '请通过 npm 运行它，npm 会使用项目安装的 Node（node_modules/.bin/node，来自 `npm ci`）：\n' +
          '  npx zhujiu <命令>    或    npm start\n' +
          '或者安装 Node 22 或 24（https://nodejs.org），再用它运行 `node bin/zhujiu.js`。\n'
      : `error: zhujiu needs Node.js 22.12 or later, or 24; this is Node ${process.version} (${process.execPath}).\n` +
          'Run it through npm, which uses the Node the project installs (node_modules/.bin/node, from `npm ci`):\n' +
          '  npx zhujiu <command>    or    npm start\n' +
          'or install Node 22 or 24 (https://nodejs.org) and run `node bin/zhujiu.js` with it.\n',
  );
  process.exit(1);
}

// The embedded database is WebAssembly. V8 recompiles each function that has run a little with its optimizing
// compiler, on background threads; a command runs it for a second or two, so most of that work was never repaid.
// A larger tiering budget leaves only the really hot functions to it: `zhujiu migrate` on an up-to-date folder
// went from 3.5 to 1.9 CPU-s (with the smaller buffer pool of storage/pglite-settings.ts), and importing 200,000
// votes took the same 17 s. A long-running `bot` still gets its hot functions optimized, only later
// (bench/chat-path.ts measures it with 1 M votes). The flag must be set before any WebAssembly is compiled.
setFlagsFromString('--wasm-tiering-budget=200000000');

// Node keeps the compiled code of the modules a command loads in a cache on disk (in the system's temporary folder,
// keyed by each file's contents), so the next start compiles none of them again: ~0.1 s off every command. Off
// with NODE_DISABLE_COMPILE_CACHE=1; elsewhere with NODE_COMPILE_CACHE=DIR (Node's "Module compile cache").
nodeModule.enableCompileCache?.();

// The command line as `npm run build` bundled it (dist/bundle/cli, src/cli/bundle-build.ts: a few dozen files
// instead of ~1,000 modules, ~0.25 s faster to start) when the bundle is newer than tsc's last build; else the
// compiled modules themselves (dist/src), e.g. right after a bare `tsc`.
const compiled = new URL('../dist/src/cli/', import.meta.url);
const bundled = new URL('../dist/bundle/cli/', import.meta.url);
const mtime = (url) => {
  try {
    return statSync(url).mtimeMs;
  } catch {
    return Number.NaN;
  }
};
const dir =
  mtime(new URL('index.js', bundled)) >= mtime(new URL('../dist/.tsbuildinfo', import.meta.url))
    ? bundled
    : compiled;
const entry = new URL('index.js', dir);
if (!existsSync(entry)) {
  process.stderr.write(
    zh
      ? '错误：zhujiu 尚未构建（缺少 dist/）。请运行 `npm run build`（`npm ci` 也会构建）。\n'
      : 'error: zhujiu is not built (dist/ is missing). Run `npm run build` (`npm ci` builds it too).\n',
  );
  process.exit(1);
}
// A file of the build or a package that the command line's first modules import is missing (a chunk deleted, a
// build or an `npm ci` interrupted): said here, in both languages, since the catalogue may be what is missing.
// Later on, src/cli/index.ts says the same of the modules loaded on demand (`install_broken`).
const loadOrSayBroken = async (url) => {
  try {
    return await import(url);
  } catch (err) {
    if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    const what = /'([^']+)'/.exec(err.message)?.[1] ?? err.message;
    process.stderr.write(
      zh
        ? `错误 [install_broken]：zhujiu 的安装不完整：无法加载 ${what}。请在 zhujiu 目录中运行 \`npm run build\`（或运行 \`npm ci\`，它还会重新安装依赖），然后再次运行命令。\n`
        : `error [install_broken]: zhujiu's installation is incomplete: ${what} cannot be loaded. Run \`npm run build\` in the zhujiu folder (or \`npm ci\`, which also installs its dependencies again), then run the command again.\n`,
    );
    process.exit(1);
  }
};
// A command that opens an empty embedded database starts unpacking the prepared one now, beside the loading of
// its modules (src/cli/early-fill.ts).
const { startEarlyFill } = await loadOrSayBroken(new URL('early-fill.js', dir).href);
startEarlyFill(process.argv, process.env);
// A rejected promise nobody handled: one-shot commands print it (redacted) and exit 1; bot and worker log it and
// go on (src/cli/unhandled.ts).
const { installUnhandledRejectionHandler } = await loadOrSayBroken(
  new URL('unhandled.js', dir).href,
);
installUnhandledRejectionHandler(process.env);
const { runCli, defaultIo } = await loadOrSayBroken(entry.href);
// The one place that reads the environment: every command gets it from here (src/cli/deps.ts).
await runCli(process.argv, defaultIo, { env: process.env });
// The command has returned. A process normally ends here, when nothing is left to do; if something left behind
// (a shutdown step that did not stop in time, logged by src/cli/serve.ts) keeps it alive, it ends anyway after 10 s
// with the command's exit status. The timer itself holds nothing open.
setTimeout(() => {
  process.stderr.write(
    zh
      ? 'zhujiu：命令结束 10 秒后仍在忙；现在退出\n'
      : 'zhujiu: still busy 10 s after the command ended; exiting\n',
  );
  process.exit(process.exitCode ?? 0);
}, 10_000).unref();
