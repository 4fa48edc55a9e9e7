/**
 * `zhujiu --help` and light commands load no heavy module (src/cli/index.ts): walks the static imports from the
 * CLI's entry (dynamic `import()` and `import type` are lazy or erased) and fails naming the chain that pulls a
 * heavy package in. bench/startup.ts measures the resulting time and memory of whole processes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/** Packages that must load only in the commands that use them. */
const HEAVY = [
  'discord.js',
  '@slack/bolt',
  '@slack/web-api',
  '@electric-sql/pglite',
  'kysely/migration',
  'pg',
  'pg-boss',
  'kysely',
  'openai',
  'pino',
  'prom-client',
  'hono',
  '@hono/node-server',
  'zod',
  'yaml',
  'vega',
  'vega-lite',
  '@resvg/resvg-js',
  'croner',
];

/** Static imports of one file: `import … from 'x'`, `import 'x'`, `export … from 'x'`; not `import type`. */
function staticImports(source: string): string[] {
  const out: string[] = [];
  const re = /^\s*(import|export)\s+(type\s+)?([^'";]*?\s*from\s+)?['"]([^'"]+)['"]/gm;
  for (const m of source.matchAll(re)) {
    if (m[2]) continue; // `import type …` / `export type …`: erased
    // `import { type A } from 'x'` stays as `import {} from 'x'` under verbatimModuleSyntax: it loads x.
    out.push(m[4] as string);
  }
  return out;
}

function packageName(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? `${parts[0]}/${parts[1]}` : (parts[0] as string);
}

/** Every chain of static imports from `entry` that reaches a heavy package. */
function heavyChains(entry: string): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const spec of staticImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) {
        const next = resolve(dirname(file), spec);
        if (existsSync(next)) walk(next, [...chain, relative(PROJECT_ROOT, next)]);
      } else if (HEAVY.includes(packageName(spec))) {
        found.push([...chain, spec].join(' → '));
      }
    }
  };
  walk(entry, [relative(PROJECT_ROOT, entry)]);
  return found;
}

describe('the command line loads heavy modules lazily', () => {
  it('src/cli/index.ts (all of `zhujiu --help`) statically imports no heavy package', () => {
    expect(heavyChains(join(PROJECT_ROOT, 'src/cli/index.ts'))).toEqual([]);
  });

  it('`ratings --battles FILE` loads no database driver, chat SDK or logger', () => {
    expect(heavyChains(join(PROJECT_ROOT, 'src/cli/ratings.ts'))).toEqual([]);
  });

  it('the walker sees a heavy import when there is one (the test can fail)', () => {
    expect(heavyChains(join(PROJECT_ROOT, 'src/cli/migrate.ts')).join('\n')).toMatch(
      /src\/main\.ts → .*kysely|src\/storage\/db\.ts → kysely/,
    );
    expect(staticImports("import type { A } from 'pg';\nexport type { B } from 'zod';")).toEqual(
      [],
    );
    expect(
      staticImports("import { type A } from 'pg';\nexport { x } from 'zod';\nimport 'yaml';"),
    ).toEqual(['pg', 'zod', 'yaml']);
  });
});
