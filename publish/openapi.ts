// The OpenAPI 3.1 document of the API, generated from the route table: every route's parameters (each with an example
// that works against the release it is published with), its response envelope and record schema (zod 4's JSON
// Schema output), the error envelope and codes, the bearer scheme and the rate-limit and caching headers.
import type { z } from "zod";
import {
  bodyJsonSchema,
  type JsonSchema,
  type OpenApiParameter,
  openApiParameters,
  responseJsonSchema,
} from "../schemas/index.ts";
import {
  CORS_ALLOWED_HEADERS,
  CORS_ALLOWED_METHODS,
  CORS_EXPOSED_HEADERS,
  CORS_HEADERS,
  CORS_MAX_AGE_SECONDS,
  CORS_POLICY,
} from "./cors.ts";
import {
  API_VERSION,
  ERROR_PAGES,
  errorResponses,
  FILE_READ_QUOTA,
  type OpenApiComponents,
  openApiComponents,
  RATE_LIMIT_HEADERS,
  UNCOUNTED,
} from "./openapi-components.ts";
import { cacheControl, type RouteSpec } from "./route-spec.ts";

export interface OpenApiDocument {
  openapi: "3.1.0";
  info: Record<string, unknown>;
  servers: { url: string; description: string }[];
  security: Record<string, string[]>[];
  tags: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: OpenApiComponents;
}

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  parameters?: (OpenApiParameter & { example: unknown })[];
  requestBody?: Record<string, unknown>;
  responses: Record<string, unknown>;
  /** GET: a request to try as written — path parameters and the parameters given examples, from this release. */
  "x-example-request"?: string;
}

export interface OpenApiOptions {
  baseUrl: string;
  contactEmail: string;
  /** Per route name, path and query parameters of a request that finds an item of this release. */
  examples: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** One line per tag, in the order the docs page shows them. */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Quality: "Quality scores (0–100 from four components of 0–25) and tiers, by domain",
  Trends: "Who is gaining stars, commits, contributors and dependents",
  Projects: "Search and details of every tracked project",
  Digests: "What happened recently: releases, briefings, posts, papers, lifecycle changes",
  Orientation: "What the data holds: status, tables, recipes, methodology",
  Keys: "API keys (optional; they raise the daily quota)",
  Query: "Read-only SQL over the public tables",
  Feedback: "Tell us what is wrong or missing",
  Datasets: "Parquet and Arrow snapshots for analysts",
  Documents: "This document, the docs page, the AI plugin manifest and the Atom feed",
  "Badges and pages":
    "README badges (SVG, and JSON for shields.io) and HTML pages for people, without scripts",
};

export function buildOpenApi(routes: readonly RouteSpec[], options: OpenApiOptions): OpenApiDocument {
  const components = openApiComponents();
  const paths: OpenApiDocument["paths"] = {};
  for (const route of routes) {
    const operations = paths[route.path] ?? {};
    operations[route.method.toLowerCase()] = operation(route, options, components);
    paths[route.path] = operations;
  }
  const used = [...new Set(routes.map((r) => r.tag))];
  return {
    openapi: "3.1.0",
    info: {
      title: "Project Intelligence Service",
      version: API_VERSION,
      summary: "Which open-source AI projects are healthy, rising or fading",
      description: `Quality scores, star velocity, lifecycle stages, details, digests and datasets for open-source AI repositories, refreshed nightly from GitHub, PyPI, npm, Docker Hub, the Hugging Face Hub, Hacker News and arXiv. Every endpoint works without a key, within the anonymous daily quota; a free key (POST /api/v1/keys) raises it. Files (datasets and documents) are served as they are, with Range and HEAD; reading one costs one request a day, however many ranges it takes. Every JSON response is an envelope {data, meta}; every error is {detail: {error: {code, message}}}; every response carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset. ${CORS_POLICY}`,
      "x-cors": {
        "allow-origin": CORS_HEADERS["access-control-allow-origin"],
        "allow-credentials": false,
        "allow-methods": CORS_ALLOWED_METHODS,
        "allow-headers": [...CORS_ALLOWED_HEADERS],
        "expose-headers": [...CORS_EXPOSED_HEADERS],
        "max-age": CORS_MAX_AGE_SECONDS,
      },
      license: { name: "Apache-2.0", identifier: "Apache-2.0" },
      contact: {
        name: "Project Intelligence Service",
        url: `${options.baseUrl}/`,
        email: options.contactEmail,
      },
    },
    servers: [{ url: options.baseUrl, description: "This release" }],
    // the key is optional everywhere: no security requirement, or the bearer scheme
    security: [{}, { bearerAuth: [] }],
    tags: used.map((name) => {
      const description = TAG_DESCRIPTIONS[name];
      return description ? { name, description } : { name };
    }),
    paths,
    components,
  };
}

