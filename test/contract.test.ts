// The contract: the OpenAPI document a release publishes is valid OpenAPI 3.1 (checked by an independent validator),
// covers every route of the route table, and says what the API does — every documented GET request, tried as
// written, answers 200 with a body valid against the document (ajv), the route's Cache-Control and the rate-limit
// headers; every route's errors (unknown parameter, unknown item, quota headers, 304) match the document too.
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import * as formats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenApiDocument, Operation } from "../publish/openapi.ts";
import { cacheControl } from "../publish/route-spec.ts";
import { ROUTES } from "../publish/routes/index.ts";
import { ERROR_CODES } from "../schemas/index.ts";
import { type SimApp, simApp } from "./sim-release.ts";

// ajv-formats is CommonJS: under Node's ESM loader its function arrives as the module's default export
const addFormats = formats.default as unknown as (ajv: Ajv2020) => void;

let sim: SimApp;
let doc: OpenApiDocument;
let ajv: Ajv2020;

beforeAll(async () => {
  sim = await simApp();
  const res = await sim.app.inject({ url: "/api/v1/openapi.json" });
  expect(res.statusCode).toBe(200);
  doc = res.json();
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, "openapi.json");
});
afterAll(() => sim?.close());

/** A JSON pointer into the document as a URI fragment ajv resolves. */
function pointer(...segments: string[]): string {
  return `openapi.json#/${segments.map((s) => encodeURIComponent(s.replace(/~/g, "~0").replace(/\//g, "~1"))).join("/")}`;
}

