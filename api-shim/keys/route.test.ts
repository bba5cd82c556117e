// POST /api/v1/keys and bearer keys through app.inject(): tiers, body refusals, the per-address creation cap, and
// 401 for malformed, unknown and revoked keys without touching the anonymous quota.
import type { InjectOptions } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { memoryLogger } from "../../core/log.ts";
import { apiKeyRecordSchema } from "../../schemas/index.ts";
import { buildApp } from "../app.ts";
import { openEmbeddedQuotaStore } from "../quota/quota.ts";
import { openReleaseReader } from "../release-reader.ts";
import { type Fixture, movableClock, publishedFixture } from "../testing.ts";
import { checksum } from "./keys.ts";
import { type KeyStore, openKeyStore } from "./store.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await publishedFixture();
});
afterAll(() => fixture.cleanup());

const clock = movableClock("2026-03-02T10:00:00Z");
const SECRET = "k".repeat(64);
let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

async function start(quota: Record<string, number> = {}) {
  clock.set("2026-03-02T10:00:00Z");
  const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: 5, ...quota } } });
  const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
  const quotas = await openEmbeddedQuotaStore({ secret: SECRET });
  const keyStore = await openKeyStore({
    file: `${fixture.root}/keys-${Math.random().toString(36).slice(2)}.jsonl`,
    secret: SECRET,
    limits: { free: config.quota.free, email: config.quota.email },
    clock,
    refreshMs: 0,
  });
  const logger = memoryLogger();
  const app = buildApp({ config, release, quotas, clock, logger, keyStore });
  cleanup = async () => {
    await app.close();
    release.close();
    await quotas.close();
  };
  const inject = (options: InjectOptions) => app.inject({ remoteAddress: "203.0.113.7", ...options });
  return { app, inject, keyStore, logger };
}

const post = (payload?: string, type = "application/json"): InjectOptions => ({
  method: "POST",
  url: "/api/v1/keys",
  ...(payload === undefined ? {} : { payload, headers: { "content-type": type } }),
});
const get = (key?: string): InjectOptions => ({
  method: "GET",
  url: "/api/v1/quality?domain=rag&limit=1",
  ...(key === undefined ? {} : { headers: { authorization: `Bearer ${key}` } }),
});
const errorOf = (res: { statusCode: number; json(): unknown }) => {
  const { code, message } = (res.json() as { detail: { error: { code: string; message: string } } }).detail
    .error;
  return { status: res.statusCode, code, message };
};

