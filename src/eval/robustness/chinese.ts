/**
 * @module eval/robustness/chinese
 * The Chinese-text tools of the robustness perturbations (docs/scoring.md §2.7 "Robustness"): homophones by
 * pinyin (`pinyin-pro`), a small table of similar-shape characters, full-/half-width forms, and script / regional
 * conversion through OpenCC (`opencc-js`). Every table is built once, on first use, from the installed packages, so
 * the same package versions give the same perturbations.
 */
import * as OpenCC from 'opencc-js';
import { pinyin } from 'pinyin-pro';

/** True for a CJK unified ideograph (basic block and extension A). */
export function isHan(ch: string): boolean {
  return /^[\u3400-\u4dbf\u4e00-\u9fff]$/u.test(ch);
}

/**
 * The GB 2312 level-1 characters (一级汉字, the 3,755 most common simplified characters), decoded from their GB
 * code points (rows 0xB0–0xD7) with the platform's GBK decoder. The pool homophones are drawn from, so that a
 * substitution is a common character a writer would mistype, never a rare one.
 */
function commonHan(): string[] {
  const dec = new TextDecoder('gbk');
  const out: string[] = [];
  for (let hi = 0xb0; hi <= 0xd7; hi++) {
    for (let lo = 0xa1; lo <= 0xfe; lo++) {
      if (hi === 0xd7 && lo > 0xf9) break; // row 0xD7 ends at 0xF9 (5 unassigned code points)
      out.push(dec.decode(new Uint8Array([hi, lo])));
    }
  }
  return out;
}

let homophoneIndex: Map<string, string[]> | undefined;

/** Toned pinyin (`shi4`) → the common characters whose default reading it is, in GB 2312 order. */
function homophones(): Map<string, string[]> {
  if (homophoneIndex) return homophoneIndex;
  const idx = new Map<string, string[]>();
  for (const ch of commonHan()) {
    const py = pinyin(ch, { toneType: 'num' });
    const list = idx.get(py);
    if (list) list.push(ch);
    else idx.set(py, [ch]);
  }
  homophoneIndex = idx;
  return idx;
}

/**
 * The toned pinyin (`ta1`) of each code point of `chars` read in context (pinyin-pro's word segmentation picks the
 * reading of a polyphonic character, 重新 → chong2); a non-Han character gives itself.
 */
export function readings(chars: readonly string[]): string[] {
  const py = pinyin(chars.join(''), { type: 'array', toneType: 'num' });
  if (py.length === chars.length) return py;
  return chars.map((c) => (isHan(c) ? pinyin(c, { toneType: 'num' }) : c));
}

/** The common characters read exactly `reading` (same syllable and tone), `ch` itself left out. */
export function homophonesOf(ch: string, reading: string): readonly string[] {
  return (homophones().get(reading) ?? []).filter((c) => c !== ch);
}

/**
 * Similar-shape characters (形近字) a reader confuses, in groups: each character of a group may stand for another of
 * the same group. A small hand-made table of well-known confusions (primary-school 形近字 lists), not exhaustive.
 */
export const SIMILAR_SHAPES: readonly string[] = [
  '己已巳',
  '末未',
  '土士',
  '日曰',
  '人入八',
  '大太犬',
  '天夭',
  '王玉主',
  '戊戌戍',
  '田由甲申',
  '免兔',
  '折拆析',
  '候侯',
  '辨辩辫',
  '壁璧',
  '鸟乌',
  '券卷',
  '拔拨',
  '贷货',
  '即既',
  '崇祟',
  '哀衷衰',
  '今令',
  '干千于',
  '午牛',
  '问间',
  '失夫',
  '白自百',
  '目且',
  '住往',
  '师帅',
  '准淮',
  '洒酒',
  '延廷',
  '考老',
  '买卖',
  '晴睛请清情',
  '历厉',
  '刀力',
  '休体',
  '代伐',
  '官宫',
  '复夏',
  '特持',
  '情倩',
  '账帐',
  '很狠',
  '快块',
];

let shapeMap: Map<string, string[]> | undefined;

/** The similar-shape characters of `ch` from {@link SIMILAR_SHAPES} (none when it is in no group). */
export function similarShapesOf(ch: string): readonly string[] {
  if (!shapeMap) {
    shapeMap = new Map();
    for (const g of SIMILAR_SHAPES) {
      const cs = Array.from(g);
      for (const c of cs) {
        const others = cs.filter((o) => o !== c);
        shapeMap.set(c, [...new Set([...(shapeMap.get(c) ?? []), ...others])]);
      }
    }
  }
  return shapeMap.get(ch) ?? [];
}

/** Full-width punctuation and its half-width (ASCII) form. */
const PUNCT_HALF: Readonly<Record<string, string>> = {
  '，': ',',
  '。': '.',
  '？': '?',
  '！': '!',
  '：': ':',
  '；': ';',
  '（': '(',
  '）': ')',
};

/**
 * The other-width form of `ch`: an ASCII letter or digit → its full-width form (U+FF01–FF5E, e.g. 5 → ５), full-width
 * Chinese punctuation → ASCII (，→ ,); undefined for anything else.
 */
export function otherWidth(ch: string): string | undefined {
  if (/^[0-9A-Za-z]$/.test(ch)) return String.fromCharCode(ch.charCodeAt(0) + 0xfee0);
  return PUNCT_HALF[ch];
}

type Converter = (text: string) => string;
const converters = new Map<string, Converter>();

/**
 * An OpenCC converter, built once. `cn→t`: OpenCC standard traditional characters, character by character and by
 * phrase; `cn→twp` / `cn→hkp`: Taiwan / Hong Kong characters with OpenCC's regional phrase tables (软件 → 軟體,
 * 鼠标 → 滑鼠); `twp→cn` / `hkp→cn`: back to simplified mainland text.
 */
export function converter(from: 'cn' | 'twp' | 'hkp', to: 't' | 'twp' | 'hkp' | 'cn'): Converter {
  const key = `${from}>${to}`;
  const known = converters.get(key);
  if (known) return known;
  const made: Converter = OpenCC.Converter({ from, to });
  converters.set(key, made);
  return made;
}
