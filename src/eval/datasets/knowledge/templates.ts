/**
 * @module eval/datasets/knowledge/templates
 * The Chinese question templates of the constructed knowledge sets (ZhuJiu, Zhang et al. 2023, §2.3.1 and App. B;
 * docs/scoring.md §2.8): five phrasings of every relation, so that the robustness property can ask one fact five
 * ways, each phrasing followed by the relation's answer instruction (what to answer, and nothing else, so that
 * exact match can score it). Pure. Any change of wording must bump {@link KNOWLEDGE_TEMPLATE_VERSION}.
 */

/** Version of the question wording (recorded in every built item and in the loader's template version). */
export const KNOWLEDGE_TEMPLATE_VERSION = 'knowledge-v1';

/** A relation's phrasings (with `{slot}` placeholders) and its answer instruction. */
export interface RelationTemplates {
  readonly phrasings: readonly [string, string, string, string, string];
  readonly instruction: string;
}

/** Every relation the builders ask about. */
export const TEMPLATES = {
  country_continent: {
    phrasings: [
      '{country}位于哪个大洲？',
      '{country}属于世界上的哪一个大洲？',
      '请问{country}这个国家或地区在哪个洲？',
      '从地理上看，{country}是哪个大洲的国家或地区？',
      '{country}地处七大洲中的哪一个？',
    ],
    instruction: '只回答大洲的中文名称。',
  },
  country_currency: {
    phrasings: [
      '{country}使用的货币的ISO 4217代码是什么？',
      '请写出{country}法定货币的ISO 4217三字母代码。',
      '在国际标准ISO 4217中，{country}的货币代码是什么？',
      '{country}所用货币的国际代码（三个字母）是什么？',
      '如果用ISO 4217代码标注{country}的货币，应写作什么？',
    ],
    instruction: '只回答三个字母的代码。',
  },
  country_calling_code: {
    phrasings: [
      '{country}的国际电话区号是多少？',
      '从国外给{country}打电话，要拨的国家代码是多少？',
      '{country}的国际长途电话国家代码是什么？',
      '请写出{country}的电话国家区号。',
      '拨打{country}的电话时，国际区号是几？',
    ],
    instruction: '只回答区号的数字。',
  },
  country_capital: {
    phrasings: [
      '{country}的首都是哪座城市？',
      '请问{country}的首都叫什么？',
      '{country}的首都位于哪座城市？',
      '哪座城市是{country}的首都？',
      '{country}的首府或首都是哪里？',
    ],
    instruction: '只用英文写出城市名。',
  },
  code_country: {
    phrasings: [
      'ISO 3166-1二位字母代码为{code}的国家或地区是哪个？',
      '国家和地区代码（ISO 3166-1 alpha-2）“{code}”代表哪里？',
      '哪个国家或地区的ISO二位字母代码是{code}？',
      '代码{code}在ISO 3166-1标准中指的是哪个国家或地区？',
      '请说出ISO 3166-1代码为“{code}”的国家或地区。',
    ],
    instruction: '只回答它的中文名称。',
  },
  country_borders: {
    phrasings: [
      '{country}与哪些国家和地区陆上接壤？',
      '请列出与{country}陆地相邻的所有国家和地区。',
      '{country}的陆上邻国和地区有哪些？',
      '和{country}有陆地边界的国家和地区有哪些？',
      '哪些国家和地区与{country}在陆地上相邻？',
    ],
    instruction: '请列出全部，用顿号分隔，只写中文名称。',
  },
  holiday_start: {
    phrasings: [
      '{year}年的{holiday}假期从哪一天开始放假？',
      '按国务院办公厅的安排，{year}年{holiday}放假的第一天是几月几日？',
      '{year}年{holiday}假期的起始日期是哪天？',
      '{year}年{holiday}放假是从几月几日开始的？',
      '请问{year}年{holiday}假期第一天是哪一天？',
    ],
    instruction: '只回答日期，格式为“某月某日”。',
  },
  holiday_length: {
    phrasings: [
      '{year}年{holiday}假期一共放假几天？',
      '按国务院办公厅的安排，{year}年{holiday}连续放假多少天？',
      '{year}年的{holiday}假期有几天？',
      '{year}年{holiday}共休息几天（含调休后的周末）？',
      '请问{year}年{holiday}放假的天数是多少？',
    ],
    instruction: '只回答天数。',
  },
  solar_term_date: {
    phrasings: [
      '{year}年的{term}是公历几月几日？',
      '{year}年{term}节气在哪一天？',
      '{year}年交{term}节气的日期是几月几日？',
      '请问{year}年的{term}是哪一天？',
      '{year}年{term}这个节气落在公历的哪一天？',
    ],
    instruction: '只回答日期，格式为“某月某日”。',
  },
  year_zodiac: {
    phrasings: [
      '公历{year}年的农历年（以{year}年7月1日所在的农历年为准）是什么生肖年？',
      '{year}年7月1日出生的人属什么生肖？',
      '以{year}年7月1日所在的农历年计，{year}年是十二生肖中的哪一年？',
      '{year}年7月1日所在农历年的生肖是什么？',
      '请问{year}年年中（7月1日）出生的孩子属相是什么？',
    ],
    instruction: '只回答生肖名称（一个字）。',
  },
  year_ganzhi: {
    phrasings: [
      '{year}年7月1日所在的农历年，干支纪年是什么？',
      '用天干地支纪年，{year}年（以7月1日所在的农历年为准）是什么年？',
      '{year}年年中所在的农历年的干支是什么？',
      '以{year}年7月1日计，{year}年的天干地支纪年是哪一年？',
      '请写出{year}年7月1日所在农历年的干支纪年。',
    ],
    instruction: '只回答两个字的干支。',
  },
  next_solar_term: {
    phrasings: [
      '二十四节气中，{term}之后的下一个节气是什么？',
      '紧跟在{term}后面的节气是哪一个？',
      '{term}过后，接下来是哪个节气？',
      '按二十四节气的顺序，{term}的后一个节气是什么？',
      '请问{term}的下一个节气叫什么？',
    ],
    instruction: '只回答节气名称。',
  },
  previous_solar_term: {
    phrasings: [
      '二十四节气中，{term}之前的一个节气是什么？',
      '紧挨在{term}前面的节气是哪一个？',
      '{term}到来之前，上一个节气是哪个？',
      '按二十四节气的顺序，{term}的前一个节气是什么？',
      '请问{term}的上一个节气叫什么？',
    ],
    instruction: '只回答节气名称。',
  },
  festival_lunar_date: {
    phrasings: [
      '{festival}是农历几月几日？',
      '传统节日{festival}在农历的哪一天？',
      '{festival}的农历日期是什么？',
      '按农历算，{festival}是哪一天？',
      '请问每年的{festival}在农历几月几日？',
    ],
    instruction: '只回答农历日期，格式如“正月初一”。',
  },
  char_pinyin: {
    phrasings: [
      '汉字“{char}”的普通话读音是什么？',
      '“{char}”这个字怎么读？',
      '请写出“{char}”字的汉语拼音。',
      '汉字“{char}”的拼音是什么？',
      '“{char}”在普通话里读作什么？',
    ],
    instruction: '只回答带声调符号的拼音。',
  },
  char_strokes: {
    phrasings: [
      '汉字“{char}”一共有几画？',
      '“{char}”这个字的笔画数是多少？',
      '写“{char}”字需要多少笔？',
      '请问汉字“{char}”的总笔画数是几？',
      '“{char}”字共由几笔写成？',
    ],
    instruction: '只回答笔画数。',
  },
  char_tone: {
    phrasings: [
      '汉字“{char}”在普通话中读第几声？',
      '“{char}”这个字的声调是第几声？',
      '请问“{char}”字的普通话声调是几声？',
      '“{char}”读的是普通话四个声调中的哪一个？',
      '汉字“{char}”的声调是第几声？',
    ],
    instruction: '只回答“第一声”“第二声”“第三声”或“第四声”。',
  },
  term_category: {
    phrasings: [
      '“{term}”属于下列哪一类：{classes}？',
      '在{classes}这几类中，“{term}”是哪一类？',
      '请判断“{term}”是什么：{classes}？',
      '“{term}”这个词指的是哪一类事物？可选：{classes}。',
      '从{classes}中选出“{term}”所属的类别。',
    ],
    instruction: '只回答类别名称。',
  },
} as const satisfies Record<string, RelationTemplates>;

/** A relation name. */
export type Relation = keyof typeof TEMPLATES;

/**
 * The question of `relation` in its phrasing `phrasing` (0–4), with its slots filled and the answer instruction
 * appended.
 * @throws RangeError for a phrasing out of range, or a slot the template has and `slots` lacks.
 * @example question('country_continent', 0, { country: '日本' }) // '日本位于哪个大洲？只回答大洲的中文名称。'
 */
export function question(
  relation: Relation,
  phrasing: number,
  slots: Readonly<Record<string, string>>,
): string {
  const t: RelationTemplates = TEMPLATES[relation];
  const text = t.phrasings[phrasing];
  if (text === undefined) throw new RangeError(`${relation}: no phrasing ${phrasing} (0–4)`);
  const filled = text.replace(/\{(\w+)\}/g, (_, k: string) => {
    const v = slots[k];
    if (v === undefined) throw new RangeError(`${relation}: no value for {${k}}`);
    return v;
  });
  return `${filled}${t.instruction}`;
}

/** All five phrasings of one fact (robustness items). */
export function allPhrasings(
  relation: Relation,
  slots: Readonly<Record<string, string>>,
): string[] {
  return [0, 1, 2, 3, 4].map((i) => question(relation, i, slots));
}
