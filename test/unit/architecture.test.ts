/**
 * The rules of the house (docs/architecture.md), checked over the source tree: a rule broken by a later change fails
 * here with the file and line.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/shared-data.ts';

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** One source file, as the rules read it. */
interface Source {
  readonly file: string;
  readonly lines: readonly string[];
}

const SRC = join(PROJECT_ROOT, 'src');
const all: Source[] = files(SRC).map((f) => ({
  file: relative(PROJECT_ROOT, f),
  lines: readFileSync(f, 'utf8').split('\n'),
}));

/** `file:line: text` of every line of `sources` matching `pattern`, comments aside, in files not `allowed`. */
function offendersIn(
  sources: readonly Source[],
  pattern: RegExp,
  allowed: (file: string) => boolean,
): string[] {
  const found: string[] = [];
  for (const { file, lines } of sources) {
    if (allowed(file)) continue;
    lines.forEach((l, i) => {
      if (pattern.test(l) && !/^\s*(\*|\/\/)/.test(l)) found.push(`${file}:${i + 1}: ${l.trim()}`);
    });
  }
  return found;
}

function offenders(pattern: RegExp, allowed: (file: string) => boolean): string[] {
  return offendersIn(all, pattern, allowed);
}

/**
 * A branch on a platform's name: a comparison with a platform name literal (either side, `case` included), or
 * `.name` of a platform/adapter compared with anything. Outside `src/chat/` the application asks the platform's
 * capabilities instead (`PlatformCapabilities` in src/chat/port.ts).
 */
const PLATFORM_NAME_BRANCH =
  /[!=]==?\s*'(discord|slack|shell)'|'(discord|slack|shell)'\s*[!=]==?|\bcase\s+'(discord|slack|shell)'\s*:|\b(p|platform|adapter|chat|\w+Platform|\w+Adapter)\.name\s*[!=]==?|[!=]==?\s*(p|platform|adapter|chat|\w+Platform|\w+Adapter)\.name\b/;

/**
 * Where platform names may be compared: the chat layer; config/ (the `platforms` enum and sections); the
 * maintainer rule, which reads each platform's own config section (`platforms.discord.maintainer_role_ids`…) by
 * name and has no behaviour of its own per platform.
 */
const mayNamePlatforms = (f: string) =>
  f.startsWith('src/chat/') ||
  f.startsWith('src/config/') ||
  f === 'src/bot/commands/permissions.ts';

function platformNameBranches(sources: readonly Source[]): string[] {
  return offendersIn(sources, PLATFORM_NAME_BRANCH, mayNamePlatforms);
}

/** `instanceof` of a chat adapter class (ShellAdapter, DiscordAdapter, SlackAdapter, any later `…Adapter`). */
const ADAPTER_INSTANCEOF = /\binstanceof\s+\w*Adapter\b/;

function adapterClassChecks(sources: readonly Source[]): string[] {
  return offendersIn(
    sources,
    ADAPTER_INSTANCEOF,
    (f) => f.startsWith('src/chat/') || f === 'src/main.ts',
  );
}

/**
 * A query run: raw SQL (the `sql` tag, `sql.raw`/`sql.ref`/…, an import of `sql` or of `pg`), the Kysely query
 * builder (`.selectFrom(`, `.insertInto(`, `.updateTable(`, `.deleteFrom(`, `.replaceInto(`, `.mergeInto(`,
 * `.selectNoFrom(`, `.withSchema(`), or running one (`.executeQuery(`, `.executeTakeFirst(`,
 * `.executeTakeFirstOrThrow(`, `.execute(db)`). A transaction opened around storage/ calls is not a query.
 */
