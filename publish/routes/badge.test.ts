// The badges over a simulated world's release: /badges/{owner}/{repo}.svg, /trend.svg and .json say what the
// warehouse says, a repository not tracked gets a grey "not tracked" image (200), and no badge is ever counted —
// through Fastify (inject) and over a real socket, where repeated URLs take the fast path — even past the quota.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../api-shim/app.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "../../api-shim/quota/quota.ts";
import { openReleaseReader, type ReleaseReader } from "../../api-shim/release-reader.ts";
import { listenOnLoopback } from "../../api-shim/testing.ts";
import { loadConfig } from "../../core/config.ts";
import { openDb } from "../../core/db.ts";
import { createLocalStorage } from "../../core/storage.ts";
import { badgeSideWidth } from "../../core/svg/badge.ts";
import { formatCompact } from "../../core/svg/scale.ts";
import { type SimRelease, sharedSimRelease } from "../../test/sim-release.ts";
import { STAGE_COLORS, TIER_COLORS } from "../badges.ts";

interface Row {
  full_name: string;
  owner: string;
  name: string;
  quality_score: number;
  quality_tier: keyof typeof TIER_COLORS;
  lifecycle_stage: keyof typeof STAGE_COLORS;
  stars_7d_delta: number | null;
}

describe("the badges", () => {
  let release: SimRelease;
  let reader: ReleaseReader;
  let quotas: QuotaStore;
  let app: ReturnType<typeof buildApp>;
  let base: string;
  let rows: Row[];
  const QUOTA = 3;

  beforeAll(async () => {
    release = await sharedSimRelease();
    const db = await openDb(path.join(release.stateDir, "warehouse.duckdb"), { readOnly: true });
    try {
      rows = await db.all<Row>(
        `SELECT full_name, owner, name, quality_score::INTEGER AS quality_score, quality_tier, lifecycle_stage,
           stars_7d_delta::INTEGER AS stars_7d_delta
         FROM projects ORDER BY quality_score DESC, full_name`,
      );
    } finally {
      db.close();
    }
    reader = await openReleaseReader({
      storage: createLocalStorage(release.stateDir, { syncObjects: false }),
      checkEveryMs: 0,
    });
    quotas = await openEmbeddedQuotaStore();
    const config = loadConfig({ overrides: { stateDir: release.stateDir, quota: { anonymous: QUOTA } } });
    app = buildApp({ config, release: reader, quotas });
    base = `http://127.0.0.1:${await listenOnLoopback(app)}`;
  }, 600_000);
  afterAll(async () => {
    await app?.close();
    reader?.close();
    await quotas?.close();
    await release?.cleanup();
  });

  it("says each project's score and tier, coloured by tier, fitted to its text", async () => {
    // one of each tier the world has, and the top project
    const picked = [...new Map(rows.map((r) => [r.quality_tier, r])).values()];
    expect(picked.length).toBeGreaterThan(1);
    for (const row of picked) {
      const res = await app.inject({ url: `/badges/${row.owner}/${row.name}.svg` });
      expect([res.statusCode, res.headers["content-type"], res.headers["cache-control"]]).toEqual([
        200,
        "image/svg+xml",
        "public, max-age=3600",
      ]);
      const message = `${row.quality_score} ${row.quality_tier}`;
      expect(res.body).toContain(`<title>AI quality: ${message}</title>`);
      expect(res.body).toContain(`fill="${TIER_COLORS[row.quality_tier].hex}"`);
      const width = badgeSideWidth("AI quality") + badgeSideWidth(message);
      expect(res.body).toContain(`width="${width}" height="20"`);
    }
  });

  it("answers owner/repo in any case, and the trend badge and the shields.io document", async () => {
    const row = rows[0] as Row;
    const upper = await app.inject({ url: `/badges/${row.owner.toUpperCase()}/${row.name}.svg` });
    expect(upper.body).toContain(`AI quality: ${row.quality_score} ${row.quality_tier}`);
    const trend = await app.inject({ url: `/badges/${row.owner}/${row.name}/trend.svg` });
    const gained = row.stars_7d_delta === null ? "n/a" : `+${formatCompact(row.stars_7d_delta)}`;
    expect(trend.statusCode).toBe(200);
    expect(trend.body).toContain(`<title>stars 7d: ${gained} ${row.lifecycle_stage}</title>`);
    expect(trend.body).toContain(`fill="${STAGE_COLORS[row.lifecycle_stage].hex}"`);
    const json = await app.inject({ url: `/badges/${row.owner}/${row.name}.json` });
    expect(json.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(json.json()).toEqual({
      schemaVersion: 1,
      label: "AI quality",
      message: `${row.quality_score} ${row.quality_tier}`,
      color: TIER_COLORS[row.quality_tier].name,
      cacheSeconds: 3600,
    });
  });

  it('draws a grey "not tracked" badge, 200, for a repository not tracked', async () => {
    for (const url of ["/badges/nobody/nothing.svg", "/badges/nobody/nothing/trend.svg"]) {
      const res = await app.inject({ url });
      expect([res.statusCode, res.headers["content-type"]]).toEqual([200, "image/svg+xml"]);
      expect(res.body).toContain(": not tracked</title>");
      expect(res.body).toContain('fill="#9f9f9f"');
    }
    const json = await app.inject({ url: "/badges/nobody/nothing.json" });
    expect(json.json()).toMatchObject({ message: "not tracked", color: "lightgrey" });
  });

  it("refuses a name GitHub would not allow, naming the rule", async () => {
    const res = await app.inject({ url: "/badges/bad%20owner/x.svg" });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail.error.message).toContain("owner");
  });

  it("gives each project detail the Markdown to paste", async () => {
    const row = rows[0] as Row;
    const res = await app.inject({ url: `/api/v1/projects/${row.owner}/${row.name}` });
    expect(res.json().data.badge_markdown).toBe(
      `[![AI quality](http://localhost:8787/badges/${row.owner}/${row.name}.svg)](http://localhost:8787/p/${row.owner}/${row.name})`,
    );
  });
  it("counts no badge against the quota, past it and over a real socket (the fast path)", async () => {
    const row = rows[1] as Row;
    const url = `${base}/badges/${row.owner}/${row.name}.svg`;
    const served = app.preparedAnswers.served;
    const remaining: string[] = [];
    for (let i = 0; i < 3 * QUOTA; i++) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      remaining.push(res.headers.get("x-ratelimit-remaining") ?? "");
    }
    // the caller's standing, shown and never charged (the earlier tests' 422 and detail were counted)
    const left = Number(remaining[0]);
    expect(left).toBeGreaterThan(0);
    expect(new Set(remaining)).toEqual(new Set([String(left)]));
    expect(app.preparedAnswers.served - served).toBeGreaterThan(0);
    // the API itself still counts: the requests left, then 429 — and badges are served after it
    for (let i = 0; i < left; i++) expect((await fetch(`${base}/api/v1/status`)).status).toBe(200);
    expect((await fetch(`${base}/api/v1/status`)).status).toBe(429);
    const after = await fetch(url);
    expect([after.status, after.headers.get("x-ratelimit-remaining")]).toEqual([200, "0"]);
    const fresh = await fetch(`${base}/badges/${row.owner}/${row.name}.json`);
    expect(fresh.status).toBe(200);
  });
});
