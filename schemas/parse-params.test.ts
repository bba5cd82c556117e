// parseParams / parseBody: which error code each failure gets, and the exact message the caller reads.
import { describe, expect, it } from "vitest";
import { createKeyBody, feedbackBody, queryBody } from "./bodies.ts";
import { DOMAINS } from "./enums.ts";
import {
  mcpScoresParams,
  noParams,
  projectPathParams,
  projectsParams,
  qualityLookupPathParams,
  qualityParams,
  slugPathParams,
  trendingParams,
} from "./params.ts";
import { BADLY_ENCODED, parseBody, parseParams } from "./parse-params.ts";
import { SUBCATEGORIES, SUBCATEGORIES_BY_DOMAIN } from "./taxonomy.ts";

const allDomains = DOMAINS.join(", ");
const quality = (query: Record<string, string | string[]>) => parseParams(qualityParams, query);

describe("parseParams error codes and messages", () => {
  it("reports a missing required domain as missing_parameter, listing the values", () => {
    expect(quality({ limit: "5" })).toEqual({
      ok: false,
      code: "missing_parameter",
      message: `domain is required and must be one of: ${allDomains}.`,
    });
  });

  it("reports an unknown domain as invalid_domain, naming the value and listing the 30", () => {
    expect(quality({ domain: "crypto" })).toEqual({
      ok: false,
      code: "invalid_domain",
      message: `"crypto" is not a supported domain; domain must be one of: ${allDomains}.`,
    });
    expect(parseParams(projectsParams, { domain: "Agents" })).toMatchObject({
      ok: false,
      code: "invalid_domain",
    });
    expect(quality({ domain: "" })).toMatchObject({
      code: "invalid_domain",
      message: `an empty value is not a supported domain; domain must be one of: ${allDomains}.`,
    });
  });

  it.each(["12abc", "1.5", "", "+5", " 5", "5 ", "1e2", "0x10", "Infinity", "NaN", "٣"])(
    "rejects limit=%j instead of reading a number out of it",
    (limit) => {
      expect(quality({ domain: "mcp", limit })).toMatchObject({ ok: false, code: "invalid_parameter" });
    },
  );

  it("names the parameter, the allowed range and the value", () => {
    expect(quality({ domain: "mcp", limit: "501" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: 'limit must be an integer from 1 to 500; got "501".',
    });
    expect(quality({ domain: "mcp", limit: "" })).toMatchObject({
      message: "limit must be an integer from 1 to 500; got an empty value.",
    });
    expect(quality({ domain: "mcp", offset: "-1" })).toMatchObject({
      message: 'offset must be an integer of at least 0; got "-1".',
    });
    expect(quality({ domain: "mcp", quality_tier: "gold" })).toMatchObject({
      message: 'quality_tier must be one of: verified, established, emerging, experimental; got "gold".',
    });
    expect(parseParams(projectsParams, { q: "x".repeat(101) })).toMatchObject({
      message: `q must be a non-empty text of at most 100 characters; got "${"x".repeat(40)}…".`,
    });
  });

  it("reads leading zeros and -0 as plain integers", () => {
    expect(quality({ domain: "mcp", limit: "007", offset: "-0" })).toEqual({
      ok: true,
      value: { domain: "mcp", limit: 7, offset: 0 },
    });
  });

  it("rejects unknown parameters first, naming them and the allowed ones", () => {
    expect(quality({ domain: "nope", limt: "5" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message:
        'Unknown parameter "limt"; allowed: domain, subcategory, quality_tier, min_score, limit, offset.',
    });
    const many = { a: "1", b: "1", c: "1", d: "1", e: "1", f: "1", g: "1" };
    expect(parseParams(noParams, many)).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: 'Unknown parameters "a", "b", "c", "d", "e" and 2 more; this endpoint takes no parameters.',
    });
  });

  it("rejects a parameter given twice", () => {
    expect(quality({ domain: "mcp", limit: ["5", "6"] })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: "limit was given 2 times; give it once.",
    });
    expect(parseParams(qualityParams, new URLSearchParams("domain=mcp&domain=rag"))).toMatchObject({
      message: "domain was given 2 times; give it once.",
    });
  });

  it("reports the first bad parameter in the endpoint's order", () => {
    expect(quality({ offset: "x", limit: "0", domain: "mcp" })).toMatchObject({
      message: 'limit must be an integer from 1 to 500; got "0".',
    });
  });

  it("accepts URLSearchParams", () => {
    expect(parseParams(qualityParams, new URLSearchParams("domain=rag&min_score=60"))).toEqual({
      ok: true,
      value: { domain: "rag", min_score: 60, limit: 50, offset: 0 },
    });
  });

  it("never echoes an API key or an e-mail address", () => {
    const key = `pis_${"Zx9".repeat(12)}`;
    const byKey = quality({ domain: key });
    expect(JSON.stringify(byKey)).not.toContain(key.slice(4));
    expect(parseParams(noParams, { [key]: "1" })).toMatchObject({
      message: 'Unknown parameter "pis_…"; this endpoint takes no parameters.',
    });
    expect(parseParams(projectsParams, { q: "me@example.com" })).toMatchObject({ ok: true });
    expect(quality({ domain: "me@example.com" })).toMatchObject({
      message: `"<e-mail>" is not a supported domain; domain must be one of: ${allDomains}.`,
    });
  });
});

