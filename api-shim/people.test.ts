// What the web does to the badges and pages, over real HTTP: shields.io's style and label are taken, a README's
// cache-buster or a shared link's utm_source is ignored (the JSON API still refuses unknown names), a person browsing
// pages never spends the quota, and a caller whose quota is used up is told how to get a key and can still create one.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { buildApp } from "./app.ts";
import { openFeedbackStore } from "./feedback/store.ts";
import { openKeyStore } from "./keys/store.ts";
import { openEmbeddedQuotaStore } from "./quota/quota.ts";
import { openReleaseReader } from "./release-reader.ts";
import { type Fixture, listenOnLoopback, movableClock, publishedFixture } from "./testing.ts";

const SECRET = "p".repeat(64);
const QUOTA = 5;

describe("badges and pages as the web uses them", () => {
  let fixture: Fixture;
  let base: string;
  let close: () => Promise<void>;
  const clock = movableClock("2026-03-02T10:00:00Z");

  beforeAll(async () => {
    fixture = await publishedFixture();
    const config = loadConfig({ overrides: { stateDir: fixture.root, quota: { anonymous: QUOTA } } });
    const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
    const quotas = await openEmbeddedQuotaStore({ secret: SECRET });
    const keyStore = await openKeyStore({
      file: `${fixture.root}/keys.jsonl`,
      secret: SECRET,
      limits: { free: config.quota.free, email: config.quota.email },
      clock,
      refreshMs: 0,
    });
    const feedback = await openFeedbackStore(`${fixture.root}/feedback.jsonl`, { secret: SECRET });
    const app = buildApp({ config, release, quotas, clock, keyStore, feedback });
    base = `http://127.0.0.1:${await listenOnLoopback(app)}`;
    close = async () => {
      await app.close();
      release.close();
      await quotas.close();
      await keyStore.close();
      await feedback.close();
    };
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await fixture?.cleanup();
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });
  const text = async (path: string) => {
    const res = await get(path);
    return { status: res.status, type: res.headers.get("content-type"), body: await res.text() };
  };

  it("draws shields.io's styles and label, ignores other parameters, and refuses a style it does not know", async () => {
    const endpoint = JSON.parse((await text("/badges/ollama/ollama.json")).body) as { message: string };
    const plain = await text("/badges/ollama/ollama.svg");
    expect(plain.status).toBe(200);
    expect(plain.body).toContain(`aria-label="AI quality: ${endpoint.message}"`);
    // a cache-buster and flat (the default) are the same image, byte for byte
    expect(await text("/badges/ollama/ollama.svg?v=2")).toEqual(plain);
    expect(await text("/badges/ollama/ollama.svg?style=flat&utm_source=readme")).toEqual(plain);

    const square = await text("/badges/ollama/ollama.svg?style=flat-square");
    expect([square.status, square.type]).toEqual([200, "image/svg+xml"]);
    expect(square.body).toContain('shape-rendering="crispEdges"');
    expect(square.body).toContain(`aria-label="AI quality: ${endpoint.message}"`);
    expect(square.body).not.toContain("<clipPath");
    const big = await text("/badges/ollama/ollama.svg?style=for-the-badge");
    expect(big.body).toMatch(/^<svg [^>]*height="28"/);
    expect(big.body).toContain(`aria-label="AI QUALITY: ${endpoint.message.toUpperCase()}"`);
    expect((await text("/badges/ollama/ollama.svg?style=plastic")).body).toMatch(/^<svg [^>]*height="18"/);
    const labelled = await text(
      "/badges/ollama/ollama/trend.svg?label=stars%20this%20week&style=flat-square",
    );
    expect(labelled.body).toMatch(/aria-label="stars this week: \+[^"]+"/);
    // a repository not tracked is still an image in every style
    const untracked = await text("/badges/nobody/nothing.svg?style=flat-square&v=3");
    expect([untracked.status, untracked.body]).toEqual([200, expect.stringContaining("not tracked")]);

    const bad = await text("/badges/ollama/ollama.svg?style=3d");
    expect(bad.status).toBe(422);
    expect(JSON.parse(bad.body).detail.error.message).toBe(
      'style must be one of: flat, flat-square, for-the-badge, plastic, social; got "3d".',
    );
  });

  it("serves pages whatever parameters their links carry, uncounted, and the quota's 429 leads to a key", async () => {
    // a shared link, a sorted leaderboard link, home and docs with a campaign tag: pages, not 422s
    for (const path of [
      "/p/ollama/ollama?utm_source=twitter",
      "/d/agents?sort=stars",
      "/?ref=hn",
      "/docs?utm_medium=email",
      "/compare?projects=ollama--ollama,acme--agentkit&utm_source=x",
    ]) {
      const page = await text(path);
      expect([path, page.status, page.type]).toEqual([path, 200, "text/html; charset=utf-8"]);
    }
    // the JSON API still names an unknown parameter
    const strict = await text("/api/v1/quality?domain=rag&utm_source=twitter");
    expect(strict.status).toBe(422);
    expect(JSON.parse(strict.body).detail.error.message).toContain("utm_source");

    // a person clicking through 40 project pages: never walled off (the quota is 5)
    const slugs = ["ollama/ollama", "acme/agentkit", "oldlab/vecstore", "acme/ragbox"];
    for (let i = 0; i < 40; i++) {
      const page = await get(`/p/${slugs[i % slugs.length]}`);
      await page.arrayBuffer();
      expect([i, page.status]).toEqual([i, 200]);
    }
    // the domain page, home and docs were paid once today each, the 422 once: one request left, then the API refuses
    expect((await get("/api/v1/status")).status).toBe(200);
    const refused = await get("/api/v1/tables");
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe(String(14 * 3600));
    expect(((await refused.json()) as { detail: { error: { message: string } } }).detail.error.message).toBe(
      `The daily quota of ${QUOTA} requests without an API key is used up; it resets at 2026-03-03T00:00:00+00:00 (midnight UTC, in 14 h 0 min). A free API key raises it to 1000 a day (10000 with an e-mail address): create one with POST /api/v1/keys (no body needed; never refused for this quota) and send it as Authorization: Bearer <key>.`,
    );
    // pages and badges still answer a caller over the quota
    expect((await get("/p/acme/ragbox?utm_campaign=launch")).status).toBe(200);
    expect((await get("/badges/acme/ragbox.svg")).status).toBe(200);

    // the way out stays open: a key is created, and it answers at once
    const created = await fetch(`${base}/api/v1/keys`, { method: "POST" });
    expect(created.status).toBe(200);
    const { key } = ((await created.json()) as { data: { key: string } }).data;
    const keyed = await get("/api/v1/tables", { authorization: `Bearer ${key}` });
    expect([keyed.status, keyed.headers.get("x-ratelimit-limit")]).toEqual([200, "1000"]);
  });
  it("answers the not-found page for a comparison of nothing tracked, and says so of feedback about one", async () => {
    const browser = await get("/compare?projects=nope--a,nope--b", {
      accept: "text/html,application/xhtml+xml,*/*;q=0.8",
    });
    expect([browser.status, browser.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
    expect(await browser.text()).toContain("None of these projects is tracked: nope--a, nope--b");
    const json = await get("/compare?projects=nope--a,nope--b");
    expect(json.status).toBe(404);
    // one tracked of two: the page, with the other listed under it
    expect((await get("/compare?projects=ollama--ollama,nope--b")).status).toBe(200);

    // feedback counts against a quota: sent with a key of its own (the anonymous quota may be spent by now)
    const created = await fetch(`${base}/api/v1/keys`, { method: "POST" });
    const { key } = ((await created.json()) as { data: { key: string } }).data;
    const send = async (project: string) => {
      const res = await fetch(`${base}/api/v1/feedback`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
        body: JSON.stringify({ kind: "data", message: "stars look wrong", project }),
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { data: { note?: string } }).data;
    };
    expect((await send("nobody/nothing")).note).toBe(
      "nobody/nothing is not a project this service tracks; the feedback is stored all the same (check the name with /api/v1/projects?q=<name>; a wish to track it is read as one).",
    );
    expect(await send("Ollama/Ollama")).not.toHaveProperty("note");
  });
});