function operation(route: RouteSpec, options: OpenApiOptions, components: OpenApiComponents): Operation {
  const op: Operation = {
    operationId: camelCase(route.name),
    summary: route.summary,
    description: [
      route.description,
      route.kind === "file" && !route.envelope ? FILE_READ_QUOTA : undefined,
      route.kind === "view" && route.uncounted ? UNCOUNTED : undefined,
      route.errorPage ? ERROR_PAGES : undefined,
    ]
      .filter((part) => part !== undefined)
      .join(" "),
    tags: [route.tag],
    responses: {},
  };
  const examples = { ...route.examples, ...options.examples[route.name] };
  const parameters = [
    ...(route.pathParams ? openApiParameters(route.pathParams, "path") : []),
    ...openApiParameters(route.query, "query"),
  ].map((parameter) => ({ ...parameter, example: parameterExample(parameter, examples) }));
  if (parameters.length > 0) op.parameters = parameters;
  // the request to try: path and required parameters, and those the route itself gives examples of (filters
  // filled from the release each find data alone, not necessarily together)
  if (route.method === "GET")
    op["x-example-request"] = exampleRequest(route.path, parameters, route.examples ?? {});

  // every status the server can send to this operation (test/openapi-statuses.test.ts provokes each one): what any
  // request can get (the HTTP parser's refusals, a bad key, a method the path does not take, an unknown parameter,
  // the quota, the service failing or unavailable), then what this kind of route adds
  const codes = new Set(["400", "401", "405", "408", "417", "422", "429", "431", "500", "503"]);
  if (route.kind === "dynamic") {
    if (route.body) {
      const media: Record<string, unknown> = { schema: inline(bodyJsonSchema(route.body)) };
      if (route.bodyExample) media.example = route.bodyExample;
      op.requestBody = { required: !route.bodyOptional, content: { "application/json": media } };
      for (const code of ["413", "415"]) codes.add(code);
    }
    for (const status of route.errorStatuses ?? []) codes.add(String(status));
    const data = componentRef(components, schemaName(route.name), route.response);
    const schema = route.meta
      ? envelopeSchema("item", data, componentRef(components, `${schemaName(route.name)}Meta`, route.meta))
      : envelopeSchema("item", data);
    op.responses[String(route.successStatus ?? 200)] = success(route, "application/json", schema);
  } else {
    codes.add("304");
    // an item, a file named by free text in the path, or a record a view draws, that the release does not hold
    if (
      route.kind === "item" ||
      (route.kind === "file" &&
        route.pathParams &&
        !onlyEnums(openApiParameters(route.pathParams, "path"))) ||
      (route.kind === "view" && route.notFound)
    )
      codes.add("404");
    // a view never counted (badges, pages) is never refused for the quota
    if (route.kind === "view" && route.uncounted) codes.delete("429");
    // a route ignoring unknown parameters with no parameter of its own has nothing to refuse (home, docs)
    if (route.unknownParams === "ignore" && !route.pathParams && Object.keys(route.query.shape).length === 0)
      codes.delete("422");
    op.responses["200"] = successOfGet(route, components);
    if (route.kind === "file" && !route.envelope) {
      // files are served as they are, so readers of Parquet and Arrow can fetch only the parts they need
      codes.add("416");
      op.responses["206"] = partialContent(op.responses["200"] as ReturnType<typeof success>);
    }
  }
  for (const code of [...codes].sort()) op.responses[code] = errorResponses[code];
  return op;
}

/** Whether every parameter takes one of a fixed list of values (a file named by them always exists: no 404). */
function onlyEnums(parameters: readonly { schema?: unknown }[]): boolean {
  return parameters.every((p) => Array.isArray((p.schema as { enum?: unknown } | undefined)?.enum));
}

function successOfGet(route: Exclude<RouteSpec, { kind: "dynamic" }>, components: OpenApiComponents) {
  if (route.kind === "file") {
    const data = route.schema ? componentRef(components, schemaName(route.name), route.schema) : {};
    if (route.envelope) return success(route, "application/json", envelopeSchema("item", data));
    const type = route.contentType.split(";")[0] as string;
    const binary = !type.includes("json") && !type.startsWith("text/") && !type.includes("xml");
    const untyped: JsonSchema = { type: type.includes("json") ? "object" : "string" };
    return success(
      route,
      type,
      route.schema ? data : binary ? { type: "string", contentMediaType: type } : untyped,
    );
  }
  if (route.kind === "view") {
    const type = route.contentType.split(";")[0] as string;
    const schema: JsonSchema = route.schema
      ? componentRef(components, schemaName(route.name), route.schema)
      : { type: "string" };
    return success(route, type, schema);
  }
  const record = componentRef(components, schemaName(route.collection.name), route.collection.record);
  return success(route, "application/json", envelopeSchema(route.kind, record));
}

