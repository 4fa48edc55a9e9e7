/**
 * No user-facing sentence of the converted chat surfaces and command-line modules bypasses the message catalogue (docs/architecture.md
 * "Languages"): each converted module is parsed (the TypeScript compiler's own parser) and every string literal and
 * template text that reads like words ("Vote by reacting", "no battle #…") outside a catalogue call, a log line, a
 * thrown programming or storage error, an import or a type fails here with its file and line. What is left on
 * purpose is in {@link ALLOWED}, each with why.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

/**
 * Lower layers whose errors (AppError) the command line prints to its user, or chat and the site show: their texts
 * are words to translate (catalogue data, `saidError`), like the command line's own.
 */
function LOWER_LAYERS_PRINTED(): string[] {
  return [
    'src/core/out-file.ts',
    'src/core/logger.ts',
    'src/config/start-checks.ts',
    'src/rating/arena-data.ts',
    'src/rating/arena-ratings.ts',
    'src/rating/bradley-terry.ts',
    'src/eval/metrics/agreement.ts',
    'src/eval/prepare-suite.ts',
    'src/eval/service.ts',
    'src/eval/datasets/build/packages.ts',
    'src/eval/datasets/prepare.ts',
    'src/llm/factory.ts',
    'src/http/server.ts',
    'src/main.ts',
  ];
}

/** The modules whose chat texts are in the catalogue (README "Configuration", docs/architecture.md "Languages"). */
const CONVERTED = [
  'src/arena/message.ts',
  'src/arena/ask.ts',
  'src/arena/ask-policy.ts',
  'src/arena/ask-progress.ts',
  'src/arena/live-answers.ts',
  'src/arena/identity-question.ts',
  'src/bot/commands/ask.ts',
  'src/bot/commands/eval.ts',
  'src/bot/commands/flagged.ts',
  'src/bot/commands/handlers.ts',
  'src/bot/commands/judge.ts',
  'src/bot/commands/leaderboard.ts',
  'src/bot/commands/specs.ts',
  'src/bot/commands/submit.ts',
  'src/chat/help.ts',
  'src/chat/render/fit.ts',
  'src/chat/discord/render.ts',
  'src/chat/discord/adapter.ts',
  'src/chat/slack/render.ts',
  'src/chat/slack/adapter.ts',
  'src/chat/shell/render.ts',
  'src/chat/shell/adapter.ts',
  'src/leaderboard/views.ts',
  'src/leaderboard/daily-post.ts',
  'src/bot/service.ts',
  'src/bot/submission-notices.ts',
  'src/chat/no-access.ts',
  'src/arena/service.ts',
  'src/eval/refusal.ts',
  'src/eval/service.ts',
  'src/eval/submission-problems.ts',
  'src/eval/submissions.ts',
  'src/bot/eval-reporter.ts',
  'src/eval/summary.ts',
  'src/leaderboard/style.ts',
  'src/leaderboard/chart.ts',
  // The command line (its help, usage errors and error printer; commands' outputs as converted).
  'src/cli/index.ts',
  'src/cli/help-text.ts',
  'src/cli/config-check.ts',
  'src/cli/datasets.ts',
  'src/cli/eval.ts',
  'src/cli/export.ts',
  'src/cli/import.ts',
  'src/cli/interrupt.ts',
  'src/cli/judge-agree.ts',
  'src/cli/judge-export.ts',
  'src/cli/judge.ts',
  'src/cli/leaderboard.ts',
  'src/cli/migrate.ts',
  'src/cli/ratings-stored.ts',
  'src/cli/ratings.ts',
  'src/cli/ratings-style.ts',
  'src/cli/results.ts',
  'src/cli/out-format.ts',
  'src/cli/sources.ts',
  'src/cli/submissions.ts',
  'src/cli/suites.ts',
  'src/cli/unhandled.ts',
  // Lower layers whose messages the command line shows in its language.
  'src/core/out-file.ts',
  'src/config/start-checks.ts',
  'src/llm/endpoint-check.ts',
  'src/import/formats/json-reader.ts',
  'src/import/formats/recorded-outputs.ts',
  'src/import/formats/sniff.ts',
  'src/import/battles.ts',
  'src/eval/datasets/source.ts',
  'src/eval/datasets/prepare.ts',
  ...LOWER_LAYERS_PRINTED(),
];

/**
 * Texts left out of the catalogue on purpose, by file: the exact literal (or template text) and why.
 */
