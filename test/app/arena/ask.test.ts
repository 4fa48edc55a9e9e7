/**
 * `/ask` end to end through the terminal adapter with scripted live models (the fake OpenAI-compatible server,
 * reached through the real openai client): a battle with both answers; a model
 * that fails (HTTP 500) or times out is replaced; answers that reveal their model are never posted; identity
 * questions are refused; the per-person limit; a thread reply continues both conversations with their own
 * histories; ability tag / classifier / maintainer override; void; the asker stored as an HMAC.
 */
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BotService } from '../../../src/bot/service.ts';
import type { ShellAdapter } from '../../../src/chat/shell/adapter.ts';
import type { AppConfig } from '../../../src/config/schema.ts';
import { ManualClock } from '../../../src/core/clock.ts';
import { silentLogger } from '../../../src/core/logger.ts';
import { hashVoterId } from '../../../src/core/voter-id.ts';
import { getBattle } from '../../../src/storage/battles.ts';
import { abilityOf, listTurns, setClassifiedAbility } from '../../../src/storage/live-battles.ts';
import { liveVotes, pairVoteCounts } from '../../../src/storage/votes.ts';
import { clearRows, flowBackends, freshDb, type TestDb } from '../../helpers/db.ts';
import { type Script, type ScriptedModels, scriptedModels } from '../../helpers/live-models.ts';
import { SECRET, terminal, terminalShell, testConfig } from './helpers.ts';

const LIVE = ['model-red', 'model-green', 'model-blue', 'model-gold'];
/** A harmless answer per model (no model name or vendor in it). */
const ANSWER: Record<string, string> = {
  'model-red': 'Tides come from the pull of the moon (answer R).',
  'model-green': 'The moon and the sun pull the oceans (answer G).',
  'model-blue': 'Gravity of the moon makes two bulges (answer B).',
  'model-gold': 'Ocean water follows the moon (answer O).',
};

function askConfig(over: Partial<AppConfig['arena']['ask']> = {}): AppConfig {
  return testConfig({
    arena: {
      window_hours: 1,
      identity_guard: {
        words: ['openai', 'claude', 'anthropic', '通义千问', 'qwen'],
        patterns: ['(我|本模型)是由.{0,12}(开发|训练|研发)'],
      },
      ask: {
        // Generous: a slow machine must never turn a healthy answer into a timeout.
        answer_timeout_ms: 30_000,
        progress_every_ms: 0,
        rate_limit: { max: 20, window_minutes: 10 },
        classifier_model: 'judge',
        ...over,
      },
    },
  });
}