const QUERY_RUN =
  /\.(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto|selectNoFrom|withSchema|executeQuery|executeTakeFirst|executeTakeFirstOrThrow)\(|\bsql(<[^>]*>)?`|\bsql\.(raw|ref|lit|id|table|join|val)\(|\.execute\(\s*(db|trx|tx|conn)\b|\bimport\s*\{[^}]*\bsql\b[^}]*\}\s*from 'kysely'|from 'pg'/;

function queriesOutsideStorage(sources: readonly Source[]): string[] {
  return offendersIn(sources, QUERY_RUN, (f) => f.startsWith('src/storage/'));
}

/** A one-file source tree for showing what a rule catches. */
const fixture = (file: string, text: string): Source[] => [{ file, lines: text.split('\n') }];

describe('architecture rules', () => {
  it('pure modules never read the clock or Math.random()', () => {
    const pure = (f: string) => /^src\/(rating|aggregate|eval\/metrics|text)\//.test(f);
    expect(
      offenders(/Math\.random\(|Date\.now\(|new Date\(\)|performance\.now\(/, (f) => !pure(f)),
    ).toEqual([]);
  });

  it('outside core/, randomness comes from the seeded Rng', () => {
    expect(offenders(/Math\.random\(/, (f) => f.startsWith('src/core/'))).toEqual([]);
  });

  it('nothing in src/ reads process.env: bin/zhujiu.js passes it to runCli, which hands it to loadConfig', () => {
    expect(offenders(/process\.env/, () => false)).toEqual([]);
  });

  it('only storage/ runs queries: raw SQL and the Kysely query builder', () => {
    expect(queriesOutsideStorage(all)).toEqual([]);
  });

  it('the query rule catches the query builder, raw SQL and running a query, not a transaction', () => {
    const caught = [
      "const r = await db.selectFrom('battles').select('id').execute();",
      "await this.#o.db.insertInto('votes').values(v).execute();",
      "  .updateTable('battles')",
      "await trx.deleteFrom('votes').where('id', '=', 1).execute();",
      '    .executeTakeFirst();',
      'await sql`select 1`.execute(db);',
      'const n = sql<number>`count(*)`;',
      "sql.raw('drop table x')",
      '  .execute(db);',
      "import { sql } from 'kysely';",
      "import pg from 'pg';",
    ];
    for (const line of caught)
      expect(queriesOutsideStorage(fixture('src/bot/service.ts', line)), line).toHaveLength(1);
    expect(queriesOutsideStorage(fixture('src/storage/battles.ts', caught.join('\n')))).toEqual([]);
    const fine = [
      'return db.transaction().execute(async (trx) => upsert(trx, rows));',
      'outcome = await evals.execute(runId, { signal });',
    ];
    for (const line of fine)
      expect(queriesOutsideStorage(fixture('src/import/outputs.ts', line)), line).toEqual([]);
  });

  it('outside chat/, nothing branches on a platform name: it asks the capabilities', () => {
    expect(platformNameBranches(all)).toEqual([]);
  });

  it('the platform-name rule catches name literals and .name of a platform, not other names', () => {
    const caught = [
      "if (platformName === 'shell' && isAppError(err, 'not_found')) {",
      "ctx.platform !== 'slack' ? a : b",
      "'discord' === ev.platform",
      "    case 'shell':",
      'if (platform.name === other) return;',
      'this.#started.some((p) => p.name === c.platform)',
      'if (c.platform === chatPlatform.name) x();',
    ];
    for (const line of caught)
      expect(platformNameBranches(fixture('src/arena/service.ts', line)), line).toHaveLength(1);
    expect(platformNameBranches(fixture('src/chat/port.ts', caught.join('\n')))).toEqual([]);
    const fine = [
      'const m = models.find((x) => x.name === name);',
      'const p = platformNamed(this.#started, c.platform);',
      "if (platform.capabilities.voting === 'typed') x();",
    ];
    for (const line of fine)
      expect(platformNameBranches(fixture('src/arena/service.ts', line)), line).toEqual([]);
  });

  it('outside chat/ and the composition root, nothing checks an adapter class', () => {
    expect(adapterClassChecks(all)).toEqual([]);
  });

  it('the adapter-class rule catches instanceof of any adapter, not of other classes', () => {
    for (const line of [
      'o.platforms.some((p) => p instanceof ShellAdapter && p.interactive)',
      'if (p instanceof DiscordAdapter) return;',
      'if (x instanceof SlackAdapter) y();',
    ])
      expect(adapterClassChecks(fixture('src/bot/service.ts', line)), line).toHaveLength(1);
    expect(
      adapterClassChecks(fixture('src/chat/shell/adapter.ts', 'p instanceof ShellAdapter')),
    ).toEqual([]);
    expect(
      adapterClassChecks(fixture('src/bot/service.ts', 'if (err instanceof AppError) throw err;')),
    ).toEqual([]);
  });

  it('only chat/<platform>/ imports a chat SDK', () => {
    expect(
      offenders(/from 'discord\.js'|from '@discordjs\//, (f) => f.startsWith('src/chat/discord/')),
    ).toEqual([]);
    expect(offenders(/from '@slack\//, (f) => f.startsWith('src/chat/slack/'))).toEqual([]);
  });

  it('chat/ is the platform layer only: it imports no arena, bot, eval, board or storage', () => {
    expect(
      offenders(
        /from '\.\.\/(\.\.\/)?(arena|bot|eval|leaderboard|storage|aggregate|jobs|llm)\//,
        (f) => !f.startsWith('src/chat/'),
      ),
    ).toEqual([]);
  });

  it('only llm/ imports openai; only jobs/ imports pg-boss', () => {
    expect(offenders(/from 'openai'|from 'openai\//, (f) => f.startsWith('src/llm/'))).toEqual([]);
    expect(offenders(/from 'pg-boss'/, (f) => f.startsWith('src/jobs/'))).toEqual([]);
  });

  it('parsers of outside formats live under import/formats/ and do no I/O', () => {
    expect(
      offenders(
        /from 'node:fs'|from 'node:fs\/promises'/,
        (f) => !f.startsWith('src/import/formats/'),
      ),
    ).toEqual([]);
  });
});
