/**
 * @module leaderboard/font-subset
 * Subsets the shipped CJK font to the characters a chart uses, with HarfBuzz's `hb-subset` (the WebAssembly build
 * in the `harfbuzzjs` package). resvg parses every font file it is given on every render; the full Noto Sans SC
 * (≈ 10 MB, ≈ 30 k glyphs) costs about a second per render, a subset of a few hundred glyphs a few milliseconds.
 * The full font is copied into the WebAssembly heap and pre-processed once per process; each distinct character
 * set is subset once and kept (a small cache: the board's text changes rarely). resvg-js 2.6 takes fonts as files
 * only, so {@link subsetFontFile} writes each subset to a private temporary folder (`zhujiu-font-XXXXXX`).
 *
 * The folder belongs to whoever made it ({@link makeFontFolder}) and goes when that ends: a board worker thread
 * (leaderboard/off-thread.ts) writes into a folder its owner made ({@link useFontFolder}) and removes when it stops
 * the thread, since a thread stopped by `Worker.terminate()` or by the process's end runs no exit hook of its own;
 * and every folder still there when the process ends, by exit or by a signal that ends it (SIGINT, SIGTERM,
 * SIGHUP…), is removed by signal-exit's hook, as storage/template-fill.ts removes its private folders.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { onExit } from 'signal-exit';

/** The exports of harfbuzz-subset.wasm used here (C API, pointers as numbers). */
interface HbSubsetExports {
  readonly memory: { readonly buffer: ArrayBuffer };
  malloc(size: number): number;
  free(ptr: number): void;
  hb_blob_create(data: number, length: number, mode: number, user: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, codepoint: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_preprocess(face: number): number;
  hb_subset_or_fail(face: number, input: number): number;
}

/** A loaded font face inside one HarfBuzz instance. */
interface LoadedFace {
  readonly hb: HbSubsetExports;
  readonly face: number;
}

/** The part of the global WebAssembly API used here (the project's TypeScript lib has no WebAssembly types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const HB_MEMORY_MODE_READONLY = 1;
const faces = new Map<string, LoadedFace>();
const cache = new Map<string, string>();
const CACHE_SIZE = 8;
/** The folder {@link subsetFontFile} writes to (made on first use, or given by {@link useFontFolder}). */
let dir: string | undefined;
/** The folders this thread made and has not removed yet: removed when the process ends. */
const made = new Set<string>();
let exitHookSet = false;

/**
 * Makes a private temporary folder for subset fonts (`zhujiu-font-XXXXXX` in the system's temporary folder), removed
 * by {@link removeFontFolder} or, at the latest, when the process ends (its exit, or a signal that ends it).
 * @returns the folder's absolute path.
 */
export function makeFontFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'zhujiu-font-'));
  made.add(folder);
  if (!exitHookSet) {
    exitHookSet = true;
    onExit(() => {
      for (const f of made) rmSync(f, { recursive: true, force: true });
    });
  }
  return folder;
}

/**
 * Removes `folder` (of {@link makeFontFolder}) with its fonts, and forgets the subsets cached in it; nothing when it
 * is gone already. The next {@link subsetFontFile} that wrote into it makes a new folder.
 */
export function removeFontFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true });
  made.delete(folder);
  for (const [key, file] of cache) if (file.startsWith(`${folder}${sep}`)) cache.delete(key);
  if (dir === folder) dir = undefined;
}

/**
 * Makes {@link subsetFontFile} write into `folder`, made and removed by someone else (a board worker thread's
 * owner: see the module comment), instead of a folder of its own.
 */
export function useFontFolder(folder: string): void {
  dir = folder;
}

