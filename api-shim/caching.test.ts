// HTTP caching over a published fixture: strong ETags that identify the data, 304 on If-None-Match with the quota
// headers still there, each route's Cache-Control, and release files (datasets) served with their type and hash.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE_ROWS } from "../publish/testing.ts";
import { type Fixture, movableClock, publishedFixture, type TestApp, testApp } from "./testing.ts";

let fixture: Fixture;
let shim: TestApp;
const clock = movableClock("2026-03-02T10:00:00Z");

beforeAll(async () => {
  fixture = await publishedFixture();
  shim = await testApp(fixture, { clock, config: { quota: { anonymous: 100_000 } } });
});
afterAll(async () => {
  await shim.close();
  await fixture.cleanup();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  shim.app.inject({ method: "GET", url, headers });

describe("caching", () => {
  it("gives a strong ETag that stays while only the time of the response changes", async () => {
    const first = await get("/api/v1/quality?domain=mcp&limit=2");
    clock.set("2026-03-02T11:00:00Z");
    const later = await get("/api/v1/quality?domain=mcp&limit=2");
    expect(first.headers.etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
    expect(later.headers.etag).toBe(first.headers.etag);
    expect(later.body).not.toBe(first.body); // meta.timestamp moved
    const other = await get("/api/v1/quality?domain=mcp&limit=3");
    expect(other.headers.etag).not.toBe(first.headers.etag);
    expect(first.headers["cache-control"]).toBe("private, max-age=300");
  });

  it("answers 304 with no body and the quota headers when If-None-Match names the ETag", async () => {
    const first = await get("/api/v1/quality?domain=rag");
    const etag = String(first.headers.etag);
    const again = await get("/api/v1/quality?domain=rag", { "if-none-match": `"nope", ${etag}` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    expect(again.headers["x-ratelimit-limit"]).toBe("100000");
    expect(Number(again.headers["x-ratelimit-remaining"])).toBe(
      Number(first.headers["x-ratelimit-remaining"]) - 1,
    );
    expect((await get("/api/v1/quality?domain=rag", { "if-none-match": '"other"' })).statusCode).toBe(200);
  });

  it("keeps the ETag across a republish of the same data, and changes it with the data", async () => {
    const before = await get("/api/v1/quality?domain=agents");
    await fixture.publish(undefined, "2026-03-03T03:15:00Z");
    await shim.release.reload();
    const same = await get("/api/v1/quality?domain=agents");
    expect(same.headers.etag).toBe(before.headers.etag);
    await fixture.publish(
      FIXTURE_ROWS.filter((r) => r.full_name !== "hive/mu"),
      "2026-03-04T03:15:00Z",
    );
    await shim.release.reload();
    const changed = await get("/api/v1/quality?domain=agents");
    expect(changed.json()).toMatchObject({ data: [], meta: { total: 0 } });
    expect(changed.headers.etag).not.toBe(before.headers.etag);
  });

  it("serves the bulk dataset publicly for an hour", async () => {
    const res = await get("/api/v1/datasets/quality?domain=mcp");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("public, max-age=3600");
  });

  it("lists the datasets and serves each file with its content type and hash", async () => {
    const index = await get("/api/v1/datasets");
    expect(index.statusCode).toBe(200);
    const files = (index.json() as { data: { files: { path: string; sha256: string; bytes: number }[] } })
      .data.files;
    expect(files.map((f) => f.path)).toEqual([
      "datasets/projects.parquet",
      "datasets/quality.arrow",
      "datasets/quality.parquet",
    ]);
    for (const file of files) {
      const res = await get(`/${file.path}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.length).toBe(file.bytes);
      expect(createHash("sha256").update(res.rawPayload).digest("hex")).toBe(file.sha256);
      expect(res.headers.etag).toBe(`"${file.sha256}"`);
      const again = await get(`/${file.path}`, { "if-none-match": `"${file.sha256}"` });
      expect(again.statusCode).toBe(304);
    }
    expect((await get("/datasets/quality.parquet")).headers["content-type"]).toBe(
      "application/vnd.apache.parquet",
    );
    expect((await get("/datasets/nothing.parquet")).statusCode).toBe(404);
    expect((await get("/datasets/../manifest.parquet")).statusCode).toBe(404);
  });
});