/** 206: one byte range of a file (Range: bytes=FIRST-LAST), what HTTP readers of Parquet ask for. */
function partialContent(whole: ReturnType<typeof success>) {
  return {
    description:
      "One byte range of the file, as Range asked (bytes=FIRST-LAST, FIRST- or -SUFFIX; honoured with If-Range only when it names the current ETag). A request for several ranges is answered 200 with the whole file.",
    headers: { ...whole.headers, "Content-Range": { $ref: "#/components/headers/Content-Range" } },
    content: whole.content,
  };
}

function success(route: RouteSpec, contentType: string, schema: JsonSchema) {
  const headers: Record<string, unknown> = { ...RATE_LIMIT_HEADERS };
  if (route.method === "GET") {
    headers.ETag = { $ref: "#/components/headers/ETag" };
    headers["Cache-Control"] = {
      description: `Always \`${cacheControl(route.cache)}\` on this endpoint`,
      schema: { type: "string", const: cacheControl(route.cache) },
    };
    if (route.kind === "file" && !route.envelope)
      headers["Accept-Ranges"] = { $ref: "#/components/headers/Accept-Ranges" };
  }
  return { description: route.summary, headers, content: { [contentType]: { schema } } };
}

/** The envelope around a record: a list (with paging and, for bulk lookups, the names not found) or one item. */
function envelopeSchema(
  kind: "list" | "item" | "bulk",
  data: JsonSchema,
  itemMeta: JsonSchema = { $ref: "#/components/schemas/ItemMeta" },
): JsonSchema {
  if (kind === "item") {
    return {
      type: "object",
      required: ["data", "meta"],
      properties: { data, meta: itemMeta },
      additionalProperties: false,
    };
  }
  const meta = { $ref: `#/components/schemas/${kind === "bulk" ? "BulkMeta" : "ListMeta"}` };
  return {
    type: "object",
    required: ["data", "meta"],
    properties: { data: { type: "array", items: data, description: "Result items" }, meta },
    additionalProperties: false,
  };
}

/** A named schema in components.schemas (added once), referenced from the operations. */
function componentRef(components: OpenApiComponents, name: string, schema: z.ZodType): JsonSchema {
  const known = components.schemas[name];
  const json = inline(responseJsonSchema(schema));
  if (known && JSON.stringify(known) !== JSON.stringify(json)) {
    throw new Error(`Two different schemas would be named ${name} in the OpenAPI document.`);
  }
  components.schemas[name] = json;
  return { $ref: `#/components/schemas/${name}` };
}

/** A JSON Schema embedded in the document: no $schema of its own. */
function inline(schema: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = schema;
  return rest;
}

/**
 * The example of a parameter, typed as the schema decodes it: the route's or the release's example, else its
 * default, else its first allowed value, else its minimum; a free text the release holds no value of (a filter
 * empty in every partition) is shown by its name, so a night's data never stops the document.
 */
function parameterExample(parameter: OpenApiParameter, examples: Readonly<Record<string, string>>): unknown {
  const schema = parameter.schema as JsonSchema & { default?: unknown };
  const given = examples[parameter.name];
  if (given !== undefined) return typed(schema, given);
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if (schema.type === "integer" || schema.type === "number") return schema.minimum ?? 1;
  if (schema.type === "boolean") return true;
  return typed(schema, parameter.name);
}

function exampleRequest(
  path: string,
  parameters: readonly (OpenApiParameter & { example: unknown })[],
  given: Readonly<Record<string, string>>,
): string {
  let url = path;
  const query = new URLSearchParams();
  for (const p of parameters) {
    const text = Array.isArray(p.example) ? p.example.join(",") : String(p.example);
    if (p.in === "path") url = url.replace(`{${p.name}}`, encodeURIComponent(text));
    else if (p.required || given[p.name] !== undefined) query.set(p.name, text);
  }
  const search = query.toString();
  return search ? `${url}?${search}` : url;
}

function typed(schema: JsonSchema, value: string): unknown {
  if (schema.type === "integer" || schema.type === "number") return Number(value);
  if (schema.type === "boolean") return value === "true";
  if (schema.type === "array") return value.split(",");
  return value;
}

function schemaName(name: string): string {
  const camel = camelCase(name);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

function camelCase(name: string): string {
  return name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());
}
