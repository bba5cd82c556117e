// The route table's schemas, as the OpenAPI document needs them: every endpoint of the spec is a route, every
// parameter, body and response schema converts to JSON Schema (parameters strict, each with a rule its errors can
// name), and the request bodies require what they must.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  bodyJsonSchema,
  type JsonSchema,
  paramsJsonSchema,
  responseJsonSchema,
  ruleOf,
} from "../../schemas/index.ts";
import type { RouteSpec } from "../route-spec.ts";
import { feedbackRoute } from "./feedback.ts";
import { ROUTES } from "./index.ts";
import { keysRoute } from "./keys.ts";
import { methodologyRoute } from "./methodology.ts";
import { queryRoute } from "./query.ts";
import { statusRoute } from "./status.ts";
import { tablesRoute } from "./tables.ts";
import { workflowsRoute } from "./workflows.ts";

/** The endpoints SPEC.md names, each of which the route table must answer. */
const SPEC_ENDPOINTS = [
  "GET /api/v1/briefings",
  "GET /api/v1/briefings/{slug}",
  "GET /api/v1/contributors/trending",
  "GET /api/v1/datasets/quality",
  "GET /api/v1/dependencies/trending",
  "GET /api/v1/hn",
  "GET /api/v1/labs/{slug}",
  "GET /api/v1/mcp/scores",
  "GET /api/v1/methodology",
  "GET /api/v1/papers",
  "GET /api/v1/projects",
  "GET /api/v1/projects/bulk",
  "GET /api/v1/projects/{slug}",
  "GET /api/v1/quality",
  "GET /api/v1/quality/{domain}/{repo}",
  "GET /api/v1/status",
  "GET /api/v1/tables",
  "GET /api/v1/transitions",
  "GET /api/v1/trending",
  "GET /api/v1/velocity",
  "GET /api/v1/whats-new",
  "GET /api/v1/workflows",
  "POST /api/v1/feedback",
  "POST /api/v1/keys",
  "POST /api/v1/query",
];

/** The schema of a route's response data (a record, a document, a dynamic answer), when it declares one. */
function dataSchema(route: RouteSpec): z.ZodType | undefined {
  if (route.kind === "dynamic") return route.response;
  if (route.kind === "file") return route.schema;
  return route.collection.record;
}

/** Paths of the object properties in a JSON Schema that carry no description. */
function undescribed(schema: JsonSchema, at = "$"): string[] {
  const out: string[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const child = property as JsonSchema;
    if (typeof child.description !== "string" || child.description === "") out.push(`${at}.${name}`);
    out.push(...undescribed(child, `${at}.${name}`));
  }
  const items = schema.items as JsonSchema | undefined;
  if (items && typeof items === "object") out.push(...undescribed(items, `${at}[]`));
  for (const option of (schema.anyOf ?? []) as JsonSchema[]) out.push(...undescribed(option, at));
  for (const [i, item] of ((schema.prefixItems ?? []) as JsonSchema[]).entries()) {
    out.push(...undescribed(item, `${at}[${i}]`));
  }
  return out;
}

describe("the route table's schemas", () => {
  it("answers every endpoint of the spec, and only the spec's POST endpoints", () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(keys).toEqual(expect.arrayContaining(SPEC_ENDPOINTS));
    expect(keys.filter((k) => k.startsWith("POST ")).sort()).toEqual(
      SPEC_ENDPOINTS.filter((k) => k.startsWith("POST ")),
    );
  });

  it.each(ROUTES.map((r) => [r.name, r] as const))(
    "%s: parameters convert, strict, each with its rule",
    (_name, route) => {
      for (const schema of [route.query, route.pathParams]) {
        if (!schema) continue;
        const json = paramsJsonSchema(schema);
        expect(json.type).toBe("object");
        expect(json.additionalProperties).toBe(false);
        for (const [name, field] of Object.entries(schema.shape)) {
          expect([name, (ruleOf(field as z.ZodType)?.rule.length ?? 0) > 0]).toEqual([name, true]);
        }
        // The raw (input) side converts too: integers show as digit strings.
        expect(() => z.toJSONSchema(schema, { io: "input" })).not.toThrow();
      }
      // examples name parameters of the route (the dataset file's names its path parameter)
      const names = [...Object.keys(route.query.shape), ...Object.keys(route.pathParams?.shape ?? {})];
      for (const name of Object.keys(route.examples ?? {})) expect(names).toContain(name);
    },
  );

  it.each(ROUTES.map((r) => [r.name, r] as const))("%s: the response data converts", (_name, route) => {
    const schema = dataSchema(route);
    if (schema) expect(() => responseJsonSchema(schema)).not.toThrow();
  });

  it("describes every field of the orientation documents and the POST answers", () => {
    const routes = [
      statusRoute,
      tablesRoute,
      workflowsRoute,
      methodologyRoute,
      keysRoute,
      queryRoute,
      feedbackRoute,
    ];
    for (const route of routes) {
      const json = responseJsonSchema(dataSchema(route) as z.ZodType);
      expect([route.name, json.additionalProperties, undescribed(json)]).toEqual([route.name, false, []]);
    }
    expect(undescribed(responseJsonSchema(queryRoute.meta as z.ZodType))).toEqual([]);
  });

  it("converts the request bodies: the key body all optional, query and feedback requiring their text", () => {
    const key = bodyJsonSchema(keysRoute.body as z.ZodType);
    expect(Object.keys(key.properties ?? {})).toEqual(["email", "company"]);
    expect(key.required).toBeUndefined();
    expect(keysRoute.bodyOptional).toBe(true);
    expect(bodyJsonSchema(queryRoute.body as z.ZodType).required).toEqual(["sql"]);
    expect(bodyJsonSchema(feedbackRoute.body as z.ZodType).required).toEqual(["kind", "message"]);
    expect([queryRoute.bodyOptional, feedbackRoute.bodyOptional]).toEqual([false, false]);
  });
});