const ALLOWED: Readonly<Record<string, readonly { text: string; why: string }[]>> = {
  'src/eval/datasets/source.ts': [
    // insideFolder's `what` selects the catalogue word (cli.dataset.folder / cli.dataset.cache); never shown as is.
    { text: 'datasets folder', why: 'a selector of the message, said through the catalogue' },
    { text: 'datasets cache', why: 'a selector of the message, said through the catalogue' },
  ],
  'src/eval/datasets/prepare.ts': [
    {
      text: '(stored items)',
      why: "a provenance record's file list (stored data, shown as recorded)",
    },
    {
      text: ': a robustness dataset has no file format of its own; it is prepared from its base dataset (prepareDataset)',
      why: 'a programming error (a robustness entry never reaches the file loaders)',
    },
  ],
  'src/eval/datasets/build/packages.ts': [
    { text: 'no package.json of "', why: 'an internal error (a broken installation), logged' },
    { text: '" above its entry point', why: 'an internal error (a broken installation), logged' },
    {
      text: 'cannot tell the licence of the data package "',
      why: 'an internal error (a package without a known licence), logged',
    },
  ],
  'src/core/logger.ts': [{ text: 'SYS:yyyy-mm-dd HH:MM:ss', why: "pino-pretty's time format" }],
  'src/http/server.ts': [{ text: 'public, max-age=', why: 'an HTTP header value' }],
  'src/main.ts': [
    { text: 'database not reachable; trying again', why: 'a log line (retry message)' },
  ],
  'src/chat/discord/adapter.ts': [
    // What a REST call was doing, for the log line and the error the caller logs; never a chat message.
    { text: 'list reaction users', why: 'REST operation name, logged' },
    { text: 'register global commands', why: 'REST operation name, logged' },
    { text: 'register guild commands', why: 'REST operation name, logged' },
    { text: 'post message', why: 'REST operation name, logged' },
    { text: 'get message', why: 'REST operation name, logged' },
    { text: 'edit message', why: 'REST operation name, logged' },
    { text: 'add reaction', why: 'REST operation name, logged' },
    { text: 'delete message', why: 'REST operation name, logged' },
    { text: 'discord gateway ready', why: 'what a start-up timeout waited for, in its error' },
    { text: 'text/plain; charset=utf-8', why: 'a MIME type' },
  ],
  'src/chat/slack/adapter.ts': [{ text: 'thread reply', why: 'Web API operation name, logged' }],
  // AskOutcome.reason: why a question made no battle, for the log and the tests; the asker is told in words.
  'src/arena/ask.ts': [
    { text: 'no answers', why: 'outcome reason, logged' },
    { text: 'identical answers', why: 'outcome reason, logged' },
    { text: 'posting failed: ', why: 'outcome reason, logged' },
    { text: 'another follow-up was answered first', why: 'outcome reason, logged' },
  ],
  // Why a battle was withdrawn, for its log line only.
  'src/arena/service.ts': [
    { text: 'the reveal found its message gone', why: 'withdrawal reason, logged' },
    { text: 'its message was deleted', why: 'withdrawal reason, logged' },
    { text: 'its message is gone (found on re-reading it)', why: 'withdrawal reason, logged' },
  ],
  'src/chat/no-access.ts': [
    { text: 'Missing Access', why: "Discord's name of error 50001, quoted with its code" },
    { text: 'Missing Permissions', why: "Discord's name of error 50013, quoted with its code" },
  ],
  'src/leaderboard/chart.ts': [{ text: 'Noto Sans SC', why: "the shipped font's family name" }],
  'src/eval/refusal.ts': [
    { text: '/eval cancel ', why: 'a typed command form' },
    { text: 'zhujiu eval --cancel ', why: 'a typed command line' },
  ],
  // Commander's own wording of a missing option, which cli/help-text.ts localiseCommanderError translates.
  'src/cli/eval.ts': [
    { text: "error: required option '", why: "commander's usage error, translated on output" },
    { text: "' not specified", why: "commander's usage error, translated on output" },
  ],
  // The flags and the command that decide an output file's format, quoted in the refusal of a name of another.
  'src/cli/results.ts': [
    { text: '--format csv', why: 'a typed flag' },
    { text: '--format jsonl', why: 'a typed flag' },
  ],
  'src/cli/judge-export.ts': [{ text: 'zhujiu judge export', why: 'a typed command line' }],
  'src/cli/out-format.ts': [{ text: 'JSON Lines', why: "a file format's proper name" }],
  // The `note` of a row of `zhujiu ratings --json`: part of the JSON interface, English in every language.
  'src/cli/ratings.ts': [
    {
      text: 'undefined: no bootstrap round gave the model a rating (every resample left it out of the rated group); ',
      why: '--json note',
    },
    { text: 'collect more votes between it and the other models', why: '--json note' },
    {
      text: 'rating_lo unbounded (−∞): in more than 2.5 % of the bootstrap rounds the model had only losses, ',
      why: '--json note',
    },
    {
      text: 'so the votes give no finite lower bound; collect more votes for it',
      why: '--json note',
    },
    {
      text: 'rating_hi unbounded (∞): in more than 2.5 % of the bootstrap rounds the model had only wins, ',
      why: '--json note',
    },
    {
      text: 'so the votes give no finite upper bound; collect more votes for it',
      why: '--json note',
    },
    { text: 'rating_lo and rating_hi not shown: ', why: '--json note' },
  ],
  'src/arena/live-answers.ts': [
    { text: 'no answer within ', why: "a timed-out request's error message, logged" },
  ],
};

