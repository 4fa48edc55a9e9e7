/**
 * The terminal's `help` lists every command the terminal accepts, built from the bot's one command list
 * (bot/commands/specs.ts): `/eval` with its status and cancel forms and the maintainers' `/arena void`, `/arena
 * ability` and `/arena unclassified` included; the answer to an unknown command names them from the same list.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMAND_SPECS } from '../../../src/bot/commands/specs.ts';
import { commandForms, commandHelpLines, commandNameList } from '../../../src/chat/help.ts';
import { shellHelp } from '../../../src/chat/shell/adapter.ts';
import { PROJECT_ROOT } from '../../helpers/shared-data.ts';

describe('help built from the command specs', () => {
  it('the terminal help has a line for every form of every command', () => {
    const help = shellHelp(COMMAND_SPECS);
    for (const spec of COMMAND_SPECS) {
      expect(help).toContain(`  /${spec.name}`);
      for (const f of commandForms(spec)) expect(help).toContain(`/${f.form}`);
    }
    expect(help.split('\n').filter((l) => l.startsWith('  /'))).toEqual([
      '  /arena [ability]            post a battle now (maintainers)',
      '  /arena void <battle> [reason]  void a live battle: it leaves every rating (maintainers)',
      '  /arena ability <battle> <ability>  file a live battle under an ability (maintainers)',
      '  /arena unclassified         list live battles without an ability (maintainers)',
      '  /arena flagged              list flagged votes (over the daily cap, cast too fast), left out of ratings (maintainers)',
      '  /ask <prompt> [ability]     two anonymous live models answer your question; vote on the answers',
      '  /leaderboard [overall|ability|method|model|style] [name]  the board (the chart is written to a file in the terminal)',
      '  /judge agree [judge]        LLM judge vs the crowd on the arena battles: kappa, agreement (maintainers)',
      '  /eval model:<name> suite:<name> [limit:<n>]  run an evaluation suite on a model (maintainers)',
      '  /eval status                active and recent evaluation runs (maintainers)',
      '  /eval cancel <run>          cancel an evaluation run (maintainers)',
      '  /submit name:<name> url:<base URL> model:<model id> description:<text> org:<organisation> licence:<licence>  submit a model for evaluation (never an API key)',
      '  /submit list                your submissions (maintainers: all)',
      '  /submit approve <id> [api_key_env:<VAR>] [suites:<a,b>]  register a submitted model and queue its runs (maintainers)',
      '  /submit reject <id> <reason>  reject a submission (maintainers)',
      '  /models                     models and their number of answers',
    ]);
  });

  it('a spec without usage is shown by its name and options', () => {
    const spec = {
      name: 'x',
      description: 'does x',
      options: [
        { name: 'a', description: '', required: true },
        { name: 'b', description: '' },
      ],
    };
    expect(commandHelpLines([spec])).toEqual(['  /x <a> [b]                  does x']);
  });

  it("the README's chat table has a row for every command", () => {
    const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
    const chat = readme.slice(
      readme.indexOf('## Chat'),
      readme.indexOf('\n## ', readme.indexOf('## Chat') + 1),
    );
    const rows = chat.split('\n').filter((l) => l.startsWith('| `/'));
    for (const spec of COMMAND_SPECS) {
      expect(
        rows.some((r) => r.startsWith(`| \`/${spec.name}`)),
        spec.name,
      ).toBe(true);
    }
  });

  it('the list of names for an unknown command', () => {
    expect(commandNameList(COMMAND_SPECS)).toBe(
      '/arena, /ask, /leaderboard, /judge, /eval, /submit or /models',
    );
  });
});
