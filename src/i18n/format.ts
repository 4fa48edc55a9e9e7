/**
 * @module i18n/format
 * The message syntax of the catalogue, a small subset of ICU MessageFormat
 * (https://unicode-org.github.io/icu/userguide/format_parse/messages/):
 * - `{name}`: the parameter `name` (a string, or a number written as it is);
 * - `{n, plural, =0 {none} one {# day} other {# days}}`: a branch chosen by the number `n` (an exact `=N` first,
 *   then the locale's plural category from `Intl.PluralRules`, else `other`); `#` in the branch is `n`.
 * Braces are literal only inside a parameter's branch text; the catalogue has no quoting (no `'{'`).
 */

/** A parameter value; {@link Html} is inserted unescaped by the HTML formatter. */
export type ParamValue = string | number | Html;
/** Parameters of one message, by placeholder name. */
export type Params = Readonly<Record<string, ParamValue>>;

/** Markup already escaped by its producer, inserted as it is into an HTML message. */
export class Html {
  readonly html: string;
  // No parameter property: worker threads load this file with Node's type stripping, which has none.
  constructor(html: string) {
    this.html = html;
  }
}

/** One placeholder of a message: its name and, for a plural, its branches. */
interface Placeholder {
  readonly name: string;
  readonly branches?: ReadonlyMap<string, string>;
}

/** The index just after the `}` that closes the `{` at `open`; throws when it is never closed. */
function closing(msg: string, open: number): number {
  let depth = 0;
  for (let i = open; i < msg.length; i++) {
    if (msg[i] === '{') depth++;
    else if (msg[i] === '}' && --depth === 0) return i + 1;
  }
  throw new Error(`unclosed "{" at ${open} in message ${JSON.stringify(msg)}`);
}

/** The placeholder written between braces (`inner` without them). */
function placeholder(inner: string, msg: string): Placeholder {
  const comma = inner.indexOf(',');
  if (comma < 0) return { name: inner.trim() };
  const name = inner.slice(0, comma).trim();
  const rest = inner.slice(comma + 1);
  const kind = /^\s*plural\s*,/.exec(rest);
  if (!kind)
    throw new Error(`only {name} and {name, plural, …} are known, in ${JSON.stringify(msg)}`);
  const body = rest.slice(kind[0].length);
  const branches = new Map<string, string>();
  let i = 0;
  while (i < body.length) {
    const sel = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/.exec(body.slice(i));
    if (!sel) {
      if (body.slice(i).trim() === '') break;
      throw new Error(
        `bad plural branch near ${JSON.stringify(body.slice(i))} in ${JSON.stringify(msg)}`,
      );
    }
    const open = i + sel[0].length - 1;
    const end = closing(body, open);
    branches.set(sel[1] as string, body.slice(open + 1, end - 1));
    i = end;
  }
  if (!branches.has('other')) throw new Error(`plural without "other" in ${JSON.stringify(msg)}`);
  return { name, branches };
}

/** The pieces of a message: literal text and placeholders, in order. */
function pieces(msg: string): (string | Placeholder)[] {
  const out: (string | Placeholder)[] = [];
  let i = 0;
  while (i < msg.length) {
    const open = msg.indexOf('{', i);
    if (open < 0) {
      out.push(msg.slice(i));
      break;
    }
    if (open > i) out.push(msg.slice(i, open));
    const end = closing(msg, open);
    out.push(placeholder(msg.slice(open + 1, end - 1), msg));
    i = end;
  }
  return out;
}

/**
 * The names of the placeholders of `msg`, those inside plural branches included, sorted and without repeats
 * (for the catalogue test: both languages of a key take the same parameters).
 */
export function placeholderNames(msg: string): string[] {
  const names = new Set<string>();
  const walk = (m: string) => {
    for (const p of pieces(m))
      if (typeof p !== 'string') {
        names.add(p.name);
        for (const b of p.branches?.values() ?? []) walk(b);
      }
  };
  walk(msg);
  return [...names].sort();
}

/**
 * `msg` with its placeholders filled from `params` (see the module comment); `escapeText` is applied to the
 * literal text and to string and number parameters (an {@link Html} parameter is inserted as it is). Throws naming `key`
 * and the parameter when one is missing, or a plural's parameter is not a number.
 */
export function formatMessage(
  locale: string,
  key: string,
  msg: string,
  params: Params,
  escapeText: (s: string) => string = (s) => s,
): string {
  const value = (name: string): ParamValue => {
    const v = params[name];
    if (v === undefined)
      throw new Error(`message "${key}" (${locale}) needs the parameter "${name}"`);
    return v;
  };
  const put = (v: ParamValue) => (v instanceof Html ? v.html : escapeText(String(v)));
  const fill = (m: string, hash?: number): string =>
    pieces(m)
      .map((p) => {
        if (typeof p === 'string')
          return escapeText(hash === undefined ? p : p.replaceAll('#', String(hash)));
        const v = value(p.name);
        if (!p.branches) return put(v);
        if (typeof v !== 'number')
          throw new Error(
            `message "${key}" (${locale}): "${p.name}" chooses a plural, give a number`,
          );
        const branch =
          p.branches.get(`=${v}`) ??
          p.branches.get(new Intl.PluralRules(locale).select(v)) ??
          (p.branches.get('other') as string);
        return fill(branch, v);
      })
      .join('');
  return fill(msg);
}
