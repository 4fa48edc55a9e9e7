/**
 * @module bot/commands/specs
 * The slash commands the bot offers, for registration (Discord) and the Slack app manifest.
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
        description: 'List live battles without an ability',
        choices: ['unclassified'],
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
  },
  {
    name: 'leaderboard',
    description: 'The ZhuJiu board: final scores with 95% intervals, methods, abilities, votes',
    options: [
      {
        name: 'view',
        description: 'overall (default), ability, method or model',
        choices: ['overall', 'ability', 'method', 'model'],
      },
      { name: 'name', description: 'The ability, method or model to show' },
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
    maintainerOnly: true,
  },
  {
    name: 'models',
    description: 'The models under evaluation and their number of stored answers',
    options: [],
  },
];
