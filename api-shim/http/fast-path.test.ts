// The fast path over real HTTP: a URL answered once is answered again without Fastify, with the same body, headers
// and quota arithmetic as the slow path (counted once per request, 304s, the 429 in the envelope, X-Forwarded-For
// through trusted hops), and never from a release that is no longer live.
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { FIXTURE_ROWS } from "../../publish/testing.ts";
import { buildApp } from "../app.ts";
import { newKey, openKeyStore } from "../keys/store.ts";
import { openEmbeddedQuotaStore, type QuotaHit, type QuotaStore } from "../quota/quota.ts";
import { openReleaseReader } from "../release-reader.ts";
import { type Fixture, movableClock, publishedFixture } from "../testing.ts";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await publishedFixture();
});
afterAll(() => fixture.cleanup());

const clock = movableClock("2026-03-02T10:00:00Z");

async function listening(options: { anonymous: number; free?: number; trustProxyHops?: number }) {
  const config = loadConfig({
    overrides: {
      stateDir: fixture.root,
      quota: { anonymous: options.anonymous, free: options.free ?? 1000 },
      trustProxyHops: options.trustProxyHops ?? 0,
    },
  });
  const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
  const quotas = await openEmbeddedQuotaStore();
  const keyStore = await openKeyStore({
    file: path.join(fixture.root, `keys-${Math.random().toString(36).slice(2)}.jsonl`),
    secret: "k".repeat(40),
    limits: { free: config.quota.free, email: config.quota.email },
    clock,
  });
  const app = buildApp({ config, release, quotas, clock, keyStore });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return {
    url,
    app,
    release,
    quotas,
    keyStore,
    async close() {
      await app.close();
      release.close();
      await quotas.close();
    },
  };
}

/** Today's count of a quota key, this extra look included (the embedded store answers at once). */
function countOf(quotas: QuotaStore, key: string, limit: number, now: Date): number {
  return (quotas.hit(key, limit, now) as QuotaHit).count;
}

async function totalOf(url: string): Promise<unknown> {
  return ((await (await fetch(url)).json()) as Body).meta.total;
}

interface Body {
  data: unknown;
  meta: Record<string, unknown>;
}

const headersOf = (res: Response) => {
  const { date: _, ...rest } = Object.fromEntries(res.headers);
  return rest;
};

