/**
 * @module config/wrong-variant
 * The other problems of an entry whose kind is wrong. zod checks a discriminated union's entry (a model of
 * config/models.yaml, told by its `provider:`) only against the option its discriminator names, so an entry whose
 * `provider:` is misspelt or missing gets that one issue and none of its other problems: fixing `provider:` would
 * then show the next ones, a round per fix. {@link wrongVariantIssues} checks such an entry against every option
 * at once: each key it writes is checked as the first option that has that key checks it (so `file:` of a recorded
 * model and `base_url:` of an OpenAI-compatible one are both taken), a key no option has is unknown. What the
 * discriminator alone decides (which keys are required) is not asked.
 */
import { z } from 'zod';

/** The schema that checks the value at `path` inside `schema`: objects by key, arrays at any index, wrappers opened. */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let at: z.ZodType = schema;
  for (let depth = 0; ; ) {
    if (
      at instanceof z.ZodDefault ||
      at instanceof z.ZodPrefault ||
      at instanceof z.ZodOptional ||
      at instanceof z.ZodNullable ||
      at instanceof z.ZodReadonly
    ) {
      at = at.unwrap() as z.ZodType;
    } else if (depth === path.length) {
      return at;
    } else if (at instanceof z.ZodObject) {
      const next = (at.shape as Record<string, z.ZodType>)[String(path[depth])];
      if (next === undefined) return undefined;
      at = next;
      depth++;
    } else if (at instanceof z.ZodArray) {
      at = at.element as z.ZodType;
      depth++;
    } else {
      return undefined;
    }
  }
}

/**
 * A schema of every option of `union` at once (see the module comment): every key optional, checked by the first
 * option that has it; the discriminator any value; unknown keys refused when every option refuses them.
 */
function anyOption(union: z.ZodDiscriminatedUnion): z.ZodType {
  const shape: Record<string, z.ZodType> = {};
  let strict = true;
  for (const option of union.options as readonly z.ZodType[]) {
    if (!(option instanceof z.ZodObject)) continue;
    if (!(option._zod.def.catchall instanceof z.ZodNever)) strict = false;
    for (const [key, s] of Object.entries(option.shape as Record<string, z.ZodType>))
      shape[key] ??= s.optional();
  }
  shape[union._zod.def.discriminator] = z.unknown().optional();
  return strict ? z.strictObject(shape) : z.looseObject(shape);
}

/** The value at `path` inside `data`, or undefined. */
function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  return path.reduce<unknown>(
    (o, k) =>
      o !== null && typeof o === 'object' ? (o as Record<PropertyKey, unknown>)[k] : undefined,
    data,
  );
}

/**
 * The issues of each entry of `data` that `issues` refuse for its discriminator alone (zod's `invalid_union` with a
 * `discriminator`: a misspelt or missing `provider:`), found by checking the entry against every option of its
 * union at once (see the module comment), their paths from the top of `data`. Empty when there is no such issue.
 * @param schema the schema `data` was parsed with.
 * @param parseOptions the options of that parse (i18n/zod.ts `zodParseOptions`: the reader's language).
 */
export function wrongVariantIssues(
  schema: z.ZodType,
  data: unknown,
  issues: readonly z.core.$ZodIssue[],
  parseOptions: z.core.ParseContext<z.core.$ZodIssue>,
): z.core.$ZodIssue[] {
  return issues.flatMap((issue) => {
    if (issue.code !== 'invalid_union' || !('discriminator' in issue) || !issue.discriminator)
      return [];
    const entry = issue.path.slice(0, -1);
    const union = schemaAt(schema, entry);
    if (!(union instanceof z.ZodDiscriminatedUnion)) return [];
    const r = anyOption(union).safeParse(valueAt(data, entry), parseOptions);
    return r.success ? [] : r.error.issues.map((i) => ({ ...i, path: [...entry, ...i.path] }));
  });
}
