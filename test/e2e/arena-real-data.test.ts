/**
 * End to end on real data: the six AlpacaEval models' recorded outputs are imported into a fresh database, 150
 * battles on distinct instructions are posted through the fake Discord (real discord.js), 40 simulated voters
 * react following the AlpacaEval GPT-4-turbo judge preferences (with 10 % random votes from a seeded
 * generator), the battles close, and `/leaderboard` must rank the models in the published AlpacaEval order or
 * show overlapping intervals for any pair it inverts. Then a scripted LLM judge (through the real `openai` client
 * against the local OpenAI-compatible fake) judges the posted battles in both orders ("judge votes", stored apart
 * from the crowd's votes) and its agreement with the crowd is reported (what `/judge agree` shows). Also: the identity guard over
 * every pair × item.
 * Skipped (with a message) when ../shared/data is absent.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdentityGuard, modelTokens } from '../../src/arena/identity-guard.ts';
import { judgeAgreeContent, judgeCrowdAgreement } from '../../src/bot/commands/judge.ts';
import { BotService } from '../../src/bot/service.ts';
import { DiscordAdapter } from '../../src/chat/discord/adapter.ts';
import { loadConfig } from '../../src/config/loader.ts';
import type { AppConfig } from '../../src/config/schema.ts';
import { ManualClock } from '../../src/core/clock.ts';
import { silentLogger } from '../../src/core/logger.ts';
import { createRng } from '../../src/core/rng.ts';
import { judgeBattles } from '../../src/eval/judge/judge.ts';
import { loadRubric } from '../../src/eval/judge/rubrics.ts';
import { importOutputs } from '../../src/import/outputs.ts';
import { OpenAiCompatibleClient } from '../../src/llm/openai-client.ts';
import { dbResponseCache } from '../../src/llm/response-cache.ts';
import { battleTexts } from '../../src/storage/arena-queries.ts';
import { getBattle } from '../../src/storage/battles.ts';
import { ensureModels } from '../../src/storage/models.ts';
import type { VoteChoice } from '../../src/storage/schema.ts';
import { CHANNEL_ID, FakeDiscord, GUILD_ID, MAINTAINER_ROLE_ID } from '../fakes/discord.ts';
import { type FakeCall, startFakeOpenAi } from '../fakes/openai.ts';
import { type Backend, freshDb, type TestDb } from '../helpers/db.ts';
import { diagnostics } from '../helpers/diagnostics.ts';
import { hasSharedData, PROJECT_ROOT, sharedData } from '../helpers/shared-data.ts';

const AE = ['outputs', 'alpaca_eval'];
const BASELINE = 'gpt4_1106_preview';
/** Published AlpacaEval 2.0 order (win rate vs the baseline). */
const ORDER = [
  BASELINE,
  'claude-2',
  'OpenHermes-2.5-Mistral-7B',
  'gpt-3.5-turbo-0301',
  'chatglm2-6b',
  'alpaca-7b',
];
const BATTLES = 150;
const VOTERS = 40;
const present = hasSharedData(...AE, 'model_outputs', 'alpaca-7b.json');
/**
 * One backend suffices (the result is identical; Postgres measured 29 s vs PGlite 35 s on the 2-core machine):
 * PGlite by default, ZHUJIU_E2E_BACKEND=postgres (with TEST_DATABASE_URL) to run it on Postgres instead.
 */
const BACKEND: Backend =
  process.env.ZHUJIU_E2E_BACKEND === 'postgres' && process.env.TEST_DATABASE_URL
    ? 'postgres'
    : 'pglite';

/** instruction → preference (1 = baseline better, 2 = model better; 0 mapped to 1.5). */
function preferences(model: string): Map<string, number> {
  const m = new Map<string, number>();
  const text = readFileSync(
    sharedData(...AE, 'annotations_weighted_alpaca_eval_gpt4_turbo', `${model}.jsonl`),
    'utf8',
  );
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { instruction: string; preference: number | null };
    const p = r.preference === null || r.preference === 0 ? 1.5 : r.preference;
    m.set(r.instruction, p);
  }
  return m;
}

