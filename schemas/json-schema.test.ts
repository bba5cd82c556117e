// Every parameter, body and response schema converts to JSON Schema, as the OpenAPI generator needs.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ENDPOINTS } from "./endpoints.ts";
import { DOMAINS } from "./enums.ts";
import { itemEnvelope, listEnvelope } from "./envelope.ts";
import { errorBodySchema } from "./errors.ts";
import { bodyJsonSchema, openApiParameters, paramsJsonSchema, responseJsonSchema } from "./json-schema.ts";
import { ruleOf } from "./param-fields.ts";
import { projectsBulkParams, qualityLookupPathParams, trendingParams } from "./params.ts";
import { projectDetailSchema } from "./project-detail.ts";
import {
  apiKeyRecordSchema,
  projectSummarySchema,
  qualityRecordSchema,
  trendingRecordSchema,
} from "./records.ts";

const endpoints = Object.entries(ENDPOINTS);

it("covers every endpoint of the spec", () => {
  expect(Object.keys(ENDPOINTS).sort()).toEqual([
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
  ]);
});

describe("parameter schemas", () => {
  it.each(endpoints)("%s converts, strict, with decoded types", (_route, schemas) => {
    for (const schema of [schemas.query, "path" in schemas ? schemas.path : undefined]) {
      if (!schema) continue;
      const json = paramsJsonSchema(schema);
      expect(json.type).toBe("object");
      expect(json.additionalProperties).toBe(false);
      for (const [name, field] of Object.entries(schema.shape)) {
        // Every parameter was built with a rule, so its errors can say what is allowed.
        expect([name, (ruleOf(field as z.ZodType)?.rule.length ?? 0) > 0]).toEqual([name, true]);
      }
      // The raw (input) side converts too: integers show as digit strings.
      expect(() => z.toJSONSchema(schema, { io: "input" })).not.toThrow();
    }
  });

  it("describes the trending parameters for OpenAPI exactly", () => {
    expect(openApiParameters(trendingParams, "query")).toEqual([
      {
        name: "window",
        in: "query",
        required: false,
        description: "Time window, 7d or 30d, default 7d",
        schema: { type: "string", enum: ["7d", "30d"], default: "7d" },
      },
      {
        name: "domain",
        in: "query",
        required: false,
        description: "Only projects of this domain",
        schema: { type: "string", enum: [...DOMAINS] },
      },
      {
        name: "stack_layer",
        in: "query",
        required: false,
        description: "Only projects of this stack layer",
        schema: {
          type: "string",
          enum: ["model", "inference", "orchestration", "data", "eval", "interface", "infra"],
        },
      },
      {
        name: "category",
        in: "query",
        required: false,
        description: "Only projects of this category (subcategory)",
        schema: { type: "string", minLength: 1, maxLength: 100 },
      },
      {
        name: "limit",
        in: "query",
        required: false,
        description: "Page size, 1 to 50, default 20",
        schema: { type: "integer", minimum: 1, maximum: 50, default: 20 },
      },
      {
        name: "offset",
        in: "query",
        required: false,
        description: "Number of matching items to skip, default 0",
        schema: { type: "integer", minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 },
      },
    ]);
  });

  it("marks only parameters without default as required", () => {
    const quality = paramsJsonSchema(ENDPOINTS["GET /api/v1/quality"].query);
    expect(quality.required).toEqual(["domain"]);
    expect(paramsJsonSchema(trendingParams).required).toBeUndefined();
  });

  it("sends the bulk list comma-separated and path parameters as required", () => {
    expect(openApiParameters(projectsBulkParams, "query")[0]).toMatchObject({
      name: "slugs",
      required: true,
      style: "form",
      explode: false,
      schema: { type: "array", minItems: 1, maxItems: 20 },
    });
    expect(openApiParameters(qualityLookupPathParams, "path").map((p) => [p.name, p.in, p.required])).toEqual(
      [
        ["domain", "path", true],
        ["repo", "path", true],
      ],
    );
  });
});

describe("body and response schemas", () => {
  it("converts the request bodies, with the key body's fields optional", () => {
    const key = bodyJsonSchema(ENDPOINTS["POST /api/v1/keys"].body);
    expect(Object.keys(key.properties ?? {})).toEqual(["email", "company"]);
    expect(key.required).toBeUndefined();
    expect(bodyJsonSchema(ENDPOINTS["POST /api/v1/query"].body).required).toEqual(["sql"]);
    expect(bodyJsonSchema(ENDPOINTS["POST /api/v1/feedback"].body).required).toEqual(["message"]);
  });

  it.each([
    ["quality list", listEnvelope(qualityRecordSchema)],
    ["trending list", listEnvelope(trendingRecordSchema)],
    ["project search list", listEnvelope(projectSummarySchema)],
    ["project detail", itemEnvelope(projectDetailSchema)],
    ["bulk project details", listEnvelope(projectDetailSchema)],
    ["API key", itemEnvelope(apiKeyRecordSchema)],
    ["error body", errorBodySchema],
  ])("converts the %s response", (_name, schema) => {
    const json = responseJsonSchema(schema);
    expect(json.type).toBe("object");
    expect(json.additionalProperties).toBe(false);
  });

  it("shows nullable fields as nullable in the quality record", () => {
    const json = responseJsonSchema(qualityRecordSchema);
    const pypi = json.properties?.pypi_package as { anyOf?: unknown[] };
    expect(pypi.anyOf).toEqual([{ type: "string", minLength: 1 }, { type: "null" }]);
    expect(json.required).toHaveLength(17);
  });
});
