// Turns raw query/path values and JSON bodies into typed values, or into one error code and a message naming the
// parameter and what it accepts. The first problem wins: a text not validly percent-encoded, unknown names, then
// repeated ones, then the parameters in the schema's order. Values are echoed (shortened) only for query parameters.
import type { z } from "zod";
import { DOMAINS, type Domain } from "./enums.ts";
import { redactSecrets } from "./errors.ts";
import { ruleOf } from "./param-fields.ts";
import {
  closestSubcategories,
  domainOfSubcategory,
  SUBCATEGORIES,
  SUBCATEGORIES_BY_DOMAIN,
} from "./taxonomy.ts";

/**
 * Set by the shim's query-string parser (api-shim/http/query-string.ts) on the parameters it parsed: the names whose
 * name or value is not validly percent-encoded UTF-8 (`q=%FF`), kept raw; they are refused, naming the first.
 */
export const BADLY_ENCODED: unique symbol = Symbol("badly percent-encoded parameters");

export type RawParams =
  | URLSearchParams
  | (Readonly<Record<string, string | readonly string[] | undefined>> & {
      readonly [BADLY_ENCODED]?: readonly string[];
    });
export type ParamErrorCode = "invalid_domain" | "invalid_parameter" | "missing_parameter";
export type ParseResult<T, C extends string = ParamErrorCode> =
  | { ok: true; value: T }
  | { ok: false; code: C; message: string };

const MAX_ECHO = 40;
const MAX_NAMES_LISTED = 5;

/** Validates query (or path) parameters against a strict object schema of param builders. */
export function parseParams<S extends z.ZodObject>(schema: S, raw: RawParams): ParseResult<z.output<S>> {
  const given = collect(raw);
  const allowed = Object.keys(schema.shape);
  const badly = raw instanceof URLSearchParams ? undefined : raw[BADLY_ENCODED]?.[0];
  if (badly !== undefined) {
    return fail(
      "invalid_parameter",
      `${/^[\w.-]+$/.test(badly) ? badly : show(badly)} is not validly percent-encoded: each %XX must be a byte of UTF-8 text (é is %C3%A9, a literal % is %25).`,
    );
  }
  const nameless = given.get("");
  if (nameless !== undefined) {
    return fail(
      "invalid_parameter",
      `A parameter has no name (${show(`=${nameless[0] ?? ""}`)}); name it: ${allowed.length > 0 ? `one of ${allowed.join(", ")}` : "this endpoint takes no parameters"}.`,
    );
  }
  const unknown = [...given.keys()].filter((name) => !allowed.includes(name));
  if (unknown.length > 0) return fail("invalid_parameter", unknownMessage("parameter", unknown, allowed));

  const input: Record<string, string> = {};
  for (const [name, values] of given) {
    if (values.length > 1)
      return fail("invalid_parameter", `${name} was given ${values.length} times; give it once.`);
    input[name] = values[0] ?? "";
    if (input[name].includes(NUL)) return fail("invalid_parameter", nulMessage("parameter", name));
    // spaces around a domain are never meant, as around a subcategory or a text (" rag" is "rag")
    const field = schema.shape[name] as z.ZodType | undefined;
    if (field && ruleOf(field)?.kind === "domain") input[name] = input[name].trim();
  }
  const result = schema.safeParse(input);
  if (result.success) {
    const foreign = foreignSubcategory(schema, result.data as Record<string, unknown>);
    return foreign === undefined ? { ok: true, value: result.data } : fail("invalid_parameter", foreign);
  }

  const name = firstIssueName(result.error.issues, allowed);
  const field = schema.shape[name] as z.ZodType | undefined;
  const rule = field ? ruleOf(field) : undefined;
  const must = rule ? rule.rule : "valid";
  const value = input[name];
  if (value === undefined) return fail("missing_parameter", `${name} is required and must be ${must}.`);
  if (rule?.kind === "domain") {
    const lower = value.trim().toLowerCase();
    const cased = (DOMAINS as readonly string[]).includes(lower) ? ` Domains are lower case: ${lower}.` : "";
    return fail(
      "invalid_domain",
      `${show(value)} is not a supported domain; ${name} must be ${must}.${cased}`,
    );
  }
  if (rule?.kind === "subcategory")
    return fail("invalid_parameter", unknownSubcategory(name, value, rule.domain ?? input.domain));
  // past the largest whole number JSON numbers carry exactly: say that bound, not the lower one
  if (rule?.kind === "integer" && /^\d+$/.test(value) && Number(value) > Number.MAX_SAFE_INTEGER) {
    return fail(
      "invalid_parameter",
      `${name} must be ${must}, and at most ${Number.MAX_SAFE_INTEGER} (the largest whole number the API counts to); got ${show(value)}.`,
    );
  }
  return fail("invalid_parameter", `${name} must be ${must}; got ${show(value)}.`);
}

/**
 * A subcategory of another domain than the one asked for (the request's domain, or the route's own) would match
 * nothing, whatever the data: refused, naming the domain it belongs to and the asked domain's own.
 */
