/**
 * @module config/yaml-messages
 * The yaml parser's own messages that say more than their error code, as catalogue messages (`cli.config.yamlMsg.*`)
 * in every language: an unclosed `[` or `{` names the bracket that closes it, an unclosed quote its quote mark, a
 * plain value the character it cannot start with. The code alone (`BAD_INDENT` for an unclosed `[` in a block
 * mapping) would lose that hint in Chinese. The patterns are the messages of yaml 2.9 (its dist/compose/ and
 * dist/parse/); a message none of them matches is said by its code (config/loader.ts `yamlErrorDetail`).
 */
import type { Said } from '../core/errors.ts';
import { type CliMessageKey, said } from '../i18n/cli.ts';

/** One message of the parser: its pattern and the catalogue message it is said as, with its parameters. */
type Known = readonly [RegExp, (m: RegExpExecArray) => Said];

/** A message without parameters. */
const plain = (key: CliMessageKey) => (): Said => said(key);

const KNOWN: readonly Known[] = [
  [
    /^Flow (?:sequence|map)(?: in block collection must be sufficiently indented and| must) end with an? ([\]}])$/u,
    (m) =>
      said('cli.config.yamlMsg.unclosed', {
        open: m[1] === ']' ? '[' : '{',
        close: m[1] as string,
      }),
  ],
  [
    /^Missing closing (["'])quote$/u,
    (m) => said('cli.config.yamlMsg.quote', { quote: m[1] as string }),
  ],
  [/^Missing , between flow (?:sequence|map) items$/u, plain('cli.config.yamlMsg.comma')],
  [/^Missing , or : between flow map items$/u, plain('cli.config.yamlMsg.commaOrColon')],
  [/^Implicit map keys need to be followed by map values$/u, plain('cli.config.yamlMsg.noValue')],
  [/^All mapping items must start at the same column$/u, plain('cli.config.yamlMsg.mapColumn')],
  [/^All sequence items must start at the same column$/u, plain('cli.config.yamlMsg.seqColumn')],
  [/^Sequence item without - indicator$/u, plain('cli.config.yamlMsg.noDash')],
  [
    // "… with reserved character @", "… with flow indicator character ,", "… with a tab character".
    /^Plain value cannot start with (?:a tab character|(?:.* )?(\S))$/u,
    (m) => said('cli.config.yamlMsg.plainStart', { char: m[1] ?? 'Tab' }),
  ],
  [
    /^Invalid escape sequence (.+)$/u,
    (m) => said('cli.config.yamlMsg.escape', { seq: m[1] as string }),
  ],
  [
    /^Comments must be separated from other tokens by white space characters$/u,
    plain('cli.config.yamlMsg.comment'),
  ],
  [
    /^Flow end indicator should be more indented than parent$/u,
    plain('cli.config.yamlMsg.flowEnd'),
  ],
];

/**
 * The catalogue message of a yaml parser message (its first line), or undefined for one this module does not know.
 */
export function yamlMessageSaid(message: string): Said | undefined {
  const first = message.split('\n')[0] ?? '';
  for (const [pattern, say] of KNOWN) {
    const m = pattern.exec(first);
    if (m) return say(m);
  }
  return undefined;
}
