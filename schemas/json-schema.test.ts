// The JSON Schema views the OpenAPI generator needs, on the shared schemas: parameters as decoded values with only
// truly required names required, responses strict and nullable where they may be null. Every route's own schemas are
// checked on the route table (publish/routes/route-schemas.test.ts).
import { describe, expect, it } from "vitest";
import { DOMAINS } from "./enums.ts";
import { itemEnvelope, listEnvelope } from "./envelope.ts";
import { errorBodySchema } from "./errors.ts";
import { openApiParameters, paramsJsonSchema, responseJsonSchema } from "./json-schema.ts";
import { projectsBulkParams, qualityLookupPathParams, qualityParams, trendingParams } from "./params.ts";
import { projectDetailSchema } from "./project-detail.ts";
import {
  apiKeyRecordSchema,
  projectSummarySchema,
  qualityRecordSchema,
  trendingRecordSchema,
} from "./records.ts";
import { SUBCATEGORIES } from "./taxonomy.ts";

describe("parameter schemas", () => {
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
        schema: { type: "string", enum: [...SUBCATEGORIES] },
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
    const quality = paramsJsonSchema(qualityParams);
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