function load(fontPath: string): LoadedFace {
  const known = faces.get(fontPath);
  if (known) return known;
  const wasm = readFileSync(
    createRequire(import.meta.url).resolve('harfbuzzjs/dist/harfbuzz-subset.wasm'),
  );
  const instance = new Wasm.Instance(new Wasm.Module(wasm), {});
  const hb = instance.exports as unknown as HbSubsetExports;
  const bytes = readFileSync(fontPath);
  const ptr = hb.malloc(bytes.byteLength);
  if (ptr === 0) throw new Error(`font subsetting: out of memory loading ${fontPath}`);
  new Uint8Array(hb.memory.buffer).set(bytes, ptr);
  // The heap copy lives as long as the process: the face refers to it (read-only, never freed).
  const blob = hb.hb_blob_create(ptr, bytes.byteLength, HB_MEMORY_MODE_READONLY, 0, 0);
  const raw = hb.hb_face_create(blob, 0);
  hb.hb_blob_destroy(blob);
  // A pre-processed face makes every later subset of it faster (HarfBuzz ≥ 6: hb_subset_preprocess).
  const face = hb.hb_subset_preprocess(raw);
  hb.hb_face_destroy(raw);
  const loaded = { hb, face };
  faces.set(fontPath, loaded);
  return loaded;
}

/**
 * The font at `fontPath` cut down to the glyphs of `chars` (plus printable ASCII, so digits and Latin names
 * always render), as TrueType bytes with the original family name.
 * @param fontPath a TrueType/OpenType file (the shipped chart font).
 * @param chars every character the rendered text may contain (duplicates and markup are fine).
 * @throws Error when HarfBuzz cannot subset the font (not a font file, or out of memory).
 */
export function subsetFont(fontPath: string, chars: string): Uint8Array {
  return subset(fontPath, codepointsOf(chars));
}

/**
 * Like {@link subsetFont}, written to a file of a private temporary folder (see the module comment for when it is
 * removed); the same path for the same font and character set while it stays among the last 8 used.
 * @returns absolute path of the subset TrueType file.
 */
export function subsetFontFile(fontPath: string, chars: string): string {
  const codepoints = codepointsOf(chars);
  const key = `${fontPath}\u0000${String.fromCodePoint(...codepoints)}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const bytes = subset(fontPath, codepoints);
  dir ??= makeFontFolder();
  const file = join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 16)}.ttf`);
  writeFileSync(file, bytes);
  cache.set(key, file);
  if (cache.size > CACHE_SIZE) {
    const [oldKey, oldFile] = cache.entries().next().value!;
    cache.delete(oldKey);
    rmSync(oldFile, { force: true });
  }
  return file;
}

function codepointsOf(chars: string): number[] {
  const set = new Set<number>();
  for (let c = 0x20; c < 0x7f; c++) set.add(c);
  // Only the characters outside printable ASCII need looking at (an SVG is mostly ASCII markup).
  for (const [ch] of chars.matchAll(/[^ -~]/gu)) set.add(ch.codePointAt(0)!);
  return [...set].sort((a, b) => a - b);
}

function subset(fontPath: string, codepoints: readonly number[]): Uint8Array {
  const { hb, face } = load(fontPath);
  const input = hb.hb_subset_input_create_or_fail();
  if (input === 0) throw new Error('font subsetting: out of memory');
  const unicodes = hb.hb_subset_input_unicode_set(input);
  for (const cp of codepoints) hb.hb_set_add(unicodes, cp);
  const sub = hb.hb_subset_or_fail(face, input);
  hb.hb_subset_input_destroy(input);
  if (sub === 0) throw new Error(`font subsetting failed for ${fontPath}`);
  const blob = hb.hb_face_reference_blob(sub);
  const at = hb.hb_blob_get_data(blob, 0);
  const len = hb.hb_blob_get_length(blob);
  const out = new Uint8Array(hb.memory.buffer, at, len).slice();
  hb.hb_blob_destroy(blob);
  hb.hb_face_destroy(sub);
  if (len === 0) throw new Error(`font subsetting produced an empty font for ${fontPath}`);
  return out;
}