/** A string that reads like words: two words of two or more Latin letters in a row. */
const WORDS = /[A-Za-z]{2,}[,:;]?\s+[A-Za-z]{2,}/u;

/**
 * Code quoted for the reader (`/arena unclassified`, `` `zhujiu leaderboard --view ``), or a record shape
 * (`{model_a, model_b, winner}`, a JSON object's keys): typed as it is.
 */
const CODE = /^[`{]/u;

/** The catalogue's calls: a string argument of theirs is a key (a parameter's value is checked like any text). */
const CATALOGUE_CALLS = new Set(['t', 'th', 'tr', '#t', 'tc']);

/** Methods whose string arguments are log messages, not chat texts. */
const LOG = new Set(['info', 'warn', 'error', 'debug', 'trace', 'fatal', 'child']);

/**
 * Errors whose message the command line prints to its user (cli/index.ts `runCli`, commander's usage errors): in
 * src/cli/ their texts are words to translate, not a programming or storage error's.
 */
const CLI_PRINTED_ERRORS = /^(AppError|InvalidArgumentError)$/u;

/** Why a string node needs no catalogue key, or undefined when it is a text a person reads. */
function exempt(node: ts.Node, file = ''): string | undefined {
  for (let p: ts.Node | undefined = node.parent; p; p = p.parent) {
    if (ts.isImportDeclaration(p) || ts.isExportDeclaration(p)) return 'import';
    if (ts.isLiteralTypeNode(p) || ts.isTypeNode(p)) return 'type';
    if (
      ts.isNewExpression(p) &&
      /Error$/u.test(p.expression.getText()) &&
      !(
        (file.startsWith('src/cli/') || LOWER_LAYERS_PRINTED().includes(file)) &&
        CLI_PRINTED_ERRORS.test(p.expression.getText())
      )
    )
      return 'error';
    if (ts.isCallExpression(p)) {
      const callee = p.expression;
      const name = ts.isPropertyAccessExpression(callee)
        ? callee.name.getText()
        : ts.isIdentifier(callee)
          ? callee.text
          : '';
      if (LOG.has(name)) return 'log';
      if (CATALOGUE_CALLS.has(name) && p.arguments.some((a) => a === node)) return 'key';
    }
    if (ts.isPropertyAssignment(p) && p.name === node) return 'property name';
    // A typed command form (CommandSpec.usage `form`): typed the same in every language.
    if (ts.isPropertyAssignment(p) && p.name.getText() === 'form') return 'command form';
  }
  return undefined;
}

/** The texts of string literals and templates of `file` that read like words and are not exempt, with lines. */
function bypassing(file: string): { line: number; text: string }[] {
  const src = ts.createSourceFile(
    file,
    readFileSync(join(PROJECT_ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const out: { line: number; text: string }[] = [];
  const visit = (n: ts.Node) => {
    const texts: string[] = [];
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n)) texts.push(n.text);
    else if (ts.isTemplateExpression(n))
      texts.push(n.head.text, ...n.templateSpans.map((s) => s.literal.text));
    for (const text of texts)
      if (WORDS.test(text) && !CODE.test(text) && !exempt(n, file))
        out.push({ line: src.getLineAndCharacterOfPosition(n.getStart()).line + 1, text });
    ts.forEachChild(n, visit);
  };
  visit(src);
  const allowed = new Set((ALLOWED[file] ?? []).map((a) => a.text));
  return out.filter((o) => !allowed.has(o.text));
}

describe('chat texts go through the catalogue', () => {
  it('no converted module has a sentence outside a catalogue call', () => {
    const found = CONVERTED.flatMap((f) => bypassing(f).map((b) => `${f}:${b.line} ${b.text}`));
    expect(found.join('\n')).toBe('');
  });

  it('finds a sentence that bypasses the catalogue (the scan itself works)', () => {
    const src = ts.createSourceFile(
      'x.ts',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a template, parsed here.
      "const a = t(locale, 'ask.empty'); log.info('a log line'); reply({ text: `Vote by reacting ${n}` });",
      ts.ScriptTarget.Latest,
      true,
    );
    const hits: string[] = [];
    const visit = (n: ts.Node) => {
      if (ts.isTemplateExpression(n) && WORDS.test(n.head.text) && !exempt(n))
        hits.push(n.head.text);
      if (ts.isStringLiteral(n) && WORDS.test(n.text) && !exempt(n)) hits.push(n.text);
      ts.forEachChild(n, visit);
    };
    visit(src);
    expect(hits).toEqual(['Vote by reacting ']);
  });

  it('every allowed text still exists (the list shrinks with the code)', () => {
    for (const [file, list] of Object.entries(ALLOWED)) {
      const text = readFileSync(join(PROJECT_ROOT, file), 'utf8');
      for (const a of list) expect(text, `${file}: ${a.text}`).toContain(a.text);
    }
  });
});
