// The charts of the pages for people, over real HTTP from a published release whose history is made to mislead: a
// project whose downloads were read on one night of 90, a dormant one gaining 3 stars on 4,173, and a leaderboard
// where a project gaining 1 star sits beside one that grew by a tenth. Each is drawn as it is.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../api-shim/app.ts";
import { openEmbeddedQuotaStore } from "../api-shim/quota/quota.ts";
import { openReleaseReader } from "../api-shim/release-reader.ts";
import { listenOnLoopback } from "../api-shim/testing.ts";
import { loadConfig } from "../core/config.ts";
import { createLocalStorage } from "../core/storage.ts";
import { publishRelease } from "../publish/release.ts";
import { FIXTURE_ROWS, fixtureDb } from "../publish/testing.ts";

const RUN_DATE = "2026-11-01";

/** 90 nights of stars to RUN_DATE for a project of the fixture's public tables, from `from` to `to`, evenly. */
function nights(node: string, fullName: string, from: number, to: number): string {
  return `INSERT INTO snapshots (date, node_id, full_name, stars, downloads_monthly)
    SELECT DATE '${RUN_DATE}' - 89 + i::INTEGER, '${node}', '${fullName}', ${from} + floor(i * ${to - from} / 89)::INTEGER, 0
    FROM range(90) t(i)`;
}

describe("charts that do not mislead", () => {
  let root: string;
  let base: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "charts-"));
    const storage = createLocalStorage(root, { syncObjects: false });
    const db = await fixtureDb(FIXTURE_ROWS, RUN_DATE);
    try {
      // agents: langchain grows 100,000 → 110,000 stars, agentkit 5,000 → 5,001; vecstore is dormant at 4,173 → 4,176;
      // the registries were read on the last night alone, when ollama counted 90 downloads
      await db.run("DELETE FROM snapshots WHERE node_id IN ('R_2', 'R_3')");
      await db.run(nights("R_2", "langchain-ai/langchain", 100_000, 110_000));
      await db.run(nights("R_3", "acme/agentkit", 5000, 5001));
      await db.run(nights("R_5", "oldlab/vecstore", 4173, 4176));
      await db.run("UPDATE snapshots SET downloads_monthly = 0");
      await db.run(
        `UPDATE snapshots SET downloads_monthly = 90 WHERE node_id = 'R_1' AND date = DATE '${RUN_DATE}'`,
      );
      const config = loadConfig({ overrides: { stateDir: root } });
      const created = new Date(`${RUN_DATE}T04:00:00Z`);
      await publishRelease({ db, storage, config, clock: { now: () => created }, force: true });
    } finally {
      db.close();
    }
    const release = await openReleaseReader({ storage, checkEveryMs: 0 });
    const quotas = await openEmbeddedQuotaStore();
    const app = buildApp({ config: loadConfig({ overrides: { stateDir: root } }), release, quotas });
    base = `http://127.0.0.1:${await listenOnLoopback(app)}`;
    close = async () => {
      await app.close();
      release.close();
      await quotas.close();
    };
  }, 120_000);
  afterAll(async () => {
    await close?.();
    await rm(root, { recursive: true, force: true });
  });

  const page = async (url: string) => {
    const res = await fetch(`${base}${url}`);
    expect(res.status).toBe(200);
    return res.text();
  };
  /** The chart of a page whose <title> starts with `title`. */
  const chartOf = (html: string, title: string) => {
    const at = html.indexOf(`<title>${title}`);
    expect(at, title).toBeGreaterThan(0);
    return html.slice(html.lastIndexOf("<svg", at), html.indexOf("</svg>", at));
  };
  const ticks = (svg: string) => [...svg.matchAll(/dy="4"[^>]*>([^<]+)</g)].map((m) => m[1]);

  it("draws a project's one known downloads figure as a dot with its value", async () => {
    const html = await page("/p/ollama/ollama");
    const downloads = chartOf(html, "Monthly downloads of ollama/ollama");
    expect(
      downloads.match(/<circle class="point" data-series="downloads" cx="628" cy="[\d.]+" r="3.5"/g),
    ).toHaveLength(1);
    expect(downloads).toContain('text-anchor="end" fill="#d55e00"');
    expect(downloads).toContain(">90</text>");
  });

  it("starts a dormant project's stars axis at zero", async () => {
    const stars = chartOf(await page("/p/oldlab/vecstore"), "Stars of oldlab/vecstore");
    expect(ticks(stars)).toEqual(["0", "2k", "4k", "6k"]);
    expect(stars).not.toContain("axis-break");
  });

  it("draws a leaderboard's trend lines on one scale, so a project gaining 1 star reads flat", async () => {
    const html = await page("/d/agents");
    const line = (name: string) => {
      const row = html.slice(html.indexOf(`>${name}</a>`));
      const d = /<path d="([^"]+)"/.exec(row)?.[1] ?? "";
      return [...d.matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => Number(m[1]));
    };
    const flat = line("acme/agentkit");
    const rising = line("langchain-ai/langchain");
    expect(flat).toHaveLength(90);
    // 24 px high, 2 px padding: +0.02% stays on the bottom line, +10% climbs to the top
    expect([Math.min(...flat), Math.max(...flat)]).toEqual([22, 22]);
    expect([Math.max(...rising), Math.min(...rising)]).toEqual([22, 2]);
    expect(html).toContain("The trend lines share one scale");
    expect(html).toContain("Stars of acme/agentkit, 90 nights to 2026-11-01: 5,000 to 5,001 (+0%)");
  });
});
