/**
 * @module eval/robustness/redundant
 * Redundant Information and Redundant Dialogue (ZhuJiu §2.3.7). Redundant Information inserts irrelevant but
 * plausible sentences into a question's text at sentence boundaries; Redundant Dialogue puts an unrelated
 * multi-turn conversation before the question as earlier chat messages. The sentences and conversations are fixed
 * tables below (everyday topics that bear on no dataset's question, and hold no numbers a word problem could pick
 * up); the Rng chooses which and where.
 */
import type { Rng } from '../../core/rng.ts';
import type { ChatMessage } from '../../llm/types.ts';
import type { EditableText } from './text.ts';

/** Irrelevant but plausible sentences. */
export const DISTRACTOR_SENTENCES: readonly string[] = [
  '学校图书馆每逢周一上午闭馆整理图书。',
  '天气预报说傍晚可能会下一场小雨。',
  '这条街上新开了一家卖手工面条的小店。',
  '公园里的银杏叶到了秋天会变成金黄色。',
  '很多人喜欢在周末去郊外爬山散心。',
  '小区门口的快递柜最近换成了新型号。',
  '博物馆下个月将举办一场青铜器展览。',
  '这座城市的地铁线路还在不断延伸。',
  '早睡早起被许多医生认为是好习惯。',
  '楼下的花坛里种满了月季和茉莉。',
  '社区活动中心每周都有书法兴趣班。',
  '最近不少年轻人开始学习烘焙。',
  '河边的步道在晚上亮起了暖色的路灯。',
  '超市的水果区今天摆上了新到的橙子。',
  '体育馆的游泳池暑假期间延长了开放时间。',
  '老街的石板路已经有上百年的历史。',
  '一些鸟类会在冬天飞往南方过冬。',
  '茶叶的口感和冲泡的水温有很大关系。',
  '火车站的候车大厅刚刚完成了翻修。',
  '邻居家的小猫总喜欢趴在窗台上晒太阳。',
];

/** Sentences inserted per question. */
export const DISTRACTORS_PER_ITEM = 2;

const STRONG_END = new Set(['。', '！', '？', '!', '?']);
const WEAK_END = new Set(['，', '；', ',', ';']);

/**
 * The code-point positions after which a sentence may be inserted: after an editable sentence end (。！？) that
 * is followed by more text on its line; where there is none, after a clause end (，；); where there is none either,
 * the end of the first editable run.
 */
export function insertionPoints(t: EditableText): number[] {
  const points = (ends: ReadonlySet<string>) =>
    t.chars
      .map((_c, i) => i)
      .filter(
        (i) =>
          t.editable[i] &&
          ends.has(t.chars[i] as string) &&
          i + 1 < t.chars.length &&
          t.chars[i + 1] !== '\n',
      )
      .map((i) => i + 1);
  const strong = points(STRONG_END);
  if (strong.length > 0) return strong;
  const weak = points(WEAK_END);
  if (weak.length > 0) return weak;
  const first = t.editable.indexOf(true);
  if (first < 0) return [t.chars.length];
  let end = first;
  while (end < t.chars.length && t.editable[end]) end++;
  return [end];
}

/**
 * Inserts {@link DISTRACTORS_PER_ITEM} distinct sentences of {@link DISTRACTOR_SENTENCES} at seeded insertion points
 * of `t` ({@link insertionPoints}).
 * @returns the text and the inserted sentences with the code-point position (in the original text) of each.
 */
export function insertDistractors(
  t: EditableText,
  rng: Rng,
): { text: string; inserted: { at: number; sentence: string }[] } {
  const pool = [...DISTRACTOR_SENTENCES];
  const points = insertionPoints(t);
  const inserted: { at: number; sentence: string }[] = [];
  for (let k = 0; k < DISTRACTORS_PER_ITEM; k++) {
    const [sentence] = pool.splice(rng.int(pool.length), 1) as [string];
    inserted.push({ at: points[rng.int(points.length)] as number, sentence });
  }
  inserted.sort((a, b) => a.at - b.at);
  const out: string[] = [];
  let next = 0;
  for (let i = 0; i <= t.chars.length; i++) {
    while (next < inserted.length && inserted[next]?.at === i)
      out.push((inserted[next++] as { sentence: string }).sentence);
    if (i < t.chars.length) out.push(t.chars[i] as string);
  }
  return { text: out.join(''), inserted };
}