function validate(ref: string, body: unknown): string[] {
  const check = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
  return check(body) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** The GET operation of a path (every route of the table is documented: the test above checks it). */
function getOf(path: string): Operation {
  const op = doc.paths[path]?.get;
  if (!op) throw new Error(`The OpenAPI document has no GET ${path}.`);
  return op;
}

function operations(): { path: string; method: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op })),
  );
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1, version 1.0.0", async () => {
    const result = await new Validator().validate(structuredClone(doc) as never);
    expect(result).toEqual({ valid: true });
    expect([doc.openapi, doc.info.version]).toEqual(["3.1.0", "1.0.0"]);
  });

  it("covers every route of the route table once, GET and POST", () => {
    const documented = operations().map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(documented.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    expect(new Set(operations().map((o) => o.op.operationId)).size).toBe(ROUTES.length);
    for (const route of ROUTES.filter((r) => r.kind === "dynamic")) {
      const op = doc.paths[route.path]?.post as Operation;
      expect(op.requestBody, route.path).toBeDefined();
    }
  });

  it("gives every parameter an example, typed as its schema", () => {
    for (const { path, op } of operations()) {
      for (const p of op.parameters ?? []) {
        expect(p.example, `${path} ${p.name}`).toBeDefined();
        const type = (p.schema as { type?: string }).type;
        if (type === "integer") expect(Number.isInteger(p.example), `${path} ${p.name}`).toBe(true);
        if (type === "array") expect(Array.isArray(p.example), `${path} ${p.name}`).toBe(true);
      }
    }
  });

  it("documents the error envelope with every error code, the bearer scheme and the rate-limit headers", () => {
    const documented = Object.values(doc.components.responses).flatMap((r) =>
      Object.keys(
        (r as { content?: Record<string, { examples: object }> }).content?.["application/json"]?.examples ??
          {},
      ),
    );
    expect(documented.sort()).toEqual([...ERROR_CODES].sort());
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    for (const { path, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        const resolved = (
          "$ref" in (response as object)
            ? doc.components.responses[
                String((response as { $ref: string }).$ref)
                  .split("/")
                  .at(-1) as string
              ]
            : response
        ) as { headers: Record<string, unknown> };
        expect(Object.keys(resolved.headers), `${path} ${status}`).toEqual(
          expect.arrayContaining(["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]),
        );
      }
    }
  });
});

describe("every documented request, tried as written", () => {
  it("answers 200 with a body the document describes, the route's Cache-Control and the quota headers", async () => {
    const tried: string[] = [];
    for (const route of ROUTES.filter((r) => r.method === "GET")) {
      const op = getOf(route.path);
      const url = op["x-example-request"] as string;
      const res = await sim.app.inject({ url });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
      expect(res.headers["cache-control"], url).toBe(cacheControl(route.cache));
      expect(res.headers["x-ratelimit-limit"], url).toBeDefined();
      expect(res.headers.etag, url).toMatch(/^"[^"]+"$/);
      const [type, media] = Object.entries(
        (op.responses["200"] as { content: Record<string, unknown> }).content,
      )[0] as [string, unknown];
      expect(String(res.headers["content-type"]).split(";")[0], url).toBe(type);
      if (type === "application/json") {
        const errors = validate(
          pointer("paths", route.path, "get", "responses", "200", "content", type, "schema"),
          res.json(),
        );
        expect(errors, url).toEqual([]);
        const body = res.json() as { data: unknown; meta?: { count: number } };
        if (Array.isArray(body.data)) expect(body.data.length, `${url} returns no data`).toBeGreaterThan(0);
      }
      expect(media).toBeDefined();
      tried.push(url);
    }
    expect(tried.length).toBe(ROUTES.filter((r) => r.method === "GET").length);
  });

  it("documents Range on each file served as it is (206, 416, Accept-Ranges) and its once-a-day quota", async () => {
    const files = ROUTES.filter((r) => r.kind === "file" && !r.envelope);
    expect(files.length).toBe(9);
    for (const route of files) {
      const op = getOf(route.path);
      expect(Object.keys(op.responses), route.path).toEqual(expect.arrayContaining(["200", "206", "416"]));
      expect(op.description, route.path).toContain("one request per file per caller per day");
      const url = op["x-example-request"] as string;
      const part = await sim.app.inject({ url, headers: { range: "bytes=0-0" } });
      expect([part.statusCode, part.headers["content-length"], part.headers["accept-ranges"]], url).toEqual([
        206,
        "1",
        "bytes",
      ]);
      const past = await sim.app.inject({ url, headers: { range: "bytes=999999999-" } });
      expect(past.statusCode, url).toBe(416);
      expect(validate(pointer("components", "schemas", "ErrorBody"), past.json()), url).toEqual([]);
    }
  });

  it("answers 304 to If-None-Match with the ETag, quota headers kept", async () => {
    for (const route of ROUTES.filter((r) => r.method === "GET")) {
      const url = getOf(route.path)["x-example-request"] as string;
      const first = await sim.app.inject({ url });
      const again = await sim.app.inject({ url, headers: { "if-none-match": String(first.headers.etag) } });
      expect(again.statusCode, url).toBe(304);
      expect(again.body, url).toBe("");
      expect(again.headers["x-ratelimit-remaining"], url).toBeDefined();
    }
  });

  it("refuses an unknown parameter with a 422 the document describes (the badges and pages ignore it)", async () => {
    for (const route of ROUTES.filter((r) => r.method === "GET")) {
      const url = getOf(route.path)["x-example-request"] as string;
      const res = await sim.app.inject({ url: `${url}${url.includes("?") ? "&" : "?"}no_such_parameter=1` });
      if (route.unknownParams === "ignore") {
        // a README's cache-buster or a shared link's utm_source: the same answer as without it
        expect(res.statusCode, url).toBe((await sim.app.inject({ url })).statusCode);
        continue;
      }
      expect(res.statusCode, url).toBe(422);
      expect(res.json().detail.error.code).toBe("invalid_parameter");
      const errors = validate(
        pointer("components", "responses", "Unprocessable", "content", "application/json", "schema"),
        res.json(),
      );
      expect(errors, url).toEqual([]);
    }
  });

  it("answers 404 not_found, as documented, for an item a route does not hold", async () => {
    const items = ROUTES.filter((r) => r.kind === "item");
    expect(items.length).toBeGreaterThan(3);
    for (const route of items) {
      // the documented example, its last path parameter naming nothing
      const op = getOf(route.path);
      const params = (op.parameters ?? []).filter((p) => p.in === "path");
      const url = params.reduce(
        (path, p, i) =>
          path.replace(`{${p.name}}`, i === params.length - 1 ? "zz-no-such-item" : String(p.example)),
        route.path,
      );
      const res = await sim.app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(Object.keys(getOf(route.path).responses)).toContain("404");
      const errors = validate(
        pointer("components", "responses", "NotFound", "content", "application/json", "schema"),
        res.json(),
      );
      expect(errors, url).toEqual([]);
      expect(res.json().detail.error.code).toBe("not_found");
    }
  });
});
