// The POST endpoints (keys, query, feedback) are dynamic routes: documented in the route table, answered by handlers
// of a later issue. Until then the shim answers them as before — 404 not_found in the envelope, never a 405 naming
// the very method asked — and publish renders nothing for them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLocalStorage } from "../../core/storage.ts";
import { type SimApp, sharedSimApp } from "../../test/sim-release.ts";
import { readManifest, readPointer } from "../layout.ts";
import { collectionsOf } from "../route-spec.ts";
import { feedbackRoute } from "./feedback.ts";
import { ROUTES } from "./index.ts";
import { keysRoute } from "./keys.ts";
import { queryRoute } from "./query.ts";

const DYNAMIC = [keysRoute, queryRoute, feedbackRoute];
let sim: SimApp;

beforeAll(async () => {
  sim = await sharedSimApp();
}, 600_000);
afterAll(() => sim?.close());

describe("dynamic routes", () => {
  it("are the three POST endpoints of the route table, with a body example each", () => {
    expect(ROUTES.filter((r) => r.kind === "dynamic").map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /api/v1/query",
      "POST /api/v1/keys",
      "POST /api/v1/feedback",
    ]);
    for (const route of DYNAMIC) expect(route.body?.safeParse(route.bodyExample).success).toBe(true);
  });

  it.each(DYNAMIC.map((r) => [r.path, r]))(
    "%s answers 404 not_found in the envelope, for POST and GET",
    async (path) => {
      const post = await sim.app.inject({ method: "POST", url: path, payload: { sql: "SELECT 1" } });
      expect(post.statusCode).toBe(404);
      expect(post.json()).toEqual({
        detail: {
          error: {
            code: "not_found",
            message: `No endpoint POST ${path}; every endpoint is listed in the OpenAPI document /api/v1/openapi.json and described at /docs.`,
            request_id: expect.any(String),
          },
        },
      });
      expect(post.headers["x-ratelimit-limit"]).toBeDefined();
      const get = await sim.app.inject({ url: path });
      expect([get.statusCode, get.json().detail.error.code]).toEqual([404, "not_found"]);
    },
  );

  it("publish renders no collection and no file for them", async () => {
    expect(collectionsOf(DYNAMIC)).toEqual([]);
    const storage = createLocalStorage(sim.stateDir, { syncObjects: false });
    const pointer = await readPointer(storage);
    const manifest = await readManifest(storage, pointer?.release_id ?? "");
    const paths = manifest?.files.map((f) => f.path) ?? [];
    expect(paths.length).toBeGreaterThan(100);
    for (const name of ["keys", "query", "feedback"]) {
      expect(paths.filter((p) => p.startsWith(`api/v1/${name}`))).toEqual([]);
    }
  });
});
