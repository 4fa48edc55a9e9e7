import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../src/core/errors.ts';
import { createRng } from '../../../src/core/rng.ts';
import {
  cannotRead,
  decodeUtf8,
  firstInvalidUtf8,
  readUtf8File,
  readUtf8FileSync,
  readUtf8Lines,
} from '../../../src/core/utf8.ts';
import { sayCli } from '../../../src/i18n/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'zhujiu-utf8-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array | string): string {
  const p = join(dir, name);
  writeFileSync(p, bytes);
  return p;
}

/** "Café crème" as Latin-1 on line 2: é is the single byte 0xE9. */
const latin1 = Buffer.concat([
  Buffer.from('{"a":1}\n{"b":"Caf'),
  Buffer.from([0xe9]),
  Buffer.from(' cr'),
  Buffer.from([0xe8]),
  Buffer.from('me"}\n'),
]);

async function lines(path: string): Promise<string[]> {
  const out: string[] = [];
  for await (const l of readUtf8Lines(path)) out.push(l);
  return out;
}

describe('UTF-8 decoding (core/utf8)', () => {
  it('refuses Latin-1 naming the file, the line and the byte offset', async () => {
    const p = file('latin1.jsonl', latin1);
    const expected =
      /^x\.jsonl:2: not UTF-8 text: byte offset 17 \(byte 10 of line 2\) starts 0xE9 0x20 0x63 0x72, which is not valid UTF-8/;
    expect(() => decodeUtf8(latin1, { name: 'x.jsonl' })).toThrow(expected);
    await expect(readUtf8File(p, { name: 'x.jsonl' })).rejects.toThrow(expected);
    expect(() => readUtf8FileSync(p, { name: 'x.jsonl' })).toThrow(expected);
    await expect(lines(p)).rejects.toThrow(/latin1\.jsonl:2: not UTF-8 text: byte offset 17 /);
    await expect(readUtf8File(p)).rejects.toMatchObject({ code: 'import_invalid' });
    await expect(readUtf8File(p, { code: 'config_invalid' })).rejects.toMatchObject({
      code: 'config_invalid',
    });
  });

  it('reads UTF-8 (a byte-order mark is dropped, CRLF and a missing last newline are fine)', async () => {
    const p = file('ok.txt', '\uFEFFCafé crème\r\n中文\n\nlast');
    expect(await readUtf8File(p)).toBe('Café crème\r\n中文\n\nlast');
    expect(await lines(p)).toEqual(['Café crème', '中文', '', 'last']);
  });

  it('finds the offset across stream chunks, with characters split between chunks', async () => {
    // 100,000 lines of "中文é\n" (9 bytes each: the 3-byte characters straddle every 64 KiB chunk boundary),
    // then a lone continuation byte on line 100,001.
    const good = Buffer.from('中文é\n'.repeat(100_000));
    const bad = Buffer.concat([good, Buffer.from('ok '), Buffer.from([0x80]), Buffer.from('\n')]);
    expect(await lines(file('big-ok.txt', good))).toHaveLength(100_000);
    await expect(lines(file('big-bad.txt', bad))).rejects.toThrow(
      /big-bad\.txt:100001: not UTF-8 text: byte offset 900003 \(byte 4 of line 100001\) starts 0x80/,
    );
  });

  it('refuses a character cut off at the end of the file, overlong forms and surrogates', async () => {
    await expect(lines(file('cut.txt', Buffer.from([0x61, 0x0a, 0xe4, 0xb8])))).rejects.toThrow(
      /cut\.txt:2: not UTF-8 text: byte offset 2 \(byte 1 of line 2\) starts 0xE4 0xB8/,
    );
    expect(firstInvalidUtf8(Uint8Array.from([0x61, 0xc0, 0x80]))).toBe(1); // overlong NUL
    expect(firstInvalidUtf8(Uint8Array.from([0xed, 0xa0, 0x80]))).toBe(0); // UTF-16 surrogate
    expect(firstInvalidUtf8(Uint8Array.from([0xf4, 0x90, 0x80, 0x80]))).toBe(0); // above U+10FFFF
    expect(firstInvalidUtf8(Buffer.from('😀 中 é'))).toBe(-1);
  });

  it('agrees with the WHATWG decoder on random bytes', () => {
    const rng = createRng(7);
    const fatal = new TextDecoder('utf-8', { fatal: true });
    for (let t = 0; t < 2000; t++) {
      const n = 1 + rng.int(8);
      const bytes = Uint8Array.from({ length: n }, () =>
        rng.next() < 0.5 ? 0x80 + rng.int(0x80) : rng.int(0x100),
      );
      let valid = true;
      try {
        fatal.decode(bytes);
      } catch {
        valid = false;
      }
      expect(firstInvalidUtf8(bytes) === -1, Buffer.from(bytes).toString('hex')).toBe(valid);
    }
  });

  it('calls a binary file (a NUL byte before the first bad byte) not a text file, naming where', () => {
    expect(() =>
      decodeUtf8(Uint8Array.from([0x5b, 0x0a, 0x00, 0xff, 0x10]), { name: 'bin.json' }),
    ).toThrow(
      'bin.json:2: not a text file (it contains NUL bytes, the first NUL at byte offset 2)',
    );
    // A bad byte before any NUL is an encoding problem, reported as such.
    expect(() => decodeUtf8(Uint8Array.from([0x61, 0xe9, 0x00]), { name: 'latin1.txt' })).toThrow(
      'latin1.txt:1: not UTF-8 text: byte offset 1',
    );
  });

  it('calls a file with a NUL byte not a text file even when every byte is valid UTF-8, in every reader', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"a":1}\n{"b":'),
      Buffer.from([0x00]),
      Buffer.from('2}\n'),
    ]);
    const p = file('nul.jsonl', bytes);
    const msg = `${p}:2: not a text file (it contains NUL bytes, the first NUL at byte offset 13)`;
    expect(() => decodeUtf8(bytes, { name: p })).toThrow(msg);
    await expect(readUtf8File(p)).rejects.toThrow(msg);
    expect(() => readUtf8FileSync(p)).toThrow(msg);
    await expect(lines(p)).rejects.toThrow(msg);
    // The streaming reader counts lines and offsets across chunks (64 KiB each).
    const big = Buffer.concat([
      Buffer.from('{"a":1}\n'.repeat(20_000)),
      Buffer.from([0x7f, 0x00, 0x01]),
    ]);
    const q = file('nul-late.jsonl', big);
    await expect(lines(q)).rejects.toThrow(
      `${q}:20001: not a text file (it contains NUL bytes, the first NUL at byte offset ${20_000 * 8 + 1})`,
    );
  });

  it('names UTF-16 and UTF-32 text (with or without a byte-order mark) and how to convert it, in every reader', async () => {
    const text = '{"item":"a","prompt":"中文","output":"o"}\n';
    const le = Buffer.from(`\uFEFF${text}`, 'utf16le'); // what Windows "Unicode" saves
    const leBare = Buffer.from(text, 'utf16le');
    const be = Buffer.from(leBare).swap16();
    // 一 (U+4E00) puts a NUL in the other byte of its code unit: still UTF-16 text, not a binary file.
    const leZeroLow = Buffer.from('[{"instruction":"题目一","output":"答案"}]\n', 'utf16le');
    const beZeroLow = Buffer.from(leZeroLow).swap16();
    const u32 = Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), Buffer.alloc(8)]);
    const cases: [string, Buffer, string, string][] = [
      ['le.jsonl', le, 'UTF-16LE', '0xFF 0xFE 0x7B 0x00'],
      ['le-bare.jsonl', leBare, 'UTF-16LE', '0x7B 0x00 0x22 0x00'],
      ['be-bare.jsonl', be, 'UTF-16BE', '0x00 0x7B 0x00 0x22'],
      ['le-zero-low.json', leZeroLow, 'UTF-16LE', '0x5B 0x00 0x7B 0x00'],
      ['be-zero-low.json', beZeroLow, 'UTF-16BE', '0x00 0x5B 0x00 0x7B'],
      ['u32.jsonl', u32, 'UTF-32LE', '0xFF 0xFE 0x00 0x00'],
    ];
    for (const [name, bytes, enc, shown] of cases) {
      const p = file(name, bytes);
      const msg = `${p}:1: not UTF-8 text: byte offset 0 (byte 1 of line 1) starts ${shown}: the file is ${enc} text; nothing was read from this file. Save it as UTF-8 (\`iconv -f ${enc} -t UTF-8 ${p} > converted\``;
      expect(() => decodeUtf8(bytes, { name: p })).toThrow(msg);
      await expect(readUtf8File(p)).rejects.toThrow(msg);
      expect(() => readUtf8FileSync(p)).toThrow(msg);
      await expect(lines(p)).rejects.toThrow(msg);
    }
    // NUL bytes that are not every other byte are still a binary file.
    const zip = Buffer.concat(Array(4).fill(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0x14, 0])));
    expect(() => decodeUtf8(zip, { name: 'z' })).toThrow('z:1: not a text file');
  });

  it('suggests converting from GB18030 for Chinese in GBK, from Latin-1 otherwise', async () => {
    const gbk = Buffer.concat([
      Buffer.from('{"a":1}\n{"b":"'),
      Buffer.from([0xd6, 0xd0, 0xce, 0xc4]), // 中文 in GBK
      Buffer.from('"}\n'),
    ]);
    const p = file('gbk.jsonl', gbk);
    const msg = `${p}:2: not UTF-8 text: byte offset 14 (byte 7 of line 2) starts 0xD6 0xD0 0xCE 0xC4, which is not valid UTF-8; nothing was read from this file. Save it as UTF-8 (\`iconv -f GB18030 -t UTF-8 ${p} > converted\`: these bytes read as Chinese in GBK/GB18030) and try again.`;
    expect(() => decodeUtf8(gbk, { name: p })).toThrow(msg);
    await expect(lines(p)).rejects.toThrow(msg);
    expect(() => decodeUtf8(latin1, { name: 'x' })).toThrow(
      '(e.g. `iconv -f latin1 -t utf-8 x > converted` for Latin-1, or `-f GB18030` for Chinese in GBK)',
    );
  });

  it('names a file that cannot be read', async () => {
    await expect(readUtf8File(join(dir, 'missing.json'))).rejects.toThrow(
      /missing\.json: cannot read \(no such file\); check the path/,
    );
    // A folder in the path that is a file (ZHUJIU_DATASETS_DIR naming a file), in every reader.
    const through = join(file('plain.txt', 'x'), 'c3', 'dev.json');
    const msg = `${through}: cannot read (a file is in its path); check the path`;
    await expect(readUtf8File(through)).rejects.toThrow(msg);
    expect(() => readUtf8FileSync(through)).toThrow(msg);
    await expect(lines(through)).rejects.toThrow(msg);
  });

  it('blames permissions, not the path, for a file it may not read (one wording for every reader)', () => {
    const denied = (code: string) => Object.assign(new Error(`${code}: denied`), { code });
    expect(cannotRead('f.jsonl', 'import_invalid', denied('EACCES')).message).toBe(
      "f.jsonl: cannot read (no permission, EACCES); check the file's permissions (and its folders')",
    );
    expect(cannotRead('f.jsonl', 'import_invalid', denied('EPERM')).message).toContain(
      '(no permission, EPERM)',
    );
    expect(cannotRead('f.jsonl', 'import_invalid', denied('ENOENT')).message).toBe(
      'f.jsonl: cannot read (no such file); check the path',
    );
  });

  it.skipIf(process.getuid?.() === 0)('a file without read permission (not as root)', async () => {
    const f = file('noperm.jsonl', '{}\n');
    chmodSync(f, 0o000);
    await expect(readUtf8File(f)).rejects.toThrow(
      /noperm\.jsonl: cannot read \(no permission, EACCES\)/,
    );
  });
});