describe.each(flowBackends())('/ask through the terminal (%s)', (backend) => {
  let db: TestDb;
  let bot: BotService;
  let shell: ShellAdapter;
  let term: ReturnType<typeof terminal>;
  let models: ScriptedModels;
  let judge: Script;

  async function start(config: AppConfig, names = LIVE, weights: Record<string, number> = {}) {
    term = terminal();
    const clock = new ManualClock(new Date('2026-11-30T12:00:00Z'));
    shell = terminalShell(term, config, { sessionTag: 't1', clock });
    // The live models are passed as the composition root does.
    bot = new BotService({
      db: db.db,
      config,
      platforms: [shell],
      logger: silentLogger,
      clock,
      voterSecret: SECRET,
      loopIntervalMs: 0,
      seedSource: (() => {
        let n = 1000;
        return () => n++;
      })(),
      live: {
        models: await models.live(names, weights),
        classifier: await models.client('judge'),
      },
    });
    await bot.start();
  }

  // One database for the file, its rows cleared before each test.
  beforeAll(async () => {
    db = await freshDb(backend);
  });
  afterAll(async () => db?.destroy());

  beforeEach(async () => {
    await clearRows(db);
    judge = '{"ability": "reasoning"}';
    models = await scriptedModels(db.db, (model) =>
      model === 'judge' ? judge : (ANSWER[model] ?? 'ok'),
    );
  });

  afterEach(async () => {
    await bot?.stop();
    await models.close();
  });

  const battleMessages = () =>
    shell.posted.filter((p) => p.content.title?.startsWith('Arena battle #'));

  it('posts a battle with both answers, removes the progress message, stores the asker as an HMAC', async () => {
    await start(askConfig());
    await shell.say('/ask How do tides work?');
    const posted = battleMessages();
    expect(posted).toHaveLength(1);
    expect(shell.posted).toHaveLength(1); // the progress message is gone
    const sections = posted[0]?.content.sections ?? [];
    expect(sections[0]).toEqual({ heading: 'Prompt', body: 'How do tides work?' });
    const answers = [sections[1]?.body, sections[2]?.body];
    expect(answers.every((a) => Object.values(ANSWER).includes(a as string))).toBe(true);
    expect(new Set(answers).size).toBe(2);
    const b = await getBattle(db.db, 1);
    expect(b).toMatchObject({ status: 'open', platform: 'shell', source: 'arena' });
    expect(ANSWER[b?.leftModel as string]).toBe(answers[0]);
    expect(ANSWER[b?.rightModel as string]).toBe(answers[1]);
    const row = await sql<{ asker_hash: string; kind: string }>`
      select asker_hash, kind from battles where id = 1`.execute(db.db);
    expect(row.rows[0]).toEqual({
      asker_hash: hashVoterId(SECRET, 'shell', 'local'),
      kind: 'live',
    });
    for (const m of LIVE) expect(term.text()).not.toContain(m);
    expect(term.text()).toContain('(only you) Asking two anonymous models');
    expect(term.text()).toContain('(only you) Battle #1 is up');
    // Votes work as on any battle.
    await shell.say('as alice vote 1 left');
    expect((await liveVotes(db.db, 1)).map((v) => v.choice)).toEqual(['left']);
  });

  // Weights put model-red and model-green first, so the failing ones are surely asked.
  const FIRST = { 'model-red': 10, 'model-green': 10 };

  it('replaces a model that returns 500 or times out; tells the asker when none is left', async () => {
    // The hanging model answers after 30 s; healthy ones answer at once, far within 5 s even on a busy machine.
    await start(askConfig({ answer_timeout_ms: 5000 }), LIVE, FIRST);
    models.setAnswer((m) =>
      m === 'judge'
        ? judge
        : m === 'model-red'
          ? { status: 500 }
          : m === 'model-green'
            ? { hang: true }
            : (ANSWER[m] as string),
    );
    await shell.say('/ask How do tides work?');
    const b = await getBattle(db.db, 1);
    expect(b?.status).toBe('open');
    expect(new Set([b?.leftModel, b?.rightModel])).toEqual(new Set(['model-blue', 'model-gold']));
    expect(
      models.calls
        .filter((c) => c.model !== 'judge')
        .map((c) => c.model)
        .sort(),
    ).toEqual([...LIVE].sort());
    // Now only failing models: no battle, nothing left in the channel, the asker is told.
    models.setAnswer((m) =>
      m === 'judge' ? judge : m === 'model-blue' ? { hang: true } : { status: 500 },
    );
    const before = shell.posted.length;
    await shell.say('/ask Why is the sky blue?');
    expect(shell.posted.length).toBe(before);
    expect(term.text()).toMatch(
      /\(only you\) Sorry, no battle this time: a model (failed|did not answer in time) and no other live model was left/,
    );
    const n = await sql<{ n: number }>`select count(*)::int as n from battles`.execute(db.db);
    expect(n.rows[0]?.n).toBe(1);
  });

  it('never posts two answers that are the same text (whitespace aside): the asker is told, nothing is stored', async () => {
    await start(askConfig());
    // Four different texts, the same once whitespace is normalised: whichever pair is drawn, no battle.
    const same: Record<string, string> = {
      'model-red': 'The moon pulls.',
      'model-green': ' The  moon pulls.\n',
      'model-blue': 'The\tmoon\npulls.',
      'model-gold': 'The moon pulls. ',
    };
    models.setAnswer((m) => (m === 'judge' ? judge : (same[m] as string)));
    await shell.say('/ask How do tides work?');
    expect(battleMessages()).toHaveLength(0);
    expect(term.text()).toContain(
      '(only you) No battle this time: both models gave the same answer',
    );
    const n = await sql<{ n: number }>`select count(*)::int as n from battles`.execute(db.db);
    expect(n.rows[0]?.n).toBe(0);
  });

  it('never posts an answer that reveals its model (Chinese or English); replaces it', async () => {
    await start(askConfig(), LIVE, FIRST);
    models.setAnswer((m) =>
      m === 'judge'
        ? judge
        : m === 'model-red'
          ? '我是通义千问，由阿里云开发的大模型。潮汐是由月球引力引起的。'
          : m === 'model-green'
            ? "I'm Claude, made by Anthropic. Tides are caused by the moon."
            : (ANSWER[m] as string),
    );
    await shell.say('/ask 潮汐是怎么形成的？');
    const b = await getBattle(db.db, 1);
    expect(new Set([b?.leftModel, b?.rightModel])).toEqual(new Set(['model-blue', 'model-gold']));
    expect(term.text()).not.toContain('通义千问');
    expect(term.text()).not.toContain('Anthropic');
    expect(models.calls.filter((c) => c.model !== 'judge')).toHaveLength(4);
  });

  it("posts a reasoning model's answer alone: its reasoning is neither posted nor held against it by the guard", async () => {
    await start(askConfig(), LIVE, FIRST);
    models.setAnswer((m) =>
      m === 'judge'
        ? judge
        : m === 'model-red'
          ? `<think>我是通义千问，先想想潮汐……</think>${ANSWER[m]}`
          : (ANSWER[m] as string),
    );
    await shell.say('/ask 潮汐是怎么形成的？');
    const b = await getBattle(db.db, 1);
    expect(new Set([b?.leftModel, b?.rightModel])).toEqual(new Set(['model-red', 'model-green']));
    const sections = battleMessages()[0]?.content.sections ?? [];
    expect([sections[1]?.body, sections[2]?.body]).toContain(ANSWER['model-red']);
    expect(term.text()).not.toContain('通义千问');
    expect(term.text()).not.toContain('think>');
  });

  it('refuses identity questions with an explanation, in both languages, without asking a model', async () => {
    await start(askConfig());
    for (const q of [
      '你是谁？',
      'Who are you?',
      '你是哪个公司开发的模型',
      'what model are you, really?',
    ]) {
      await shell.say(`/ask ${q}`);
    }
    expect(models.calls).toHaveLength(0);
    expect(shell.posted).toHaveLength(0);
    expect(term.text().match(/This arena is anonymous/g)?.length).toBe(4);
    expect(term.text()).toContain('本竞技场是匿名的');
    // A question about models in general is fine.
    await shell.say('/ask Who made the first steam engine?');
    expect(battleMessages()).toHaveLength(1);
  });

  it('answers the per-person limit politely; prompts over the length limit are refused', async () => {
    await start(askConfig({ rate_limit: { max: 2, window_minutes: 10 }, max_prompt_chars: 50 }));
    await shell.say('/ask First question?');
    await shell.say('/ask Second question?');
    await shell.say('/ask Third question?');
    expect(battleMessages()).toHaveLength(2);
    expect(term.text()).toContain(
      'Thanks for the enthusiasm! You have asked 2 questions in the last 10 minutes, the most the arena takes from one person so everyone gets a turn. You can ask again in about 10 minutes',
    );
    await shell.say('as bob /ask Bob asks too?');
    expect(battleMessages()).toHaveLength(3);
    await shell.say(`as bob /ask ${'x'.repeat(51)}`);
    expect(term.text()).toContain('Your prompt has 51 characters; the arena takes at most 50.');
  });

  it('a thread reply gets a second turn from both models, each with its own history', async () => {
    await start(askConfig(), ['model-red', 'model-green']);
    models.setAnswer((m, msgs) =>
      m === 'judge' ? judge : `${ANSWER[m]} [turn ${msgs.filter((x) => x.role === 'user').length}]`,
    );
    await shell.say('/ask How do tides work?');
    await shell.say('reply 1 And what about spring tides?');
    const thread = shell.posted.filter((p) => p.threadOf !== undefined);
    expect(thread).toHaveLength(1);
    expect(thread[0]?.threadOf).toBe(battleMessages()[0]?.ref.messageId);
    expect(thread[0]?.content.title).toBe('Arena battle #1 · turn 2');
    const turns = await listTurns(db.db, 1);
    expect(turns.map((t) => t.prompt)).toEqual([
      'How do tides work?',
      'And what about spring tides?',
    ]);
    const b = await getBattle(db.db, 1);
    for (const [side, model] of [
      ['left', b?.leftModel],
      ['right', b?.rightModel],
    ] as const) {
      const second = models.calls.filter((c) => c.model === model)[1];
      const own = side === 'left' ? turns[0]?.answerLeft : turns[0]?.answerRight;
      expect(second?.messages).toEqual([
        { role: 'user', content: 'How do tides work?' },
        { role: 'assistant', content: own },
        { role: 'user', content: 'And what about spring tides?' },
      ]);
      expect(own).toContain(ANSWER[model as string]);
    }
    const row = await sql<{ turns: number }>`select turns from battles where id = 1`.execute(db.db);
    expect(row.rows[0]?.turns).toBe(2);
    // An identity question in the thread is refused too.
    await shell.say('reply 1 你是谁？');
    expect((await listTurns(db.db, 1)).length).toBe(2);
  });

  it('ability: a tag is kept, the judge classifies the rest, a maintainer override wins; void leaves ratings', async () => {
    await start(askConfig());
    await shell.say('/ask Is 91 a prime number? knowledge');
    await shell.say('/ask Is 97 a prime number?');
    await bot.ask?.drain();
    expect(await abilityOf(db.db, 1)).toMatchObject({ ability: 'knowledge', source: 'tag' });
    expect(await abilityOf(db.db, 2)).toEqual({
      ability: 'reasoning',
      source: 'classifier',
      classifier: 'ability-classifier:judge',
      version: 'ability-v1',
    });
    const judged = models.calls.filter((c) => c.model === 'judge');
    expect(judged).toHaveLength(1); // the tagged prompt was not sent to the judge
    expect(judged[0]?.messages[1]?.content).toContain('Is 97 a prime number?');
    await shell.say('/arena ability 2 knowledge');
    expect(await abilityOf(db.db, 2)).toMatchObject({ ability: 'knowledge', source: 'maintainer' });
    // A late classifier result never overwrites the maintainer's choice.
    expect(
      await setClassifiedAbility(db.db, 2, { ability: 'safety', classifier: 'x', version: 'v' }),
    ).toBe(false);
    // An unparseable judge answer: unclassified, listed, never dropped.
    judge = 'I am not sure.';
    await shell.say('/ask Tell me a story about a fox.');
    await bot.ask?.drain();
    expect(await abilityOf(db.db, 3)).toMatchObject({ ability: null, source: null });
    await shell.say('/arena unclassified');
    expect(term.text()).toContain('Unclassified live battles');
    expect(term.text()).toMatch(/#3\s+open/);
    // Void: out of every rating, votes and events kept.
    await shell.say('as alice vote 3 left');
    expect((await pairVoteCounts(db.db)).length).toBe(1);
    await shell.say('/arena void 3 test battle');
    expect((await getBattle(db.db, 3))?.status).toBe('void');
    expect(await pairVoteCounts(db.db)).toEqual([]);
    expect((await liveVotes(db.db, 3)).length).toBe(1);
    const audit = await sql<{ action: string; reason: string }>`
      select action, reason from battle_audit order by id`.execute(db.db);
    expect(audit.rows).toEqual([
      { action: 'ability_override', reason: null },
      { action: 'void', reason: 'test battle' },
    ]);
    await shell.say('as bob /arena void 1');
    expect(term.text()).toContain('only arena maintainers');
    expect((await getBattle(db.db, 1))?.status).toBe('open');
  });

  it('ability by its Chinese name: /ask … 推理 tags, /arena ability 1 知识 files, a misspelling gets a did-you-mean', async () => {
    await start({ ...askConfig(), locale: 'zh-CN' });
    await shell.say('/ask 91 是质数吗？ 推理');
    await bot.ask?.drain();
    expect(await abilityOf(db.db, 1)).toMatchObject({ ability: 'reasoning', source: 'tag' });
    expect(models.calls.filter((c) => c.model === 'judge')).toHaveLength(0);
    await shell.say('/arena ability 1 知识');
    expect(await abilityOf(db.db, 1)).toMatchObject({ ability: 'knowledge', source: 'maintainer' });
    await shell.say('/arena ability 1 知识x');
    expect(term.text()).toContain('未知的能力“知识x”。');
    expect(term.text()).toContain('你是不是想输入“知识”？');
    await shell.say('/ask ability=推里 长城有多长？');
    expect(term.text()).toContain('你是不是想输入“推理”？');
    expect(await getBattle(db.db, 2)).toBeUndefined();
  });

  it('a newcomer with a higher arena_weight is chosen first', async () => {
    await start(askConfig(), LIVE, { 'model-gold': 50 });
    for (let i = 0; i < 3; i++) await shell.say(`as u${i} /ask Question ${i}?`);
    for (const id of [1, 2, 3]) {
      const b = await getBattle(db.db, id);
      expect([b?.leftModel, b?.rightModel]).toContain('model-gold');
    }
  });
});
