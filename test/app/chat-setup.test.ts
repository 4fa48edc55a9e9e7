/**
 * docs/chat-setup.md and docs/slack-manifest.yaml against the code: the Discord invite's permission integer and
 * the gateway intents against the REST routes and intents of src/chat/discord/, the Slack manifest's scopes,
 * bot events, slash commands and interactivity against the Web API methods, events and handlers of
 * src/chat/slack/ and the command list (src/bot/commands/specs.ts). A route, method or event the code starts to
 * use without an entry in the tables below fails here, naming what to add to the docs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GatewayIntentBits, PermissionFlagsBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { COMMAND_SPECS } from '../../src/bot/commands/specs.ts';
import { PROJECT_ROOT } from '../helpers/shared-data.ts';

type Permission = keyof typeof PermissionFlagsBits;

/** Discord REST routes (discord.js `Routes.*`) → the permissions the bot needs for the calls it makes on them. */
const DISCORD_ROUTE_PERMISSIONS: Record<string, readonly Permission[]> = {
  // post a battle, a reveal, the board (embeds, the chart and a long battle's text as files)
  channelMessages: ['ViewChannel', 'SendMessages', 'EmbedLinks', 'AttachFiles'],
  // read, edit or delete one of its own messages
  channelMessage: ['ViewChannel', 'ReadMessageHistory'],
  // add its vote emoji
  channelMessageOwnReaction: ['AddReactions', 'ReadMessageHistory'],
  // read who reacted with an emoji
  channelMessageReaction: ['ReadMessageHistory'],
  // start the follow-up thread of an /ask battle and post in it
  threads: ['CreatePublicThreads', 'SendMessagesInThreads'],
  // register the slash commands (the applications.commands scope), find the gateway
  applicationCommands: [],
  applicationGuildCommands: [],
  gatewayBot: [],
};

/** Slack Web API methods → bot token scopes. */
const SLACK_METHOD_SCOPES: Record<string, readonly string[]> = {
  'auth.test': [],
  'chat.postMessage': ['chat:write'],
  'chat.update': ['chat:write'],
  'chat.delete': ['chat:write'],
  'chat.postEphemeral': ['chat:write'],
  'files.uploadV2': ['files:write'],
  'reactions.add': ['reactions:write'],
  'reactions.get': ['reactions:read'],
  'usergroups.users.list': ['usergroups:read'],
};

/** Bolt event names the adapter handles → the bot events to subscribe to and their scopes. */
const SLACK_EVENTS: Record<string, { events: readonly string[]; scopes: readonly string[] }> = {
  reaction_added: { events: ['reaction_added'], scopes: ['reactions:read'] },
  reaction_removed: { events: ['reaction_removed'], scopes: ['reactions:read'] },
  message: {
    events: ['message.channels', 'message.groups'],
    scopes: ['channels:history', 'groups:history'],
  },
};

/** The TypeScript sources of a folder, concatenated. */
function sources(dir: string): string {
  const abs = join(PROJECT_ROOT, dir);
  return readdirSync(abs)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => readFileSync(join(abs, f), 'utf8'))
    .join('\n');
}

function matches(text: string, re: RegExp): string[] {
  return [...new Set([...text.matchAll(re)].map((m) => m[1] as string))].sort();
}

const chatSetup = readFileSync(join(PROJECT_ROOT, 'docs', 'chat-setup.md'), 'utf8');