/** The judge-following vote on X (left) vs Y (right) for one instruction. */
function judgeChoice(
  prefs: Map<string, Map<string, number>>,
  left: string,
  right: string,
  instruction: string,
): VoteChoice {
  // A model's preference against the baseline; the baseline itself sits at the tie point 1.5.
  const p = (m: string): number => (m === BASELINE ? 1.5 : (prefs.get(m)?.get(instruction) ?? 1.5));
  const d = p(left) - p(right);
  if (Math.abs(d) <= 0.05) return 'equal';
  return d > 0 ? 'left' : 'right';
}

describe.skipIf(!present)(
  `arena on real AlpacaEval data through the fake Discord (${BACKEND})`,
  () => {
    let db: TestDb;
    let fake: FakeDiscord;
    let bot: BotService;
    let config: AppConfig;
    const clock = new ManualClock(new Date());
    const timings: Record<string, number> = {};

    beforeAll(async () => {
      let t = performance.now();
      db = await freshDb(BACKEND);
      for (const m of ORDER) {
        const r = await importOutputs(db.db, {
          file: sharedData(...AE, 'model_outputs', `${m}.json`),
          model: m,
        });
        expect(r.added).toBe(805);
      }
      timings.import = performance.now() - t;
      const base = loadConfig({ configDir: `${PROJECT_ROOT}/config`, env: {} }).app;
      config = {
        ...base,
        platforms: {
          ...base.platforms,
          discord: {
            ...base.platforms.discord,
            guild_ids: [GUILD_ID],
            maintainer_role_ids: [MAINTAINER_ROLE_ID],
          },
        },
      };
      t = performance.now();
      fake = await FakeDiscord.start();
      const adapter = new DiscordAdapter({
        token: 'fake-token',
        guildIds: [GUILD_ID],
        restApi: fake.restApi,
        logger: silentLogger,
        maintainerRoleIds: [MAINTAINER_ROLE_ID],
        restRetries: 0,
        restTimeoutMs: 60_000, // a guard against a hang only: a busy machine may answer slowly
      });
      let seed = 5000;
      bot = new BotService({
        db: db.db,
        config,
        platforms: [adapter],
        logger: silentLogger,
        clock,
        voterSecret: 'e2e-voter-secret-0123456789',
        loopIntervalMs: 0,
        seedSource: () => seed++,
        leaderboardRounds: 500,
      });
      await bot.start();
      timings.start = performance.now() - t;
    });

    afterAll(async () => {
      await bot?.stop();
      await fake?.close();
      await db?.destroy();
    });

    it('150 battles, 40 judge-following voters, leaderboard in the published order (or overlapping intervals)', async () => {
      const note = diagnostics('arena on real data');
      const prefs = new Map(ORDER.filter((m) => m !== BASELINE).map((m) => [m, preferences(m)]));
      let t = performance.now();
      const posted: { battleId: number; messageId: string }[] = [];
      for (let i = 0; i < BATTLES; i++) {
        const r = await bot.arena.postBattle('discord', CHANNEL_ID);
        if (!r.ok) throw new Error(JSON.stringify(r.reason));
        posted.push({ battleId: r.value.battleId, messageId: r.value.ref.messageId });
      }
      timings.post = performance.now() - t;
      const items = await sql<{
        n: number;
      }>`SELECT count(DISTINCT item_id)::int AS n FROM battles WHERE status = 'open'`.execute(
        db.db,
      );
      expect(items.rows[0]?.n).toBe(BATTLES);

      // No posted battle names either of its models (full names in the whole message; tokens in the answers).
      const guard = new IdentityGuard({ words: [], patterns: [] });
      for (const p of posted) {
        const b = await getBattle(db.db, p.battleId);
        const texts = await battleTexts(db.db, p.battleId);
        if (!b || !texts) throw new Error('battle missing');
        const message = [b.messageId, ...b.partIds]
          .map((id) => JSON.stringify(fake.messages.get(id ?? '')))
          .join('\n')
          .toLowerCase();
        for (const m of [b.leftModel, b.rightModel]) expect(message).not.toContain(m.toLowerCase());
        expect(
          guard.checkPair(texts.left, texts.right, [b.leftModel, b.rightModel]),
        ).toBeUndefined();
      }

      // 40 voters react on every battle.
      t = performance.now();
      const rng = createRng(20240601);
      const emoji = {
        left: config.arena.emoji.discord.left,
        equal: config.arena.emoji.discord.equal,
        right: config.arena.emoji.discord.right,
        bothbad: config.arena.emoji.discord.bothbad,
      };
      const choices: VoteChoice[] = ['left', 'equal', 'right'];
      let sent = 0;
      for (const p of posted) {
        const b = await getBattle(db.db, p.battleId);
        const texts = await battleTexts(db.db, p.battleId);
        if (!b || !texts) throw new Error('battle missing');
        const judged = judgeChoice(prefs, b.leftModel, b.rightModel, texts.prompt);
        for (let v = 0; v < VOTERS; v++) {
          const choice = rng.next() < 0.1 ? (choices[rng.int(3)] as VoteChoice) : judged;
          fake.userReact(
            p.messageId,
            emoji[choice],
            `14000000000000${String(v).padStart(5, '0')}`,
            true,
          );
          sent++;
        }
      }
      const deadline = Date.now() + 300_000; // a guard against a hang only
      let stored = 0;
      while (Date.now() < deadline) {
        const r = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM votes WHERE retracted_at IS NULL`.execute(db.db);
        stored = r.rows[0]?.n ?? 0;
        if (stored >= sent) break;
        await new Promise((res) => setTimeout(res, 100));
      }
      expect(stored).toBe(sent);
      timings.votes = performance.now() - t;

      t = performance.now();
      clock.advance(25 * 3_600_000);
      const tick = await bot.tick();
      expect(tick.closed).toHaveLength(BATTLES);
      expect(tick.revealed).toHaveLength(BATTLES);
      timings.close = performance.now() - t;

      t = performance.now();
      const interaction = fake.slashCommand('leaderboard', {}, { id: '1500000000000000001' });
      const deadline2 = Date.now() + 300_000; // a guard against a hang only
      while (
        Date.now() < deadline2 &&
        !fake.responsesFor(interaction).some((r) => r.kind === 'original')
      ) {
        await new Promise((res) => setTimeout(res, 50));
      }
      const reply = fake.responsesFor(interaction).find((r) => r.kind === 'original');
      expect(reply).toBeDefined();
      timings.leaderboard = performance.now() - t;
      const shown = JSON.stringify(reply?.body);
      for (const m of ORDER) expect(shown).toContain(m);
      const embed =
        (reply?.body as { embeds?: { description?: string }[] } | undefined)?.embeds ?? [];
      note(
        `/leaderboard (${sent} votes on ${BATTLES} battles) ---\n${embed.map((e) => e.description ?? '').join('\n')}\n` +
          `timings ms: ${JSON.stringify(Object.fromEntries(Object.entries(timings).map(([k, v]) => [k, Math.round(v)])))}\n` +
          `identity guard refusals while selecting: ${bot.arena.guardStats.refused} of ${bot.arena.guardStats.examined} candidates examined\n`,
      );

      // The board's comparative scores (language, the ability of the AlpacaEval items) rank the models; the final
      // score here is the normalised comparative score, with its paired-bootstrap interval.
      const snap = await bot.leaderboard.refresh();
      const rated = snap.board.rows
        .filter((r) => r.final !== null)
        .map((r) => ({ model: r.model, lo: r.finalLo, hi: r.finalHi }));
      expect(rated.map((r) => r.model).sort()).toEqual([...ORDER].sort());
      const pos = new Map(rated.map((r, i) => [r.model, i]));
      const byName = new Map(rated.map((r) => [r.model, r]));
      const inverted: string[] = [];
      for (let i = 0; i < ORDER.length; i++) {
        for (let j = i + 1; j < ORDER.length; j++) {
          const a = ORDER[i] as string;
          const b = ORDER[j] as string;
          if ((pos.get(a) ?? 0) < (pos.get(b) ?? 0)) continue;
          const ra = byName.get(a);
          const rb = byName.get(b);
          inverted.push(`${a} < ${b}`);
          // An inverted pair must have overlapping intervals.
          expect(ra?.hi ?? 0).toBeGreaterThanOrEqual(rb?.lo ?? 0);
        }
      }
      note(
        `inverted pairs (all with overlapping intervals): ${inverted.length ? inverted.join(', ') : 'none'}\n`,
      );
    });

    it('a scripted LLM judge judges the posted battles; /judge agree reports judge vs crowd', async () => {
      const note = diagnostics('judge votes vs the crowd');
      const prefs = new Map(ORDER.filter((m) => m !== BASELINE).map((m) => [m, preferences(m)]));
      // answer text → model, so the scripted judge can follow the AlpacaEval judge's preferences
      const byOutput = new Map<string, string>();
      for (const m of ORDER) {
        const rows = JSON.parse(
          readFileSync(sharedData(...AE, 'model_outputs', `${m}.json`), 'utf8'),
        ) as { output: string }[];
        for (const r of rows) byOutput.set(r.output.trim(), m);
      }
      const between = (text: string, a: string, b: string) =>
        text.split(a)[1]?.split(b)[0]?.trim() ?? '';
      let biased = 0;
      const fakeJudge = await startFakeOpenAi({
        answer: (c: FakeCall) => {
          const text = c.messages[c.messages.length - 1]?.content ?? '';
          const q = between(text, '[Question / 问题]', '[The start of');
          const a = byOutput.get(between(text, "[The start of Assistant A's answer]", '[The end'));
          const b = byOutput.get(between(text, "[The start of Assistant B's answer]", '[The end'));
          if (!a || !b) return 'I cannot judge this.';
          // one instruction in eight: a position-biased judge (always the first answer), a flip → a tie
          if (q.length % 8 === 0) {
            biased++;
            return 'The first answer is better. [[A]]';
          }
          const v = judgeChoice(prefs, a, b, q);
          return JSON.stringify({
            reason: 'scripted',
            winner: v === 'left' ? 'A' : v === 'right' ? 'B' : 'tie',
          });
        },
      });
      try {
        const judgeName = 'scripted-judge';
        const ids = await ensureModels(db.db, [judgeName], 'openai');
        const judge = new OpenAiCompatibleClient({
          name: judgeName,
          baseUrl: fakeJudge.baseUrl,
          model: 'fake-model',
          maxRetries: 0,
          cache: dbResponseCache(db.db, ids.get(judgeName) as number),
          logger: silentLogger,
        });
        const battles = await sql<{ id: number }>`
          SELECT id FROM battles WHERE source = 'arena' AND status IN ('open', 'closed') ORDER BY id`.execute(
          db.db,
        );
        const targets = [];
        for (const row of battles.rows) {
          const t = await battleTexts(db.db, Number(row.id));
          if (!t) throw new Error('battle missing');
          targets.push({
            battleId: Number(row.id),
            question: t.prompt,
            left: t.left,
            right: t.right,
          });
        }
        expect(targets).toHaveLength(BATTLES);
        const votesBefore = await sql<{ n: number }>`SELECT count(*)::int AS n FROM votes`.execute(
          db.db,
        );
        const r = await judgeBattles({
          db: db.db,
          judge,
          rubric: loadRubric(`${PROJECT_ROOT}/config`, 'pairwise'),
          battles: targets,
        });
        expect({ judged: r.judged, failed: r.failed }).toEqual({ judged: BATTLES, failed: 0 });
        expect(fakeJudge.callCount).toBe(2 * BATTLES); // both orders of every battle
        // judge votes never become votes
        const votesAfter = await sql<{ n: number }>`SELECT count(*)::int AS n FROM votes`.execute(
          db.db,
        );
        expect(votesAfter.rows[0]?.n).toBe(votesBefore.rows[0]?.n);

        const rows = await judgeCrowdAgreement(db.db);
        expect(rows).toHaveLength(1);
        const row = rows[0];
        expect(row?.judged).toBe(BATTLES);
        // n = the judged battles with a crowd majority (one choice with the most live votes), counted here directly
        const live = await sql<{ battle_id: number; choice: string; n: number }>`
          SELECT battle_id, choice, count(*)::int AS n FROM votes WHERE retracted_at IS NULL
           GROUP BY battle_id, choice`.execute(db.db);
        const tally = new Map<number, number[]>();
        for (const v of live.rows)
          tally.set(Number(v.battle_id), [...(tally.get(Number(v.battle_id)) ?? []), v.n]);
        const withMajority = [...tally.values()].filter((ns) => {
          const top = Math.max(...ns);
          return ns.filter((x) => x === top).length === 1;
        }).length;
        expect(row?.n).toBe(withMajority);
        expect(row?.n).toBeGreaterThan(0);
        expect(row?.kappa ?? 0).toBeGreaterThan(0.5);

        // the same figures /judge agree shows in chat (its handler: test/app/judge/judge-command.test.ts)
        expect(judgeAgreeContent(rows).table?.rows[0]?.[0]).toBe(judgeName);
        note(
          `judge vs crowd on ${BATTLES} battles (${biased} position-biased replies → ties): n ${row?.n}, ` +
            `kappa ${row?.kappa?.toFixed(3)}, quadratic ${row?.kappaQuadratic?.toFixed(3)}, exact ${((row?.exact ?? 0) * 100).toFixed(1)} %\n`,
        );
      } finally {
        await fakeJudge.close();
      }
    });

    it('the identity guard over every pair × item of the imported outputs', async () => {
      const note = diagnostics('identity guard over the real outputs');
      const guard = new IdentityGuard(config.arena.identity_guard);
      const r = await sql<{ model: string; item_id: number; output: string }>`
      SELECT m.name AS model, r.item_id, r.output FROM responses r JOIN models m ON m.id = r.model_id`.execute(
        db.db,
      );
      const byItem = new Map<number, Map<string, string>>();
      for (const row of r.rows) {
        const m = byItem.get(Number(row.item_id)) ?? new Map<string, string>();
        byItem.set(Number(row.item_id), m);
        m.set(row.model, row.output);
      }
      let pairs = 0;
      let refused = 0;
      const byPair = new Map<string, number>();
      const byKind = new Map<string, number>();
      for (const answers of byItem.values()) {
        for (let i = 0; i < ORDER.length; i++) {
          for (let j = i + 1; j < ORDER.length; j++) {
            const a = ORDER[i] as string;
            const b = ORDER[j] as string;
            const la = answers.get(a);
            const lb = answers.get(b);
            if (la === undefined || lb === undefined) continue;
            pairs++;
            const hit = guard.checkPair(la, lb, [a, b]);
            if (hit) {
              refused++;
              byPair.set(`${a} vs ${b}`, (byPair.get(`${a} vs ${b}`) ?? 0) + 1);
              byKind.set(
                `${hit.kind}:${hit.term}`,
                (byKind.get(`${hit.kind}:${hit.term}`) ?? 0) + 1,
              );
            }
          }
        }
      }
      expect(pairs).toBe(805 * 15);
      const top = [...byKind.entries()].sort((x, y) => y[1] - x[1]).slice(0, 12);
      note(
        `identity guard: refused ${refused} of ${pairs} candidate battles (pair × item), ${((100 * refused) / pairs).toFixed(1)}%\n` +
          `by pair: ${JSON.stringify(Object.fromEntries(byPair))}\n` +
          `top terms: ${top.map(([k, n]) => `${k}=${n}`).join(', ')}\n` +
          `model tokens: ${ORDER.map((m) => `${m}→${modelTokens(m).slice(1).join('/')}`).join(', ')}\n`,
      );
      expect(refused).toBeGreaterThan(0);
      expect(refused).toBeLessThan(pairs);
      // Every posted battle passed the guard (checked in the first test); no posted battle revealed a model.
      const leaks = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM battles b
        JOIN models ml ON ml.id = b.model_left_id JOIN models mr ON mr.id = b.model_right_id
        JOIN responses rl ON rl.id = b.response_left_id JOIN responses rr ON rr.id = b.response_right_id
       WHERE b.status <> 'void' AND (rl.output ILIKE '%' || ml.name || '%' OR rl.output ILIKE '%' || mr.name || '%'
          OR rr.output ILIKE '%' || ml.name || '%' OR rr.output ILIKE '%' || mr.name || '%')`.execute(
        db.db,
      );
      expect(leaks.rows[0]?.n).toBe(0);
    });
  },
);
