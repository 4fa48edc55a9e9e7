/**
 * @module leaderboard/font
 * The CJK font shipped with the app: Noto Sans SC Regular (TTF, ≈ 10 MB) from the `@expo-google-fonts/noto-sans-sc`
 * package (OFL-1.1). The chart hands it to resvg; the results site serves it to browsers (`FONT_URL` in
 * leaderboard/page.ts), so Chinese renders where no CJK font is installed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const PACKAGE = '@expo-google-fonts/noto-sans-sc';
const require = createRequire(import.meta.url);

let fontPath: string | undefined;

/** Absolute path of the shipped CJK font (TTF). */
export function shippedFontPath(): string {
  fontPath ??= require.resolve(`${PACKAGE}/400Regular/NotoSansSC_400Regular.ttf`);
  return fontPath;
}

/** The font package's version (`0.4.3`): part of the font's URL, so a new font is a new URL. */
export const SHIPPED_FONT_VERSION: string = (
  JSON.parse(readFileSync(require.resolve(`${PACKAGE}/package.json`), 'utf8')) as {
    version: string;
  }
).version;
