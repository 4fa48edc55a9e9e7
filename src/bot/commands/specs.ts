/**
 * @module bot/commands/specs
 * The slash commands the bot offers: the one list behind registration (Discord), the Slack app manifest, and every
 * help text (the terminal's `help`, the answer to an unknown command).
 */

import type { CommandSpec } from '../../chat/port.ts';
import { ABILITIES } from '../../config/schema.ts';

/** Every command, in help order. `/arena` is maintainer-only: posting on demand could flood a channel. */
export const COMMAND_SPECS: readonly CommandSpec[] = [
  {
    name: 'arena',
    description: 'Post an arena battle in this channel now (maintainers)',
    options: [
      { name: 'ability', description: 'Only prompts of this ability', choices: ABILITIES },
      {
        name: 'void',
        description: 'Void battle #N (as its message shows): it leaves every rating',
      },
      { name: 'battle', description: 'With ability: file battle #N under that ability' },
      { name: 'reason', description: 'Why the battle is voided (kept in the audit log)' },
      {
        name: 'list',
        description: 'List live battles without an ability, or flagged votes',
        choices: ['unclassified', 'flagged'],
      },
    ],
    usage: [
      { form: 'arena [ability]', what: 'post a battle now (maintainers)' },
      {
        form: 'arena void <battle> [reason]',
        what: 'void a live battle: it leaves every rating (maintainers)',
      },
      {
        form: 'arena ability <battle> <ability>',
        what: 'file a live battle under an ability (maintainers)',
      },
      { form: 'arena unclassified', what: 'list live battles without an ability (maintainers)' },
      {
        form: 'arena flagged',
        what: 'list flagged votes (over the daily cap, cast too fast), left out of ratings (maintainers)',
      },
    ],
    maintainerOnly: true,
  },
  {
    name: 'ask',
    description:
      'Ask two anonymous live models your own question; the channel votes on the answers',
    options: [
      { name: 'prompt', description: 'Your question', required: true },
      {
        name: 'ability',
        description: 'The ability it tests (default: the arena classifies it)',
        choices: ABILITIES,
      },
    ],
    usage: [
      {
        form: 'ask <prompt> [ability]',
        what: 'two anonymous live models answer your question; vote on the answers',
      },
    ],
  },
  {
    name: 'leaderboard',
    description: 'The ZhuJiu board: final scores with 95% intervals, methods, abilities, votes',
    options: [
      {
        name: 'view',
        description:
          'overall (default), ability, method, model, or style (arena ratings with style control)',
        choices: ['overall', 'ability', 'method', 'model', 'style'],
      },
      { name: 'name', description: 'The ability, method or model to show' },
    ],
    usage: [
      {
        form: 'leaderboard [overall|ability|method|model|style] [name]',
        what: 'the board (the chart is written to a file in the terminal)',
      },
    ],
  },
  {
    name: 'judge',
    description:
      'LLM judge vs the crowd on the arena battles: kappa, weighted kappa, agreement (maintainers)',
    options: [
      { name: 'action', description: 'What to show', choices: ['agree'], required: true },
      { name: 'judge', description: 'Only this judge' },
    ],
    usage: [
      {
        form: 'judge agree [judge]',
        what: 'LLM judge vs the crowd on the arena battles: kappa, agreement (maintainers)',
      },
    ],
    maintainerOnly: true,
  },
  {
    name: 'eval',
    description:
      'Run an evaluation suite on a model; /eval status, /eval cancel <run> (maintainers)',
    options: [
      { name: 'model', description: 'The model (config/models.yaml or imported answers)' },
      { name: 'suite', description: 'The suite (config/suites)' },
      { name: 'limit', description: 'Ask at most this many items per dataset' },
      {
        name: 'action',
        description: 'status or cancel instead of a run',
        choices: ['status', 'cancel'],
      },
      { name: 'run', description: 'With action cancel: the run number' },
    ],
    usage: [
      {
        form: 'eval model:<name> suite:<name> [limit:<n>]',
        what: 'run an evaluation suite on a model (maintainers)',
      },
      { form: 'eval status', what: 'active and recent evaluation runs (maintainers)' },
      { form: 'eval cancel <run>', what: 'cancel an evaluation run (maintainers)' },
    ],
    maintainerOnly: true,
  },
  {
    name: 'submit',
    description:
      'Submit a model (an OpenAI-compatible endpoint) for evaluation; maintainers approve or reject it',
    options: [
      { name: 'name', description: 'The model name shown on the board' },
      {
        name: 'url',
        description: 'The OpenAI-compatible base URL (http or https), e.g. https://host/v1',
      },
      { name: 'model', description: 'The model id the endpoint takes' },
      { name: 'description', description: 'What the model is' },
      { name: 'org', description: 'The organisation behind it' },
      { name: 'licence', description: 'Its licence' },
      {
        name: 'action',
        description: 'list, or (maintainers) approve or reject instead of a submission',
        choices: ['list', 'approve', 'reject'],
      },
      { name: 'id', description: 'With approve or reject: the submission number' },
      { name: 'reason', description: 'With reject: why (the submitter is told)' },
      {
        name: 'api_key_env',
        description: 'With approve: the environment variable holding its API key',
      },
      { name: 'suites', description: 'With approve: suites to queue (default submissions.suites)' },
    ],
    usage: [
      {
        form: 'submit name:<name> url:<base URL> model:<model id> description:<text> org:<organisation> licence:<licence>',
        what: 'submit a model for evaluation (never an API key)',
      },
      { form: 'submit list', what: 'your submissions (maintainers: all)' },
      {
        form: 'submit approve <id> [api_key_env:<VAR>] [suites:<a,b>]',
        what: 'register a submitted model and queue its runs (maintainers)',
      },
      { form: 'submit reject <id> <reason>', what: 'reject a submission (maintainers)' },
    ],
  },
  {
    name: 'models',
    description: 'The models under evaluation and their number of stored answers',
    options: [],
    usage: [{ form: 'models', what: 'models and their number of answers' }],
  },
];
