/**
 * Every name `src/` imports from a package exists in what Node's own ESM loader gives for that package, as
 * `zhujiu` runs it (bin/zhujiu.js → dist/). Vitest cannot show this in-process: it hands a CommonJS package's
 * `module.exports` keys over as named exports (its interop), while Node finds only what its CommonJS lexer
 * detects: `const { Format } = await import('cli-progress')` is undefined under Node although it works in a
 * test. The imports are read with the TypeScript parser (static `import { a } from 'p'`,
 * `const { a } = await import('p')`, `(await import('p')).a`, and `const [{ a }] = await Promise.all([import('p')])`);
 * a child `node` imports each package.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';
import { tsFilesUnder } from '../../helpers/source-files.ts';

/** Every .ts file under `dir`. */

/** Package specifier → value names imported from it → files that import them. */
function packageImports(files: readonly string[]): Map<string, Map<string, Set<string>>> {
  const found = new Map<string, Map<string, Set<string>>>();
  const add = (spec: string, name: string, file: string) => {
    if (spec.startsWith('.') || spec.startsWith('node:')) return;
    const names = found.get(spec) ?? new Map<string, Set<string>>();
    found.set(spec, names);
    const where = names.get(name) ?? new Set<string>();
    names.set(name, where);
    where.add(file.slice(PROJECT_ROOT.length + 1));
  };
  const dynamicSpec = (n: ts.Node): string | undefined => {
    // `await import('p')`, possibly in parentheses
    let e = n;
    while (ts.isParenthesizedExpression(e)) e = e.expression;
    if (!ts.isAwaitExpression(e)) return undefined;
    const call = e.expression;
    if (!ts.isCallExpression(call) || call.expression.kind !== ts.SyntaxKind.ImportKeyword)
      return undefined;
    const arg = call.arguments[0];
    return arg && ts.isStringLiteral(arg) ? arg.text : undefined;
  };
  for (const file of files) {
    const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (n: ts.Node): void => {
      if (ts.isImportDeclaration(n) && ts.isStringLiteral(n.moduleSpecifier)) {
        const clause = n.importClause;
        if (clause && !clause.isTypeOnly) {
          const spec = n.moduleSpecifier.text;
          if (clause.name) add(spec, 'default', file);
          const b = clause.namedBindings;
          if (b && ts.isNamedImports(b)) {
            for (const el of b.elements) {
              if (!el.isTypeOnly) add(spec, (el.propertyName ?? el.name).text, file);
            }
          }
        }
      }
      if (ts.isVariableDeclaration(n) && n.initializer && ts.isObjectBindingPattern(n.name)) {
        const spec = dynamicSpec(n.initializer);
        if (spec) {
          for (const el of n.name.elements) {
            const key = el.propertyName ?? el.name;
            if (ts.isIdentifier(key)) add(spec, key.text, file);
          }
        }
      }
      // const [{ a }, { b }] = await Promise.all([import('p'), import('q')])
      if (ts.isVariableDeclaration(n) && n.initializer && ts.isArrayBindingPattern(n.name)) {
        let e: ts.Expression = n.initializer;
        if (ts.isAwaitExpression(e)) e = e.expression;
        const list = ts.isCallExpression(e) ? e.arguments[0] : undefined;
        if (list && ts.isArrayLiteralExpression(list)) {
          n.name.elements.forEach((el, i) => {
            const call = list.elements[i];
            if (!call || !ts.isCallExpression(call) || ts.isOmittedExpression(el)) return;
            if (call.expression.kind !== ts.SyntaxKind.ImportKeyword) return;
            const arg = call.arguments[0];
            if (!arg || !ts.isStringLiteral(arg) || !ts.isObjectBindingPattern(el.name)) return;
            for (const b of el.name.elements) {
              const key = b.propertyName ?? b.name;
              if (ts.isIdentifier(key)) add(arg.text, key.text, file);
            }
          });
        }
      }
      if (ts.isPropertyAccessExpression(n)) {
        const spec = dynamicSpec(n.expression);
        if (spec) add(spec, n.name.text, file);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
  }
  return found;
}

describe("package imports under Node's ESM loader", () => {
  it('every imported name exists in the module Node gives', () => {
    const imports = packageImports(tsFilesUnder(join(PROJECT_ROOT, 'src')));
    // The parser sees each form: a static import, a destructured `await import`, one in `Promise.all`.
    expect(imports.get('commander')?.has('Command')).toBe(true);
    expect(imports.get('pg')?.has('default')).toBe(true);
    expect(imports.get('prom-client')?.has('Registry')).toBe(true);
    const wanted = Object.fromEntries(
      [...imports].map(([spec, names]) => [spec, [...names.keys()]]),
    );
    // The child imports each package from the project folder, as dist/ does, and lists the names it lacks.
    const check = `
      const wanted = ${JSON.stringify(wanted)};
      const missing = [];
      for (const [spec, names] of Object.entries(wanted)) {
        const ns = await import(spec);
        for (const n of names) if (!(n in ns) || ns[n] === undefined) missing.push(spec + ': ' + n);
      }
      process.stdout.write(JSON.stringify(missing));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', check], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    });
    const missing = (JSON.parse(out) as string[]).map((m) => {
      const [spec, name] = m.split(': ') as [string, string];
      return `${m} (imported in ${[...(imports.get(spec)?.get(name) ?? [])].join(', ')})`;
    });
    expect(missing).toEqual([]);
  });
});