/** Two lines of Chinese JSON Lines, the second cut before its last character 文 (0xE6 0x96 0x87 in UTF-8). */
const head = Buffer.from('{"a":"你好"}\n{"b":"答案是中');
const cutAt = (...tail: (number[] | string)[]) =>
  Buffer.concat([
    head,
    ...tail.map((t) => (typeof t === 'string' ? Buffer.from(t) : Buffer.from(t))),
  ]);
/** 文 starts at byte offset 33, byte 19 of line 2. */
const at33 = 'not UTF-8 text: byte offset 33 (byte 19 of line 2) starts';
const fileCut =
  'an incomplete UTF-8 character: the file ends in the middle of a UTF-8 character, so it looks cut short (truncated, e.g. by an interrupted download or copy); nothing was read from this file. Get a complete copy of the file and try again (converting its encoding would not help).';

/** The refusal of `bytes` in every reader (decodeUtf8, readUtf8File, readUtf8FileSync, readUtf8Lines). */
async function refusedEverywhere(name: string, bytes: Buffer, msg: (p: string) => string) {
  const p = file(name, bytes);
  expect(() => decodeUtf8(bytes, { name: p })).toThrow(msg(p));
  await expect(readUtf8File(p)).rejects.toThrow(msg(p));
  expect(() => readUtf8FileSync(p)).toThrow(msg(p));
  await expect(lines(p)).rejects.toThrow(msg(p));
}