describe("POST /api/v1/keys", () => {
  it("creates a free key from an empty request and an e-mail key from an address; each raises the quota", async () => {
    const { inject, logger } = await start();
    const empty = await inject(post());
    expect(empty.statusCode).toBe(200);
    expect(empty.headers["cache-control"]).toBe("no-store");
    // creating a key is not counted against the caller's quota (a key is the way out of a used-up one)
    expect(empty.headers["x-ratelimit-limit"]).toBe("5");
    expect(empty.headers["x-ratelimit-remaining"]).toBe("5");
    const free = apiKeyRecordSchema.parse(empty.json<{ data: unknown }>().data);
    expect(free).toEqual({
      key: expect.any(String),
      prefix: free.key.slice(0, 12),
      tier: "free",
      daily_limit: 1000,
    });
    expect(empty.json<{ meta: unknown }>().meta).toEqual({
      timestamp: "2026-03-02T10:00:00.000+00:00",
      count: 1,
      query: {},
    });

    const braces = await inject(post(" {} "));
    expect(braces.json<{ data: { daily_limit: number } }>().data.daily_limit).toBe(1000);
    const withEmail = await inject(post(JSON.stringify({ email: "dev@example.com", company: "Acme" })));
    const email = apiKeyRecordSchema.parse(withEmail.json<{ data: unknown }>().data);
    expect(email.daily_limit).toBe(10_000);

    const asFree = await inject(get(free.key));
    expect(asFree.statusCode).toBe(200);
    expect([asFree.headers["x-ratelimit-limit"], asFree.headers["x-ratelimit-remaining"]]).toEqual([
      "1000",
      "999",
    ]);
    const asEmail = await inject(get(email.key));
    expect([asEmail.headers["x-ratelimit-limit"], asEmail.headers["x-ratelimit-remaining"]]).toEqual([
      "10000",
      "9999",
    ]);
    // neither keys nor e-mail addresses reach the log
    const logged = JSON.stringify(logger.lines);
    expect(logged).toContain('"msg":"api key created"');
    for (const secret of [free.key, email.key, "dev@example.com"]) expect(logged).not.toContain(secret);
  });

  it("refuses bad JSON (400), a bad body (422), other media types (415) and large bodies (413)", async () => {
    const { inject } = await start({ anonymous: 100 });
    expect(errorOf(await inject(post("{nope")))).toEqual({
      status: 400,
      code: "invalid_json",
      message: "The request body is not valid JSON.",
    });
    expect(errorOf(await inject(post(JSON.stringify({ email: "not-an-address" }))))).toMatchObject({
      status: 422,
      code: "invalid_body",
    });
    expect(
      errorOf(await inject(post(JSON.stringify({ email: "x@example.com", admin: true })))),
    ).toMatchObject({
      status: 422,
      code: "invalid_body",
    });
    expect(errorOf(await inject(post("[]")))).toEqual({
      status: 422,
      code: "invalid_body",
      message: "The request body must be a JSON object.",
    });
    expect(
      errorOf(await inject(post("email=x@example.com", "application/x-www-form-urlencoded"))),
    ).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
    });
    expect(errorOf(await inject(post("hello", "text/plain")))).toMatchObject({ status: 415 });
    // a body without a content type is not taken for JSON
    expect(errorOf(await inject({ method: "POST", url: "/api/v1/keys", payload: "{}" }))).toMatchObject({
      status: 415,
      code: "unsupported_media_type",
    });
    const big = JSON.stringify({ company: "x".repeat(5000) });
    expect(errorOf(await inject(post(big)))).toMatchObject({ status: 413, code: "payload_too_large" });
    // a wrong method on the path is 405 naming POST
    const wrong = await inject({ method: "GET", url: "/api/v1/keys" });
    expect([wrong.statusCode, wrong.headers.allow]).toEqual([405, "POST"]);
  });

  it("caps key creation per client address a day, with its own message and Retry-After", async () => {
    const { inject } = await start({ anonymous: 100, keyCreations: 2 });
    expect((await inject(post())).statusCode).toBe(200);
    expect((await inject(post())).statusCode).toBe(200);
    const capped = await inject(post());
    expect(errorOf(capped)).toEqual({
      status: 429,
      code: "rate_limit_exceeded",
      message:
        "Key creation is capped at 2 new keys per client address a day; it resets at 2026-03-03T00:00:00+00:00. Use a key you created already.",
    });
    expect(capped.headers["retry-after"]).toBe(String(14 * 3600));
    // the request quota is still the caller's own, untouched by key creations
    expect(capped.headers["x-ratelimit-remaining"]).toBe("100");
    expect((await inject({ ...post(), remoteAddress: "198.51.100.4" })).statusCode).toBe(200);
    clock.set("2026-03-03T00:00:01Z");
    expect((await inject(post())).statusCode).toBe(200);
  });
});

describe("bearer keys", () => {
  it("answers 401 to malformed, unknown and revoked keys, never charging the anonymous quota", async () => {
    const { inject, keyStore } = await start();
    const created = (await inject(post())).json<{ data: { key: string } }>().data.key;
    const body = "A".repeat(30);
    const unknown = `pis_${body}${checksum(body)}`;
    await revokeByKey(keyStore, created);
    const refused = [
      ["Bearer pis_short", "malformed"],
      [`Bearer ${created.slice(0, -1)}${created.endsWith("0") ? "1" : "0"}`, "mistyped"],
      [`Bearer ${unknown}`, "unknown or revoked"],
      [`Bearer ${created}`, "unknown or revoked"],
      ["Basic dXNlcjpwYXNz", "Bearer <API_KEY>"],
    ] as const;
    for (const [authorization, says] of refused) {
      const res = await inject({ ...get(), headers: { authorization } });
      expect(errorOf(res)).toMatchObject({ status: 401, code: "invalid_api_key" });
      expect(errorOf(res).message).toContain(says);
      expect(errorOf(res).message).not.toContain(created.slice(4));
      // the anonymous standing (the key creation was not counted), uncounted
      expect([res.headers["x-ratelimit-limit"], res.headers["x-ratelimit-remaining"]]).toEqual(["5", "5"]);
    }
    expect((await inject(get())).headers["x-ratelimit-remaining"]).toBe("4");
  });
});

async function revokeByKey(store: KeyStore, key: string) {
  const record = store.list().find((r) => key.startsWith(r.prefix));
  if (!record) throw new Error("the key was not stored");
  await store.revoke(record.hash);
}