describe("path parameters", () => {
  it("takes a slug or owner/repo and maps a bad domain to invalid_domain", () => {
    expect(parseParams(projectPathParams, { slug: "acme/toolhub" })).toEqual({
      ok: true,
      value: { slug: "acme/toolhub" },
    });
    expect(parseParams(qualityLookupPathParams, { domain: "rag", repo: "toolhub" })).toMatchObject({
      ok: true,
    });
    expect(parseParams(qualityLookupPathParams, { domain: "x", repo: "toolhub" })).toMatchObject({
      code: "invalid_domain",
    });
    expect(parseParams(slugPathParams, { slug: "../etc" })).toMatchObject({ code: "invalid_parameter" });
    expect(parseParams(slugPathParams, { slug: "a/b" })).toMatchObject({ code: "invalid_parameter" });
  });

  it("trims a domain, in the path as in the query, as it trims a subcategory or a text", () => {
    expect(parseParams(qualityLookupPathParams, { domain: " rag ", repo: "toolhub" })).toEqual({
      ok: true,
      value: { domain: "rag", repo: "toolhub" },
    });
    expect(quality({ domain: "\trag ", subcategory: " graph-rag" })).toMatchObject({
      ok: true,
      value: { domain: "rag", subcategory: "graph-rag" },
    });
    // trimmed first, so the message names what is left
    expect(quality({ domain: " RAG" })).toEqual({
      ok: false,
      code: "invalid_domain",
      message: `"RAG" is not a supported domain; domain must be one of: ${allDomains}. Domains are lower case: rag.`,
    });
  });
});

describe("values the query-string parser could not decode", () => {
  const how =
    "is not validly percent-encoded: each %XX must be a byte of UTF-8 text (é is %C3%A9, a literal % is %25).";

  it("refuses the first, naming its parameter, before any other problem", () => {
    const raw = { q: "%FF", limit: "x", [BADLY_ENCODED]: ["q"] };
    expect(parseParams(projectsParams, raw)).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: `q ${how}`,
    });
    const name = { "%FF": "1", [BADLY_ENCODED]: ["%FF"] };
    expect(parseParams(projectsParams, name)).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: `"%FF" ${how}`,
    });
  });
});