/** The refusal of `bytes` said in Chinese. */
function zhOf(bytes: Uint8Array): string {
  try {
    decodeUtf8(bytes, { name: 'x.jsonl' });
  } catch (err) {
    if (err instanceof AppError && err.said) return sayCli('zh-CN', err.said);
  }
  throw new Error('not refused');
}

describe('UTF-8 text cut short in the middle of a character (core/utf8)', () => {
  it('a file cut after 1 of the 3 bytes of its last character looks cut short, not another encoding', async () => {
    await refusedEverywhere('cut1.jsonl', cutAt([0xe6]), (p) => `${p}:2: ${at33} 0xE6, ${fileCut}`);
    expect(zhOf(cutAt([0xe6]))).toBe(
      'x.jsonl:2：不是 UTF-8 文本：字节偏移 33（第 2 行第 19 个字节）以 0xE6 开头，这是一个不完整的 UTF-8 字符：文件在一个 UTF-8 字符的中间结束，看起来被截断了（例如下载或复制被中断）；没有从这个文件读取任何内容。请获取一份完整的文件后重试（转换编码无济于事）。',
    );
  });

  it('a file cut after 2 of the 3 bytes gets no GB18030 advice (the two bytes read as Chinese in GBK)', async () => {
    const bytes = cutAt([0xe6, 0x96]);
    await refusedEverywhere('cut2.jsonl', bytes, (p) => `${p}:2: ${at33} 0xE6 0x96, ${fileCut}`);
    expect(() => decodeUtf8(bytes, { name: 'x' })).not.toThrow(/GB18030|iconv/);
    // Only ASCII before: a lead byte with its continuation cut at the end of the file is still cut short.
    expect(() => decodeUtf8(Uint8Array.from([0x61, 0x0a, 0xe4, 0xb8]), { name: 'a' })).toThrow(
      `a:2: not UTF-8 text: byte offset 2 (byte 1 of line 2) starts 0xE4 0xB8, ${fileCut}`,
    );
  });

  it('a character cut before the last line end is the end of the file, in every reader', async () => {
    for (const end of ['\n', '\r\n'])
      await refusedEverywhere(
        `cut-nl-${end.length}.jsonl`,
        cutAt([0xe6], end),
        (p) => `${p}:2: ${at33} 0xE6, ${fileCut}`,
      );
  });

  it('a line cut short in the middle of a file names that line', async () => {
    const lineCut = (p: string, shown: string) =>
      `${p}:2: ${at33} ${shown}, an incomplete UTF-8 character: line 2 ends in the middle of a UTF-8 character, so it looks cut short (truncated, e.g. by an interrupted download, copy or write); nothing was read from this file. Get a complete copy of the file (or repair line 2) and try again (converting its encoding would not help).`;
    const rest = '\n{"c":"再见"}\n';
    await refusedEverywhere('mid1.jsonl', cutAt([0xe6], rest), (p) => lineCut(p, '0xE6'));
    await refusedEverywhere('mid2.jsonl', cutAt([0xe6, 0x96], `\r${rest}`), (p) =>
      lineCut(p, '0xE6 0x96'),
    );
    expect(zhOf(cutAt([0xe6], rest))).toContain(
      '以 0xE6 开头，这是一个不完整的 UTF-8 字符：第 2 行在一个 UTF-8 字符的中间结束，看起来被截断了（例如下载、复制或写入被中断）；没有从这个文件读取任何内容。请获取一份完整的文件（或修复第 2 行）后重试（转换编码无济于事）。',
    );
    // The streaming reader remembers Chinese from chunks (64 KiB each) before the two it holds.
    const big = Buffer.concat([
      Buffer.from(`中\n${'a\n'.repeat(100_000)}`),
      Buffer.from([0xe6, 0x0a, 0x78]),
    ]);
    await expect(lines(file('mid-big.txt', big))).rejects.toThrow(
      /mid-big\.txt:100002: not UTF-8 text: byte offset 200004 \(byte 1 of line 100002\) starts 0xE6, an incomplete UTF-8 character: line 100002 ends/,
    );
  });

  it('GBK and Latin-1 text whose bytes end a line like a cut UTF-8 character keep their conversion advice', async () => {
    // name: 婧 (0xE6 0xBA in GBK: a UTF-8 lead byte and a continuation byte) before a line end, nothing
    // that is UTF-8 before it.
    const gbk = Buffer.concat([
      Buffer.from('name: '),
      Buffer.from([0xe6, 0xba]),
      Buffer.from('\nage: 3\n'),
    ]);
    const p = file('gbk-eol.yaml', gbk);
    const msg = `${p}:1: not UTF-8 text: byte offset 6 (byte 7 of line 1) starts 0xE6 0xBA 0x0A 0x61, which is not valid UTF-8; nothing was read from this file. Save it as UTF-8 (\`iconv -f GB18030 -t UTF-8 ${p} > converted\`: these bytes read as Chinese in GBK/GB18030) and try again.`;
    expect(() => decodeUtf8(gbk, { name: p })).toThrow(msg);
    await expect(lines(p)).rejects.toThrow(msg);
    // 中文 in GBK mid-line, as before.
    const gbkMid = Buffer.concat([
      Buffer.from('{"b":"'),
      Buffer.from([0xd6, 0xd0, 0xce, 0xc4]),
      Buffer.from('"}\n'),
    ]);
    expect(() => decodeUtf8(gbkMid, { name: 'g' })).toThrow(
      '(`iconv -f GB18030 -t UTF-8 g > converted`',
    );
    // Latin-1 "Café" ending a line: é (0xE9) is a lone UTF-8 lead byte before the line end.
    const cafe = Buffer.concat([
      Buffer.from('name: Caf'),
      Buffer.from([0xe9]),
      Buffer.from('\nx: 1\n'),
    ]);
    expect(() => decodeUtf8(cafe, { name: 'l' })).toThrow(
      '(e.g. `iconv -f latin1 -t utf-8 l > converted`',
    );
  });
});
