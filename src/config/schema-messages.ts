/**
 * @module config/schema-messages
 * The config schemas' own messages (config/schema.ts: "not a valid cron expression", "a scoring dataset needs
 * `rubric:`" …) as command line catalogue messages (`cli.schema.*`, i18n/en-cli.ts). zod keeps a schema's message as
 * a string fixed when the schema is built, so a schema is given the English text ({@link schemaMessage}), and the
 * config loader says an issue's message again in the reader's language ({@link schemaMessageIn}).
 */
import type { Said, SaidTexts } from '../core/errors.ts';
import { type CliMessageKey, said, sayCli } from '../i18n/cli.ts';
import type { Locale } from '../i18n/index.ts';

/** Each English text given to a schema, with the message it says. */
const SAID = new Map<string, Said>();

/** `message` said in English for a schema, remembered so that {@link schemaMessageIn} can say it in another language. */
export function schemaSaid(message: Said): string {
  const en = sayCli('en', message);
  SAID.set(en, message);
  return en;
}

/** The command line message `key` in English for a schema (see {@link schemaSaid}). */
export function schemaMessage(
  key: CliMessageKey,
  params?: Readonly<Record<string, string | number | Said | SaidTexts>>,
): string {
  return schemaSaid(said(key, params));
}

/** A zod issue's message in `locale`: a schema's own message said again, any other (zod's own) as it is. */
export function schemaMessageIn(message: string, locale: Locale): string {
  const s = SAID.get(message);
  return s === undefined || locale === 'en' ? message : sayCli(locale, s);
}

/** The message a schema's English text says (see {@link schemaSaid}), or undefined for any other text. */
export function schemaSaidOf(message: string): Said | undefined {
  return SAID.get(message);
}
