/**
 * Setup file of the `app` project, which runs many test files in one worker (`isolate: false` in
 * vitest.config.ts). vega-lite (the board chart, loaded in-process by one-shot commands and inline boards) defines
 * `Set.prototype.toJSON` when it loads, and the event emitter of discord.js (`@vladfrangu/async_event_emitter`,
 * both its CommonJS and ES module builds) then fails to load ("Cannot use 'in' operator to search for
 * 'Symbol(Symbol.iterator)' in Set()"). Loading them first, as `zhujiu bot` does (its charts are drawn in a
 * worker thread), keeps a Discord test file working after a file that drew a chart in the same worker.
 */
import 'discord.js';
import '@vladfrangu/async_event_emitter';