describe("the fast path", () => {
  it("answers a repeated URL as the router did, counting each request once", async () => {
    const server = await listening({ anonymous: 4 });
    try {
      const url = `${server.url}/api/v1/quality?domain=rag&limit=2`;
      const first = await fetch(url);
      const second = await fetch(url);
      expect([first.status, second.status]).toEqual([200, 200]);
      const [a, b] = [(await first.json()) as Body, (await second.json()) as Body];
      expect(server.app.preparedAnswers.served).toBe(1);
      expect(b.data).toEqual(a.data);
      expect(b.meta).toEqual({ ...a.meta, timestamp: "2026-03-02T10:00:00.000+00:00" });
      expect(headersOf(second)).toEqual({ ...headersOf(first), "x-ratelimit-remaining": "2" });
      expect(first.headers.get("x-ratelimit-remaining")).toBe("3");

      const unchanged = await fetch(url, { headers: { "if-none-match": String(first.headers.get("etag")) } });
      expect([unchanged.status, unchanged.headers.get("x-ratelimit-remaining")]).toEqual([304, "1"]);
      expect(await unchanged.text()).toBe("");

      await fetch(url); // the fourth and last of the day
      const refused = await fetch(url);
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe(String(14 * 3600));
      expect(refused.headers.get("x-ratelimit-remaining")).toBe("0");
      expect(((await refused.json()) as { detail: { error: { code: string } } }).detail.error.code).toBe(
        "rate_limit_exceeded",
      );
      // the refused request was counted once, by the fast path, not again by the router
      expect(countOf(server.quotas, "ip:127.0.0.1", 4, clock.now())).toBe(6);
    } finally {
      await server.close();
    }
  });

  it("counts each forwarded client apart through a trusted proxy hop", async () => {
    const server = await listening({ anonymous: 10, trustProxyHops: 1 });
    try {
      const url = `${server.url}/api/v1/quality?domain=rag`;
      const as = (client: string) => fetch(url, { headers: { "x-forwarded-for": client } });
      await as("203.0.113.7");
      await as("203.0.113.7");
      const other = await as("198.51.100.1");
      expect(other.headers.get("x-ratelimit-remaining")).toBe("9");
      expect(server.app.preparedAnswers.served).toBe(2);
      expect(countOf(server.quotas, "ip:203.0.113.7", 10, clock.now())).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("answers a valid key's requests with its own quota, and leaves an unknown or revoked key to the 401", async () => {
    const server = await listening({ anonymous: 10, free: 3 });
    try {
      const { key, record } = await server.keyStore.create("free");
      const url = `${server.url}/api/v1/quality?domain=mcp&limit=2`;
      const keyed = () => fetch(url, { headers: { authorization: `Bearer ${key}` } });
      const answers = [await keyed(), await keyed(), await keyed(), await keyed()];
      expect(
        answers.map((r) => [
          r.status,
          r.headers.get("x-ratelimit-limit"),
          r.headers.get("x-ratelimit-remaining"),
        ]),
      ).toEqual([
        [200, "3", "2"],
        [200, "3", "1"],
        [200, "3", "0"],
        [429, "3", "0"],
      ]);
      // the first went through the router (a URL not answered yet), the next two the fast path; the 429 was counted
      // once, by the fast path, against the key and nothing against the caller's address
      expect(server.app.preparedAnswers.served).toBe(2);
      expect(countOf(server.quotas, server.keyStore.quotaKey(record), 3, clock.now())).toBe(5);
      expect(countOf(server.quotas, "ip:127.0.0.1", 10, clock.now())).toBe(1);

      // well-formed (its checksum holds) but made under another secret: unknown here
      const stranger = newKey("s".repeat(40), "free", undefined, clock).key;
      const unknown = await fetch(url, { headers: { authorization: `Bearer ${stranger}` } });
      await server.keyStore.revoke(record.hash);
      const revoked = await keyed();
      // one character changed: still a key's shape, so "mistyped", not "malformed"
      const changed = `${key.slice(0, 10)}${key[10] === "x" ? "y" : "x"}${key.slice(11)}`;
      const mistyped = await fetch(url, { headers: { authorization: `Bearer ${changed}` } });
      expect([
        mistyped.status,
        ((await mistyped.clone().json()) as { detail: { error: { message: string } } }).detail.error.message,
      ]).toEqual([
        401,
        "This API key is mistyped: it has a key's shape, but its last 6 characters (a checksum) do not match the rest; copy it again from where you saved it, create one with POST /api/v1/keys, or call without a key.",
      ]);
      for (const refused of [unknown, revoked, mistyped]) {
        expect(refused.status).toBe(401);
        expect(((await refused.json()) as { detail: { error: { code: string } } }).detail.error.code).toBe(
          "invalid_api_key",
        );
        expect(refused.headers.get("x-ratelimit-limit")).toBe("10");
      }
      expect(server.app.preparedAnswers.served).toBe(2);
      expect(countOf(server.quotas, "ip:127.0.0.1", 10, clock.now())).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("answers a small release file asked again as the router did, in each encoding, paid once a day", async () => {
    const server = await listening({ anonymous: 3 });
    try {
      const url = `${server.url}/d/rag`;
      const get = (headers: Record<string, string> = {}) => fetch(url, { headers });
      const first = await get();
      const bytes = Buffer.from(await first.arrayBuffer());
      const again = [await get(), await get(), await get()];
      expect(server.app.preparedAnswers.served).toBe(3);
      for (const answer of again) {
        expect(answer.status).toBe(200);
        expect(Buffer.from(await answer.arrayBuffer())).toEqual(bytes);
        // the same headers as the router's, the quota's standing included: the file was paid for once, today
        expect(headersOf(answer)).toEqual(headersOf(first));
      }
      expect(first.headers.get("accept-ranges")).toBe("bytes");
      expect(first.headers.get("x-ratelimit-remaining")).toBe("2");

      // the release's own Brotli copy, with its own ETag, as the router sends it; a 304 for it
      const router = await fetch(`${server.url}/d/rag`, {
        method: "HEAD",
        headers: { "accept-encoding": "br" },
      });
      const brotli = await get({ "accept-encoding": "br" });
      expect(server.app.preparedAnswers.served).toBe(4);
      expect(brotli.headers.get("content-encoding")).toBe("br");
      expect(brotli.headers.get("etag")).toBe(router.headers.get("etag"));
      expect(brotli.headers.get("etag")).not.toBe(first.headers.get("etag"));
      const unchanged = await get({ "if-none-match": String(first.headers.get("etag")) });
      expect([unchanged.status, unchanged.headers.get("accept-ranges")]).toEqual([304, "bytes"]);
      expect(server.app.preparedAnswers.served).toBe(5);

      // a range is the router's (206), and costs nothing more either
      const part = await get({ range: "bytes=0-9" });
      expect([part.status, await part.text()]).toEqual([206, bytes.subarray(0, 10).toString()]);
      expect(server.app.preparedAnswers.served).toBe(5);
      expect(part.headers.get("x-ratelimit-remaining")).toBe("2");
      // eight requests for the file, one request of the day (and this look)
      expect(countOf(server.quotas, "ip:127.0.0.1", 3, clock.now())).toBe(2);
    } finally {
      await server.close();
    }
  });

  it("never answers from a release that is no longer live", async () => {
    const server = await listening({ anonymous: 100 });
    try {
      const url = `${server.url}/api/v1/quality?domain=rag&limit=50`;
      expect(await totalOf(url)).toBe(3);
      expect(await totalOf(url)).toBe(3);
      const fewer = FIXTURE_ROWS.filter(
        (r) => r.full_name !== FIXTURE_ROWS.find((f) => f.domain === "rag")?.full_name,
      );
      await fixture.publish(fewer, "2026-03-02T04:00:00Z");
      expect(await server.release.reload()).toBe(true);
      expect(await totalOf(url)).toBe(2);
    } finally {
      await server.close();
    }
  });
});