/** Unrelated conversations (user / assistant turns), one of which precedes a question. */
export const UNRELATED_DIALOGUES: readonly (readonly ChatMessage[])[] = [
  [
    { role: 'user', content: '周末想去爬山，有什么需要准备的吗？' },
    {
      role: 'assistant',
      content: '建议穿防滑的运动鞋，带足饮用水和一些能量食品，出发前看一下天气预报。',
    },
    { role: 'user', content: '要不要带雨衣？' },
    { role: 'assistant', content: '山里天气变化快，带一件轻便的雨衣比较稳妥。' },
  ],
  [
    { role: 'user', content: '怎样才能泡出一杯好喝的绿茶？' },
    {
      role: 'assistant',
      content: '绿茶不宜用滚烫的开水，水温在八十度左右比较合适，浸泡时间也不要太长。',
    },
    { role: 'user', content: '用什么杯子比较好？' },
    { role: 'assistant', content: '玻璃杯可以欣赏茶叶舒展的样子，瓷杯保温更好，都可以。' },
  ],
  [
    { role: 'user', content: '我家的绿萝叶子发黄了，是怎么回事？' },
    {
      role: 'assistant',
      content: '常见原因是浇水过多或光照不足，可以让土壤稍干再浇，并放到明亮的散射光处。',
    },
    { role: 'user', content: '需要施肥吗？' },
    { role: 'assistant', content: '生长季节可以每月施一次稀薄的液肥，冬天就不用了。' },
  ],
  [
    { role: 'user', content: '推荐一种适合初学者的乐器吧。' },
    { role: 'assistant', content: '尤克里里体积小、和弦简单，很适合初学者入门。' },
    { role: 'user', content: '每天练习多久合适？' },
    { role: 'assistant', content: '刚开始每天练二三十分钟就够了，贵在坚持。' },
  ],
  [
    { role: 'user', content: '晚上总是睡不着，有什么办法？' },
    { role: 'assistant', content: '睡前一小时少看手机，保持规律的作息，卧室尽量安静、昏暗。' },
    { role: 'user', content: '喝牛奶有用吗？' },
    { role: 'assistant', content: '温牛奶能让一些人放松，但更重要的是养成固定的睡眠习惯。' },
  ],
  [
    { role: 'user', content: '第一次养猫要注意什么？' },
    {
      role: 'assistant',
      content: '准备好猫砂盆、猫粮和饮水器，按时接种疫苗，给它一个安静的角落适应新家。',
    },
    { role: 'user', content: '猫需要洗澡吗？' },
    { role: 'assistant', content: '猫会自己清理毛发，一般不需要经常洗澡，脏了再洗就行。' },
  ],
];

/** A seeded choice among {@link UNRELATED_DIALOGUES}: its index and its messages. */
export function pickDialogue(rng: Rng): { index: number; messages: readonly ChatMessage[] } {
  const index = rng.int(UNRELATED_DIALOGUES.length);
  return { index, messages: UNRELATED_DIALOGUES[index] as readonly ChatMessage[] };
}

/**
 * `messages` with `dialogue` put just before the last user message (after any system message and in-context
 * examples), so the question is asked after the unrelated conversation.
 */
export function withPriorDialogue(
  messages: readonly ChatMessage[],
  dialogue: readonly ChatMessage[],
): ChatMessage[] {
  const last = messages.length - 1;
  return [...messages.slice(0, last), ...dialogue, ...messages.slice(last)];
}