describe("a route whose domain is fixed (/api/v1/mcp/scores)", () => {
  it("names the domain's own subcategories for an unknown one, as a route given the domain does", () => {
    const own = `"x" is not a subcategory of mcp; subcategory must be one of: ${SUBCATEGORIES_BY_DOMAIN.mcp.join(", ")}.`;
    expect(parseParams(mcpScoresParams, { subcategory: "x" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: own,
    });
    expect(quality({ domain: "mcp", subcategory: "x" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: own,
    });
  });
});

describe("a subcategory of another domain", () => {
  it("is refused, naming the domain it belongs to and the asked domain's own, on every route that filters by it", () => {
    const rag = SUBCATEGORIES_BY_DOMAIN.rag.join(", ");
    expect(quality({ domain: "rag", subcategory: " mcp-servers" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: `"mcp-servers" is a subcategory of mcp, not of rag; subcategory must be one of: ${rag}.`,
    });
    expect(parseParams(mcpScoresParams, { subcategory: "graph-rag" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: `"graph-rag" is a subcategory of rag, not of mcp; subcategory must be one of: ${SUBCATEGORIES_BY_DOMAIN.mcp.join(", ")}.`,
    });
    expect(parseParams(trendingParams, { domain: "rag", category: "mcp-servers" })).toEqual({
      ok: false,
      code: "invalid_parameter",
      message: `"mcp-servers" is a subcategory of mcp, not of rag; category must be one of: ${rag}.`,
    });
  });

  it("is a filter like any other without a domain, and every subcategory of the domain is accepted", () => {
    expect(parseParams(trendingParams, { category: "mcp-servers" })).toMatchObject({ ok: true });
    for (const domain of DOMAINS)
      for (const subcategory of SUBCATEGORIES_BY_DOMAIN[domain])
        expect(quality({ domain, subcategory })).toMatchObject({ ok: true, value: { domain, subcategory } });
  });

  it("belongs to one domain only (the taxonomy names no subcategory twice)", () => {
    expect(new Set(SUBCATEGORIES).size).toBe(SUBCATEGORIES.length);
  });
});

describe("parseBody", () => {
  it("treats a missing body of POST /keys as {}", () => {
    expect(parseBody(createKeyBody, undefined)).toEqual({ ok: true, value: {} });
    expect(parseBody(createKeyBody, "")).toEqual({ ok: true, value: {} });
    expect(parseBody(createKeyBody, {})).toEqual({ ok: true, value: {} });
  });

  it("accepts e-mail and company, trimming the company", () => {
    expect(parseBody(createKeyBody, { email: "dev@example.com", company: "  Acme " })).toEqual({
      ok: true,
      value: { email: "dev@example.com", company: "Acme" },
    });
  });

  it("rejects a bad e-mail without echoing it", () => {
    expect(parseBody(createKeyBody, { email: "dev@example" })).toEqual({
      ok: false,
      code: "invalid_body",
      message: "email must be a valid e-mail address of at most 254 characters.",
    });
  });

  it("rejects non-objects, unknown fields and missing required fields", () => {
    for (const body of [null, [], "text", 3]) {
      expect(parseBody(createKeyBody, body)).toEqual({
        ok: false,
        code: "invalid_body",
        message: "The request body must be a JSON object.",
      });
    }
    expect(parseBody(createKeyBody, { mail: "x" })).toEqual({
      ok: false,
      code: "invalid_body",
      message: 'Unknown field "mail"; allowed: email, company.',
    });
    expect(parseBody(queryBody, undefined)).toEqual({
      ok: false,
      code: "invalid_body",
      message: "sql is required and must be a non-empty text of at most 10000 characters.",
    });
    expect(parseBody(feedbackBody, { kind: "bug", message: " " })).toMatchObject({
      message: "message must be a non-empty text of at most 4000 characters.",
    });
  });

  it("does not echo SQL text", () => {
    const sql = `SELECT '${"x".repeat(10_000)}'`;
    const result = parseBody(queryBody, { sql });
    expect(result).toEqual({
      ok: false,
      code: "invalid_body",
      message: "sql must be a non-empty text of at most 10000 characters.",
    });
  });
});
