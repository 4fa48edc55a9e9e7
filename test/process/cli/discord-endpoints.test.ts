/**
 * The real `zhujiu bot` process reaches Discord where the configuration says (`platforms.discord.api_url`,
 * `gateway_url`), as a community behind a proxy needs: here the wire fake, whose `GET /gateway/bot` names an
 * unreachable gateway, so the bot only connects because it uses the configured one. A maintainer's `/arena` posts a
 * battle, a reaction on it is a vote, and the vote is in the database once the bot has stopped.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import { openDb } from '../../../src/storage/db.ts';
import { liveVotes } from '../../../src/storage/votes.ts';
import { seedModels } from '../../app/arena/helpers.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID, MAINTAINER_ROLE_ID } from '../../fakes/discord.ts';
import { freshDb } from '../../helpers/db.ts';
import { startZhujiu, type ZhujiuProcess } from '../../helpers/run-cli.ts';

const SECRET = 'discord-endpoints-test-secret-0123456789';
const VOTER = '1300000000000000001';

describe('zhujiu bot against Discord at configured endpoints', () => {
  const root = mkdtempSync(join(tmpdir(), 'zhujiu-endpoints-'));
  let fake: FakeDiscord | undefined;
  let bot: ZhujiuProcess | undefined;
  afterAll(async () => {
    bot?.kill();
    await fake?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('connects through api_url and gateway_url, and a reaction becomes a stored vote', async () => {
    const db = await freshDb('pglite');
    await seedModels(db.db);
    await db.close();
    const dataDir = db.dataDir as string;
    fake = await FakeDiscord.start({ advertisedGatewayUrl: 'ws://127.0.0.1:9/unreachable' });
    mkdirSync(join(root, 'config'));
    writeFileSync(
      join(root, 'config', 'default.yaml'),
      [
        // The English texts (the shipped default is zh-CN).
        'locale: en',
        'arena:',
        '  window_hours: 1',
        'platforms:',
        '  discord:',
        `    guild_ids: ["${GUILD_ID}"]`,
        `    maintainer_role_ids: ["${MAINTAINER_ROLE_ID}"]`,
        `    api_url: ${fake.restApi}`,
        `    gateway_url: ws://127.0.0.1:${fake.port}`,
        '',
      ].join('\n'),
    );
    bot = startZhujiu(['bot', '--no-worker'], {
      DISCORD_TOKEN: 'fake-token',
      ZHUJIU_CONFIG_DIR: join(root, 'config'),
      ZHUJIU_DATA_DIR: dataDir,
      ZHUJIU_VOTER_SECRET: SECRET,
      PORT: '0',
      LOG_LEVEL: 'debug',
    });
    await bot.waitFor(/open battles reconciled/u);
    expect(fake.identifies).toHaveLength(1);
    expect(fake.requests.some((r) => r.path === '/gateway/bot')).toBe(true);

    const f = fake;
    const id = f.slashCommand('arena', {}, { id: VOTER, roles: [MAINTAINER_ROLE_ID] });
    const deadline = Date.now() + 120_000;
    let msgId: string | undefined;
    while (!msgId && Date.now() < deadline) {
      msgId = [...f.messages.values()].find(
        (m) => m.channel_id === CHANNEL_ID && m.content.includes('Arena battle #1'),
      )?.id;
      if (!msgId) await new Promise((r) => setTimeout(r, 100));
    }
    expect(msgId, `no battle posted; replies: ${JSON.stringify(f.responsesFor(id))}`).toBeDefined();
    await bot.waitFor(/battle posted/u);
    f.userReact(msgId as string, '➡️', VOTER, true);
    await bot.waitFor(/"effect":"cast"/u);

    bot.child.kill('SIGTERM');
    expect(await bot.exited).toEqual({ code: 0, signal: null });
    const after = await openDb({ kind: 'pglite', dataDir });
    try {
      const votes = await liveVotes(after.db, 1);
      expect(votes.map((v) => [v.voterHash, v.choice])).toEqual([
        [hashVoterId(SECRET, 'discord', VOTER), 'right'],
      ]);
    } finally {
      await after.close();
    }
  });
});