describe('Discord: the invite URL and the intents of docs/chat-setup.md', () => {
  const code = sources('src/chat/discord');

  it('asks for exactly the permissions of the routes the adapter calls', () => {
    const routes = matches(code, /Routes\.([A-Za-z]+)\(/g);
    const unknown = routes.filter((r) => !(r in DISCORD_ROUTE_PERMISSIONS));
    expect(
      unknown,
      'a new Discord route: add its permissions here and to docs/chat-setup.md',
    ).toEqual([]);
    const needed = new Set(routes.flatMap((r) => DISCORD_ROUTE_PERMISSIONS[r] ?? []));
    const bits = [...needed].reduce((a, p) => a | PermissionFlagsBits[p], 0n);
    const invite = /discord\.com\/oauth2\/authorize\?\S*permissions=(\d+)/.exec(chatSetup);
    expect(invite?.[1]).toBe(bits.toString());
    expect(invite?.[0]).toContain('scope=bot+applications.commands');
    // The table names each permission with its bit.
    for (const p of needed) {
      const bit = PermissionFlagsBits[p].toString(2).length - 1;
      expect(chatSetup, p).toContain(`| 1 << ${bit} |`);
    }
    expect(
      chatSetup.match(/\| 1 << \d+ \|/g)?.length,
      'the table lists a permission not needed',
    ).toBe(needed.size);
  });

  it('names the gateway intents the adapter asks for, and their sum', () => {
    const intents = matches(code, /GatewayIntentBits\.([A-Za-z]+)/g);
    const sum = intents.reduce(
      (a, i) => a | GatewayIntentBits[i as keyof typeof GatewayIntentBits],
      0,
    );
    expect(intents).toEqual(['GuildMessageReactions', 'GuildMessages', 'Guilds']);
    expect(chatSetup).toContain(`**Gateway intents** (${sum} =`);
    expect(code).not.toMatch(/GatewayIntentBits\.(MessageContent|GuildMembers|GuildPresences)/);
  });
});

describe('Slack: docs/slack-manifest.yaml', () => {
  const code = sources('src/chat/slack');
  const manifest = parse(
    readFileSync(join(PROJECT_ROOT, 'docs', 'slack-manifest.yaml'), 'utf8'),
  ) as {
    features: { slash_commands: { command: string; description: string }[] };
    oauth_config: { scopes: { bot: string[] } };
    settings: {
      event_subscriptions: { bot_events: string[] };
      interactivity: { is_enabled: boolean };
      socket_mode_enabled: boolean;
    };
  };

  it('declares exactly the scopes of the Web API methods and events the adapter uses', () => {
    const methods = matches(code, /client\.([a-z]+(?:\.[a-zA-Z0-9]+)+)\(/g);
    const unknownMethods = methods.filter((m) => !(m in SLACK_METHOD_SCOPES));
    expect(unknownMethods, 'a new Slack method: add its scope here and to the manifest').toEqual(
      [],
    );
    const events = matches(code, /app\.event\('([a-z_]+)'/g);
    const unknownEvents = events.filter((e) => !(e in SLACK_EVENTS));
    expect(
      unknownEvents,
      'a new Slack event: add its subscription here and to the manifest',
    ).toEqual([]);
    const scopes = new Set([
      'commands',
      ...methods.flatMap((m) => SLACK_METHOD_SCOPES[m] ?? []),
      ...events.flatMap((e) => SLACK_EVENTS[e]?.scopes ?? []),
    ]);
    expect([...manifest.oauth_config.scopes.bot].sort()).toEqual([...scopes].sort());
    expect([...manifest.settings.event_subscriptions.bot_events].sort()).toEqual(
      events.flatMap((e) => SLACK_EVENTS[e]?.events ?? []).sort(),
    );
    // docs/chat-setup.md names every scope.
    for (const s of scopes) expect(chatSetup, s).toContain(`\`${s}\``);
  });

  it('declares every slash command of the command list, and only those', () => {
    expect(manifest.features.slash_commands.map((c) => c.command).sort()).toEqual(
      COMMAND_SPECS.map((c) => `/${c.name}`).sort(),
    );
    for (const c of manifest.features.slash_commands)
      expect(c.description.length, c.command).toBeLessThanOrEqual(100);
  });

  it('enables interactivity exactly when the adapter handles actions, views or shortcuts', () => {
    const interactive = /app\.(action|view|shortcut|options)\(/.test(code);
    expect(manifest.settings.interactivity.is_enabled).toBe(interactive);
    expect(manifest.settings.socket_mode_enabled).toBe(true);
  });
});
