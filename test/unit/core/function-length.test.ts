/**
 * No function in src/ is longer than {@link MAX_FUNCTION_LINES} lines (docs/architecture.md, "Rules"): a long
 * function mixes concerns that are cheaper to change, and to test, apart. Measured with the TypeScript compiler's
 * syntax tree: every function, method, accessor, constructor, arrow function and function expression with a body,
 * from its first token (its doc comment aside) to its closing brace; a function's length includes the functions
 * nested in it.
 *
 * {@link LONG_FUNCTIONS} is a temporary list of the functions that were longer when the rule came in, each with its
 * length then. It only shrinks: a listed function may not grow, one that is split below the limit must leave the
 * list (the test says so), and nothing is added to it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/** The longest a function in src/ may be, in lines. */
const MAX_FUNCTION_LINES = 80;

/**
 * Temporary: functions longer than the limit when the rule came in (`file#name` → lines then). Shrink it to empty;
 * never add to it.
 */
const LONG_FUNCTIONS: Readonly<Record<string, number>> = {
  'src/aggregate/board.ts#aggregatePass': 86,
  'src/aggregate/board.ts#computeBoard': 424,
  'src/arena/selection.ts#selectBattle': 91,
  'src/bot/commands/handlers.ts#createCommandHandler': 151,
  'src/chat/discord/adapter.ts#DiscordAdapter.#onInteraction': 90,
  'src/chat/discord/adapter.ts#DiscordAdapter.start': 95,
  'src/chat/slack/adapter.ts#SlackAdapter.#runCommand': 81,
  'src/chat/slack/adapter.ts#SlackAdapter.start': 134,
  'src/cli/eval.ts#runEval': 169,
  'src/cli/index.ts#buildProgram': 359,
  'src/cli/leaderboard.ts#runLeaderboard': 100,
  'src/cli/ratings.ts#runRatings': 99,
  'src/cli/serve.ts#startOn': 101,
  'src/config/loader.ts#loadConfig': 121,
  'src/eval/judge/judge.ts#judgeAnswers': 147,
  'src/eval/judge/judge.ts#judgeAnswers.(pool callback)': 121,
  'src/eval/judge/report.ts#judgeReport': 107,
  'src/import/battles.ts#readBattlesFile': 129,
  'src/import/formats/arena-battles.ts#createArenaLineParser': 132,
  'src/import/formats/json-reader.ts#locateJsonError': 133,
  'src/import/formats/recorded-outputs.ts#parseRecordedOutputs': 114,
  'src/import/gaokao-outputs.ts#importGaokaoOutputs': 149,
  'src/import/judgments.ts#importAlpaca': 109,
  'src/import/outputs.ts#storeOutputs': 90,
  'src/leaderboard/inputs.ts#loadBoardInput': 154,
  'src/llm/reply.ts#readReply': 98,
  'src/storage/eval-datasets.ts#upsert': 97,
  'src/storage/leaderboard.ts#boardBattleTypes': 107,
  'src/storage/pglite-thread.ts#openPGliteThread': 94,
  'src/storage/pglite-upgrade.ts#copyInto': 169,
};

/** One measured function: `file#name` (name qualified by its class or enclosing functions) and its lines. */
interface Measured {
  readonly key: string;
  readonly lines: number;
  readonly line: number;
}

function files(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...files(p));
    else if (p.endsWith('.ts')) out.push(p);
  }
  return out;
}

/**
 * The name a function goes by: its own, the variable or property it is assigned to, `(f callback)` for a function
 * passed to a call of `f` / `x.f`, else `(anonymous)`.
 */
function nameOf(node: ts.SignatureDeclaration, sf: ts.SourceFile): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText(sf);
  const p = node.parent;
  if (
    (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) &&
    p.name
  )
    return p.name.getText(sf);
  if (ts.isCallExpression(p) || ts.isNewExpression(p)) {
    const callee = p.expression;
    const called = ts.isPropertyAccessExpression(callee) ? callee.name : callee;
    return `(${ts.isIdentifier(called) || ts.isPrivateIdentifier(called) ? called.text : 'call'} callback)`;
  }
  return '(anonymous)';
}

/** Every function with a body in `file`, with its length in lines. */
function measureFunctions(file: string, text: string): Measured[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Measured[] = [];
  const seen = new Map<string, number>();
  const visit = (node: ts.Node, scope: readonly string[]): void => {
    let inner = scope;
    if (ts.isClassLike(node)) inner = [...scope, node.name?.getText(sf) ?? '(class)'];
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.end).line;
      inner = [...scope, nameOf(node, sf)];
      let key = `${file}#${inner.join('.')}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      if (n > 1) key = `${key}~${n}`;
      out.push({ key, lines: end - start + 1, line: start + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(sf, []);
  return out;
}

const SRC = join(PROJECT_ROOT, 'src');
const measured = files(SRC).flatMap((f) =>
  measureFunctions(relative(PROJECT_ROOT, f), readFileSync(f, 'utf8')),
);

describe('function length', () => {
  it('measures from the first token to the closing brace, nested functions included, doc comments aside', () => {
    const text = [
      '/** doc */',
      'export function outer(): number {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return inner();',
      '}',
      'class K {',
      '  m(): void {}',
      '}',
    ].join('\n');
    expect(measureFunctions('x.ts', text).map((m) => [m.key, m.lines, m.line])).toEqual([
      ['x.ts#outer', 6, 2],
      ['x.ts#outer.inner', 3, 3],
      ['x.ts#K.m', 1, 9],
    ]);
  });

  it(`no function in src/ is longer than ${MAX_FUNCTION_LINES} lines (split it along its concerns)`, () => {
    const over = measured
      .filter((m) => m.lines > MAX_FUNCTION_LINES && !(m.key in LONG_FUNCTIONS))
      .map((m) => `${m.key.replace('#', `:${m.line} `)}: ${m.lines} lines`);
    expect(over).toEqual([]);
  });

  it('the temporary list of long functions only shrinks', () => {
    const byKey = new Map(measured.map((m) => [m.key, m]));
    const problems: string[] = [];
    for (const [key, then] of Object.entries(LONG_FUNCTIONS)) {
      const now = byKey.get(key);
      if (!now) problems.push(`${key}: gone or renamed; remove it from LONG_FUNCTIONS`);
      else if (now.lines <= MAX_FUNCTION_LINES)
        problems.push(
          `${key}: ${now.lines} lines now, within the limit; remove it from LONG_FUNCTIONS`,
        );
      else if (now.lines > then)
        problems.push(
          `${key}: ${now.lines} lines, longer than the ${then} it was listed with; shorten it`,
        );
    }
    expect(problems).toEqual([]);
  });
});
