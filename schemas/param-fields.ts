// Builders for request parameters. Query values arrive as text, so integers are zod codecs from a strict
// digits-only string ("12abc", "1.5", "" fail) to a bounded integer; JSON Schema (io "output") sees the integer.
// Each builder records the rule in words, so parse errors can name the allowed range or values.
import { z } from "zod";
import { DOMAINS, type Domain } from "./enums.ts";
import { MAX_SLUG_LENGTH, PROJECT_REF_PATTERN, SLUG_PATTERN, slugOf } from "./fields.ts";
import { SUBCATEGORIES } from "./taxonomy.ts";

export type ParamKind =
  | "integer"
  | "enum"
  | "domain"
  | "subcategory"
  | "text"
  | "list"
  | "ref"
  | "slug"
  | "email";

export interface ParamRule {
  kind: ParamKind;
  /** What a valid value is, completing "<name> must be …", e.g. "an integer from 1 to 500". */
  rule: string;
  /** A subcategory of a route whose domain is fixed (/api/v1/mcp/scores): an unknown one is refused naming its own. */
  domain?: Domain;
}

// Keyed by the schema's def, not the instance: .describe() and .meta() return clones sharing the def, so
// the rule survives them. Kept out of zod's global registry so the JSON Schema output is unaffected.
const rules = new WeakMap<object, ParamRule>();

/** The rule recorded for a parameter schema, looking through .optional() and .default() wrappers. */
export function ruleOf(schema: z.ZodType): ParamRule | undefined {
  let current: z.ZodType | undefined = schema;
  while (current !== undefined) {
    const found = rules.get(current.def);
    if (found) return found;
    current = (current.def as { innerType?: z.ZodType }).innerType;
  }
  return undefined;
}

export function withRule<T extends z.ZodType>(schema: T, kind: ParamKind, rule: string, domain?: Domain): T {
  rules.set(schema.def, domain === undefined ? { kind, rule } : { kind, rule, domain });
  return schema;
}

// Optional minus sign then digits only: no "+", spaces, decimals, exponents or hex. Leading zeros are
// accepted ("007" is unambiguous); "-0" becomes 0.
const INTEGER_TEXT = /^-?\d+$/;

/** A query integer within [min, max] (max omitted: any safe integer ≥ min). */
export function intParam(min: number, max?: number) {
  const bounded = max === undefined ? z.int().min(min) : z.int().min(min).max(max);
  const codec = z.codec(z.string().regex(INTEGER_TEXT), bounded, {
    decode: (text) => Number(text) + 0,
    encode: (n) => String(n),
  });
  const rule = max === undefined ? `an integer of at least ${min}` : `an integer from ${min} to ${max}`;
  return withRule(codec, "integer", rule);
}

/** One of a fixed list of values (case-sensitive). */
export function enumParam<const T extends readonly [string, ...string[]]>(values: T) {
  return withRule(z.enum(values), "enum", `one of: ${values.join(", ")}`);
}

/** A domain; a bad value is reported as invalid_domain rather than invalid_parameter. */
export function domainParam() {
  return withRule(z.enum(DOMAINS), "domain", `one of: ${DOMAINS.join(", ")}`);
}

/**
 * A subcategory of the taxonomy (data/taxonomy.json), trimmed; an unknown one is refused naming the closest ones or
 * the domain's own (parse-params.ts), as an unknown domain is: the request's domain parameter, or `domain` for a route
 * whose domain is fixed.
 */
export function subcategoryParam(domain?: Domain) {
  return withRule(
    z
      .string()
      .trim()
      .pipe(z.enum(SUBCATEGORIES as [string, ...string[]])),
    "subcategory",
    `one of the ${SUBCATEGORIES.length} subcategories of the taxonomy (each domain's are listed by /api/v1/methodology)`,
    domain,
  );
}

/** Free text of 1 to maxLength characters (an empty value is rejected: omit the parameter instead). */
export function textParam(maxLength: number) {
  return withRule(
    // spaces around a text are never meant ("rag " is "rag")
    z.string().trim().min(1).max(maxLength),
    "text",
    `a non-empty text of at most ${maxLength} characters`,
  );
}

/** A slug (of a lab or a briefing): one URL path segment. */
export function slugParam() {
  return withRule(
    z.string().max(MAX_SLUG_LENGTH).regex(SLUG_PATTERN),
    "slug",
    `a slug of letters, digits, ".", "_", "~" and "-", at most ${MAX_SLUG_LENGTH} characters`,
  );
}

/** A project slug or owner/repo, as in /api/v1/projects/{slug}. */
export function projectRefParam() {
  return withRule(
    z.string().max(MAX_SLUG_LENGTH).regex(PROJECT_REF_PATTERN),
    "ref",
    `a project slug or owner/repo of at most ${MAX_SLUG_LENGTH} characters`,
  );
}

/**
 * A comma-separated list of 1 to max project references naming distinct projects: `slugs=a,b,owner/c`. Distinct by
 * slug, so owner/repo, Owner/Repo and owner--repo are one project named twice.
 */
export function projectRefListParam(max: number, min = 1) {
  const items = z
    .array(z.string().max(MAX_SLUG_LENGTH).regex(PROJECT_REF_PATTERN))
    .min(min)
    .max(max)
    .refine((list) => new Set(list.map(slugOf)).size === list.length, { message: "duplicate project" });
  const codec = z.codec(z.string(), items, {
    decode: (text) => text.split(","),
    encode: (list) => list.join(","),
  });
  return withRule(
    codec,
    "list",
    `a comma-separated list of ${min} to ${max} distinct project slugs or owner/repo names`,
  );
}
