/**
 * @module i18n/zod
 * zod's own validation messages (those a schema does not word itself) in a language of the catalogue: zod's
 * zh-CN locale for Chinese (https://zod.dev/error-customization, "Internationalization"), its default English
 * otherwise. Apart from i18n/cli.ts so that `zhujiu --help` does not load zod.
 */
import { z } from 'zod';
import type { Locale } from './index.ts';

const zhCN = z.locales.zhCN().localeError;

/**
 * The parse options that make zod say its messages in `locale` (`schema.safeParse(data, zodParseOptions(locale))`),
 * or undefined for English.
 */
export function zodParseOptions(locale: Locale): { error: z.core.$ZodErrorMap } | undefined {
  return locale === 'zh-CN' ? { error: zhCN } : undefined;
}