function foreignSubcategory(schema: z.ZodObject, value: Record<string, unknown>): string | undefined {
  for (const name of Object.keys(schema.shape)) {
    const rule = ruleOf(schema.shape[name] as z.ZodType);
    const subcategory = value[name];
    if (rule?.kind !== "subcategory" || typeof subcategory !== "string") continue;
    const domain = rule.domain ?? value.domain;
    if (typeof domain !== "string" || !(DOMAINS as readonly string[]).includes(domain)) continue;
    const own = SUBCATEGORIES_BY_DOMAIN[domain as Domain];
    if (own.includes(subcategory)) continue;
    return `${show(subcategory)} is a subcategory of ${domainOfSubcategory(subcategory)}, not of ${domain}; ${name} must be one of: ${own.join(", ")}.`;
  }
  return undefined;
}

/** Names the domain's subcategories when the request gives a domain, else the closest ones. */
function unknownSubcategory(name: string, value: string, domain: string | undefined): string {
  const known = (DOMAINS as readonly string[]).includes(domain ?? "") ? (domain as Domain) : undefined;
  const intro = `${show(value)} is not a subcategory`;
  if (known) {
    const own = SUBCATEGORIES_BY_DOMAIN[known];
    return `${intro} of ${known}; ${name} must be one of: ${own.join(", ")}.`;
  }
  const closest = closestSubcategories(value.trim());
  const hint = closest.length > 0 ? ` Did you mean ${closest.join(" or ")}?` : "";
  const owner = domainOfSubcategory(value.trim().toLowerCase());
  const cased = owner ? ` Subcategories are lower case: ${value.trim().toLowerCase()} (of ${owner}).` : "";
  return `${intro}; ${name} must be one of the ${SUBCATEGORIES.length} subcategories of the taxonomy (each domain's are listed by /api/v1/methodology).${cased || hint}`;
}

/** Validates a parsed JSON body. A missing body (undefined or "") is read as {}; values are never echoed. */
export function parseBody<S extends z.ZodObject>(
  schema: S,
  body: unknown,
): ParseResult<z.output<S>, "invalid_body"> {
  const input = body === undefined || body === "" ? {} : body;
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return fail("invalid_body", "The request body must be a JSON object.");
  }
  const allowed = Object.keys(schema.shape);
  const unknown = Object.keys(input).filter((name) => !allowed.includes(name));
  if (unknown.length > 0) return fail("invalid_body", unknownMessage("field", unknown, allowed));
  const withNul = Object.entries(input).find(([, value]) => holdsNul(value));
  if (withNul) return fail("invalid_body", nulMessage("field", withNul[0]));

  const result = schema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const name = firstIssueName(result.error.issues, allowed);
  const field = schema.shape[name] as z.ZodType | undefined;
  const must = (field && ruleOf(field)?.rule) ?? "valid";
  const missing = (input as Record<string, unknown>)[name] === undefined;
  return fail(
    "invalid_body",
    missing ? `${name} is required and must be ${must}.` : `${name} must be ${must}.`,
  );
}

/** NUL (U+0000): no parameter or field takes it (it ends strings in C code and log tools, and hides what follows). */
const NUL = "\u0000";

function nulMessage(what: "parameter" | "field", name: string): string {
  return `${name} contains a NUL character (%00, \\u0000), which no ${what} accepts; remove it.`;
}

/** A string holding NUL, or an array or object with one anywhere inside. */
function holdsNul(value: unknown): boolean {
  if (typeof value === "string") return value.includes(NUL);
  if (Array.isArray(value)) return value.some(holdsNul);
  if (value !== null && typeof value === "object") return Object.values(value).some(holdsNul);
  return false;
}

function fail<C extends string>(code: C, message: string): { ok: false; code: C; message: string } {
  return { ok: false, code, message: redactSecrets(message) };
}

/** Name → every value given for it, in arrival order. */
function collect(raw: RawParams): Map<string, string[]> {
  const given = new Map<string, string[]>();
  const add = (name: string, value: string) => given.set(name, [...(given.get(name) ?? []), value]);
  if (raw instanceof URLSearchParams) {
    for (const [name, value] of raw) add(name, value);
    return given;
  }
  for (const name of Object.keys(raw)) {
    const value = raw[name];
    if (value === undefined) continue;
    if (typeof value === "string") add(name, value);
    else for (const v of value) add(name, v);
  }
  return given;
}

/** The parameter of the issue that comes first in the schema's order (object-level issues last). */
function firstIssueName(issues: readonly z.core.$ZodIssue[], allowed: readonly string[]): string {
  const rank = (issue: z.core.$ZodIssue) => {
    const index = allowed.indexOf(String(issue.path[0]));
    return index === -1 ? allowed.length : index;
  };
  const first = [...issues].sort((a, b) => rank(a) - rank(b))[0];
  return String(first?.path[0] ?? allowed[0] ?? "");
}

function unknownMessage(what: string, unknown: readonly string[], allowed: readonly string[]): string {
  const listed = unknown.slice(0, MAX_NAMES_LISTED).map(show).join(", ");
  const more = unknown.length > MAX_NAMES_LISTED ? ` and ${unknown.length - MAX_NAMES_LISTED} more` : "";
  const head = `Unknown ${what}${unknown.length > 1 ? "s" : ""} ${listed}${more}`;
  if (allowed.length === 0) return `${head}; this endpoint takes no ${what}s.`;
  return `${head}; allowed: ${allowed.join(", ")}.`;
}

/** A caller-supplied text, quoted and shortened so messages stay short and never carry much input. */
function show(text: string): string {
  if (text === "") return "an empty value";
  const short = text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}…` : text;
  return JSON.stringify(short);
}
