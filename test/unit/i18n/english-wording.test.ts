/**
 * English wording of the catalogue that a count or a status can break: a count before a countable noun agrees with
 * it (`1 model listed`, never `1 models listed`: the plural syntax of i18n/format.ts), and a run's status is never put
 * where only an adjective fits (`Run #1 is already succeeded`). Each message is rendered with every count at 1
 * (plural selectors and the parameters named as counts) and any other parameter as `X`.
 */
import { describe, expect, it } from 'vitest';
import { placeholderNames } from '../../../src/i18n/format.ts';
import { CATALOGUE, type MessageKey, t } from '../../../src/i18n/index.ts';

/** Parameter names that hold a count. */
const COUNTS = new Set(
  'n count rows files items tables models battles datasets failed calls attempts shown runs before after shots active live turn ranked total judged skipped written left votes chars window max min rounds done added duplicates'.split(
    ' ',
  ),
);
/** Countable nouns, plural, after a count (up to two words between: `1 judge calls`, `1 more characters`). */
const ONE_PLURAL =
  /(?<![\d.,/])1 (?:[a-zA-Z-]+ ){0,2}(?:items|models|rows|files|tables|battles|votes|runs|datasets|answers|attempts|calls|failures|verdicts|characters|days|turns|minutes|points|rounds|grades|scores|responses|lines|judges|sources|suites|seconds|hours|bytes|submissions)\b/u;

/** Messages whose count is never 1 where a plural noun follows, or whose `1` is no count, with why. */
const NEVER_ONE: Readonly<Record<string, string>> = {
  'board.age.days': 'a day count with a decimal (1.0 days): only from 1 day up',
  'board.unranked.fewVotes': 'a configured threshold of votes (20)',
  'board.unranked.noComparative': 'a configured threshold of votes (20)',
  'board.headline.noScores': 'a configured threshold of votes (20)',
  'chat.footer.minVotes': 'a configured threshold of votes (20)',
  'board.headline.shared': 'a shared lead is shared by two or more',
  'board.headline.leads':
    'said when two or more are ranked (one ranked model has its own headline)',
  'site.age.rounds': 'bootstrap rounds (thousands)',
  'style.intervals': 'bootstrap rounds (thousands)',
  'cli.ratings.ci': 'bootstrap rounds (thousands)',
  'chart.cut': '{n} of {total}: the chart is cut only when the board has more models than it draws',
  'chatView.scored': 'a share: {n} of {total} models',
  'evalSummary.failureRate': 'a share: {failed} of {total} items',
  'cli.judge.tooMany': 'a share: {failed} of {total} answers',
  'ask.pair.failure': 'a share: {attempts} of {live} models, two or more live models',
  'ask.notLive': '{n} is a battle number',
  'arena.press.void': '{n} is a battle number',
  'ask.tooManyTurns': 'a configured limit of turns (several)',
  'ask.turn.typed': 'said from the second turn on',
  'ask.turn.buttons': 'said from the second turn on',
  'ask.turn.reactions': 'said from the second turn on',
  'ask.tooLong': 'a length over a limit',
  'evalSummary.cause.promptTooLong': 'a length over a limit',
  'submitProblem.url.tooLong': 'a length over a limit',
  'submitProblem.tooLong': 'a length over a limit',
  'cli.modelName.tooLong': 'a length over a limit',
  'cli.schema.datasetName.tooLong': 'a limit of 200 characters',
  'render.cut': 'a cut of a long text (thousands of characters, given as formatted text)',
  'judgeReason.severalVerdicts': 'two or more verdicts',
  'cli.judgments.otherKindMany': 'two or more files (cli.judgments.otherKindOne says one)',
  'evalRefusal.unknownModel.none': '{models} is the file config/models.yaml',
  'cli.judge.unknownModel.none': '{models} is the file config/models.yaml',
  'evalRefusal.notEvaluable': '{datasets} is a list of names',
  'cli.ratings.style.leftOut': 'the count follows "battles" of cli.ratings.style.method',
};

describe('English wording', () => {
  it('a count of 1 is followed by a singular noun (the plural syntax), wherever a count can be 1', () => {
    const bad: string[] = [];
    for (const key of Object.keys(CATALOGUE.en) as MessageKey[]) {
      if (key in NEVER_ONE) continue;
      const msg = CATALOGUE.en[key];
      const plural = new Set([...msg.matchAll(/\{(\w+), plural/gu)].map((m) => m[1]));
      const params = Object.fromEntries(
        placeholderNames(msg).map((p) => [p, plural.has(p) || COUNTS.has(p) ? 1 : 'X']),
      );
      const m = ONE_PLURAL.exec(t('en', key, params));
      if (m) bad.push(`${key}: ${m[0]}`);
    }
    expect(bad).toEqual([]);
  });

  it('counts that were plural at 1 now agree (the cases found)', () => {
    expect(t('en', 'cli.endpoint.answers', { name: 'm', host: 'h', n: 1, listed: '' })).toBe(
      'model m: h answers, 1 model listed',
    );
    expect(t('en', 'cli.endpoint.answers', { name: 'm', host: 'h', n: 3, listed: '' })).toBe(
      'model m: h answers, 3 models listed',
    );
    expect(t('en', 'cli.migrate.upgradeCopied', { table: 'votes', rows: 1 })).toBe(
      'copied votes: 1 row',
    );
    expect(t('en', 'eval.active', { n: 1 })).toBe('1 active evaluation run');
  });

  it('a finished run is said to have ended, whatever its status', () => {
    for (const status of ['succeeded', 'failed', 'cancelled'])
      expect(t('en', 'evalRefusal.runFinished', { id: 1, status })).toBe(
        `Run #1 has already ended (${status}).`,
      );
  });
});
