/**
 * bench/reread-fake: the fake Discord of bench/reread.ts in a worker thread of its own, so that the bench's thread
 * CPU time is the bot's alone. Messages from the parent: `{ op: 'seed', n, voters }` posts n messages with the
 * bot's three reactions and `voters` people's (answers `{ ids }`), `{ op: 'requests' }` answers how many REST
 * requests the fake has served, `{ op: 'close' }` stops it.
 */
import { parentPort } from 'node:worker_threads';
import { BOT_USER_ID, FakeDiscord } from '../test/fakes/discord.ts';

const EMOJI = ['⬅️', '🟰', '➡️'] as const;
const fake = await FakeDiscord.start();
const port = parentPort;
if (!port) throw new Error('bench/reread-fake runs as a worker thread');
let user = 0n;
port.on('message', (m: { op: string; n?: number; voters?: number }) => {
  if (m.op === 'seed') {
    const ids: string[] = [];
    for (let i = 0; i < (m.n ?? 0); i++) {
      const msg = fake.seedMessage(`Arena battle #${i + 1}`);
      ids.push(msg.id);
      for (const e of EMOJI) fake.userReact(msg.id, e, BOT_USER_ID, true, { lost: true });
      for (let v = 0; v < (m.voters ?? 0); v++) {
        user += 1n;
        const id = (1300000000000000000n + user).toString();
        fake.userReact(msg.id, EMOJI[v % 3] as string, id, true, { lost: true });
      }
    }
    port.postMessage({ ids });
  } else if (m.op === 'requests') port.postMessage({ requests: fake.requests.length });
  else if (m.op === 'close') void fake.close().then(() => port.postMessage({ closed: true }));
});
port.postMessage({ port: fake.port });
