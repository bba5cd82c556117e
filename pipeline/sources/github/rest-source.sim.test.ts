// The github_rest source end to end through collect() against the simulator over real sockets: on the first
// night every repository is new, so each gets its last 30 days of star counts (exact against the world) and
// its activity; the same night again resumes every batch without a request; the next night only repositories
// new that night are bootstrapped; a small budget goes to the star bootstrap first. The sim's per-minute
// secondary limit is lifted because tests do not wait (rest-client.sim.test.ts covers the limit itself).
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../core/config.ts";
import { type Db, openDb } from "../../../core/db.ts";
import { silentLogger } from "../../../core/log.ts";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { stars, starsBase } from "../../../sim/metrics.ts";
import { TOPIC_VOCABULARY } from "../../../sim/repo-text.ts";
import { type CollectReport, collect } from "../../collect.ts";
import { REST_REQUESTS_PER_REPO_MAX } from "./activity.ts";
import { github } from "./index.ts";
import { githubRest } from "./rest-source.ts";
import { MAX_PAGES, STAR_HISTORY_DAYS } from "./stargazers.ts";

const RUN_DATE = "2026-03-01";
const NOW = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
const dayText = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
let sim: SimServer;
const dirs: string[] = [];
const dbs: Db[] = [];

beforeAll(async () => {
  sim = await startSimServer({
    repos: 300,
    seed: 11,
    date: RUN_DATE,
    port: 0,
    rest: { perMinute: 1_000_000 },
  });
});
afterAll(async () => {
  for (const db of dbs) db.close();
  await sim.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function warehouse(): Promise<{ stateDir: string; db: Db }> {
  const stateDir = await mkdtemp(path.join(tmpdir(), "projintel-rest-source-"));
  dirs.push(stateDir);
  const db = await openDb(path.join(stateDir, "warehouse.duckdb"));
  dbs.push(db);
  return { stateDir, db };
}

function night(stateDir: string, db: Db, runDate: string, restBudget: number): Promise<CollectReport> {
  const config = loadConfig({
    overrides: { simUrl: sim.url, stateDir, github: { topics: [...TOPIC_VOCABULARY], restBudget } },
  });
  return collect({
    config,
    db,
    logger: silentLogger,
    runDate,
    stateDir,
    sleep: async () => {},
    sources: [github, githubRest],
  });
}

/** The star rows the source should write for world repository i on the night `now`, from the world alone. */
function expectedStars(i: number, now: number): { day: string; stars: number }[] {
  const listed = stars(sim.world, i, now);
  const last = Math.max(1, Math.ceil(listed / 100));
  if (last * 100 >= 40_000) return [];
  // Page 1, then at most MAX_PAGES pages back from the last: the oldest star read is the first of the
  // earliest page read, and a day is reached when that star came before the day began.
  const oldestRead = last <= MAX_PAGES + 1 ? 1 : (last - MAX_PAGES) * 100 + 1;
  const out: { day: string; stars: number }[] = [];
  for (let day = now - STAR_HISTORY_DAYS; day < now; day++) {
    const base = starsBase(sim.world, i, day);
    if (oldestRead > 1 && base < oldestRead) continue;
    out.push({ day: dayText(day), stars: Math.min(listed, base) });
  }
  return out;
}

async function starRows(db: Db, runDate: string): Promise<Map<string, { day: string; stars: number }[]>> {
  const rows = await db.all<{ node_id: string; day: string; stars: number }>(
    "SELECT node_id, strftime(day, '%Y-%m-%d') AS day, stars::INTEGER AS stars FROM raw_github_stars WHERE run_date = ?::DATE ORDER BY node_id, day",
    [runDate],
  );
  const out = new Map<string, { day: string; stars: number }[]>();
  for (const { node_id, day, stars } of rows) out.set(node_id, [...(out.get(node_id) ?? []), { day, stars }]);
  return out;
}

const fullIds = async (db: Db, runDate: string) =>
  (
    await db.all<{ node_id: string }>(
      "SELECT node_id FROM raw_github_repos WHERE run_date = ?::DATE AND details_as_of = ?::DATE ORDER BY node_id",
      [runDate, runDate],
    )
  ).map((r) => r.node_id);

const count = async (db: Db, table: string, runDate: string) =>
  Number(
    (
      await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table} WHERE run_date = ?::DATE`, [
        runDate,
      ])
    )[0]?.n,
  );

/** Rows of the full activity (the contributor rotation's rows hold the count only). */
const fullActivity = async (db: Db, runDate: string) =>
  Number(
    (
      await db.all<{ n: number }>(
        "SELECT count(*)::INTEGER AS n FROM raw_github_activity WHERE run_date = ?::DATE AND (commit_weeks IS NOT NULL OR issues_sampled IS NOT NULL)",
        [runDate],
      )
    )[0]?.n,
  );

describe("a small REST budget", () => {
  it("goes to the star bootstrap first and leaves activity what is left, never spending more", async () => {
    const { stateDir, db } = await warehouse();
    const budget = 60;
    const report = await night(stateDir, db, RUN_DATE, budget);
    const rest = report.sources[1];
    expect(rest?.status).toBe("ok");
    expect(report.github_rest_requests).toBeLessThanOrEqual(budget);
    const starred = (await starRows(db, RUN_DATE)).size;
    const activity = await fullActivity(db, RUN_DATE);
    expect(starred).toBeGreaterThan(0);
    expect(activity).toBeLessThan(Math.floor(budget / REST_REQUESTS_PER_REPO_MAX));
    const full = (await fullIds(db, RUN_DATE)).length;
    expect(report.github_activity_stale).toBe(full - activity);
  }, 120_000);

  it("is spent once a night however the night is interrupted: a resumed run plans the rest as the first did", async () => {
    const nodes = async (db: Db, table: string) =>
      (
        await db.all<{ node_id: string }>(
          `SELECT DISTINCT node_id FROM ${table} WHERE run_date = ?::DATE ORDER BY node_id`,
          [RUN_DATE],
        )
      ).map((r) => r.node_id);
    const budget = 600;
    const whole = await warehouse();
    await night(whole.stateDir, whole.db, RUN_DATE, budget);
    const stars = await nodes(whole.db, "raw_github_stars");
    const activity = await nodes(whole.db, "raw_github_activity");
    // Killed after the first star batch: the later star batches and every activity batch are still to do.
    const cut = await warehouse();
    await night(cut.stateDir, cut.db, RUN_DATE, budget);
    const folder = path.join(cut.stateDir, "runs", RUN_DATE, "batches", "github_rest");
    const saved = (await readdir(folder)).sort();
    const starFiles = saved.filter((f) => f.startsWith("raw_github_stars."));
    expect(starFiles.length).toBeGreaterThan(1);
    for (const file of [...starFiles.slice(1), ...saved.filter((f) => f.startsWith("raw_github_activity."))])
      await rm(path.join(folder, file));
    const resumed = await night(cut.stateDir, cut.db, RUN_DATE, budget);
    expect(resumed.sources[1]?.batches_resumed).toBe(1);
    expect(resumed.github_rest_requests).toBeLessThanOrEqual(budget);
    expect(await nodes(cut.db, "raw_github_stars")).toEqual(stars);
    // The saved star batch's cost was noted beside it, so activity gets at least what it got uninterrupted: the
    // same stalest first, and the answers the killed invocation cached come back as free 304s, so its waves may
    // reach a few repositories further.
    const resumedActivity = await nodes(cut.db, "raw_github_activity");
    expect(activity.filter((id) => !resumedActivity.includes(id))).toEqual([]);
  }, 120_000);
});

describe("the github_rest source through collect()", () => {
  let stateDir = "";
  let db: Db;
  let first: CollectReport;
  const index = new Map<string, number>();

  beforeAll(async () => {
    ({ stateDir, db } = await warehouse());
    for (let i = 0; i < sim.world.size; i++) index.set(sim.world.nodeId(i), i);
    first = await night(stateDir, db, RUN_DATE, 100_000);
  }, 120_000);

  it("writes the last 30 days of star counts of every new repository, exactly as the world has them", async () => {
    expect(first.sources.map((s) => [s.source, s.status])).toEqual([
      ["github", "ok"],
      ["github_rest", "ok"],
    ]);
    const full = await fullIds(db, RUN_DATE);
    expect(full.length).toBeGreaterThan(200);
    const got = await starRows(db, RUN_DATE);
    let whole = 0;
    for (const nodeId of full) {
      const i = index.get(nodeId) as number;
      const expected = expectedStars(i, NOW);
      expect([nodeId, got.get(nodeId) ?? []]).toEqual([nodeId, expected]);
      if (expected.length === STAR_HISTORY_DAYS) whole++;
    }
    expect(whole).toBeGreaterThan(full.length / 2);
    expect(first.sources[1]?.table_rows.raw_github_stars).toBe([...got.values()].flat().length);
  });

  it("gives the 7- and 30-day star deltas of the first night by joining the star rows on the run date", async () => {
    const deltas = await db.all<{ node_id: string; d7: number; d30: number }>(
      `SELECT r.node_id, (r.stars - s7.stars)::INTEGER AS d7, (r.stars - s30.stars)::INTEGER AS d30
       FROM raw_github_repos r
       JOIN raw_github_stars s7 ON s7.node_id = r.node_id AND s7.day = r.run_date - INTERVAL 7 DAY
       JOIN raw_github_stars s30 ON s30.node_id = r.node_id AND s30.day = r.run_date - INTERVAL 30 DAY
       WHERE r.run_date = ?::DATE ORDER BY r.node_id`,
      [RUN_DATE],
    );
    expect(deltas.length).toBeGreaterThan(100);
    for (const { node_id, d7, d30 } of deltas) {
      const i = index.get(node_id) as number;
      const now = stars(sim.world, i, NOW);
      const ago = (days: number) => Math.min(now, starsBase(sim.world, i, NOW - days));
      expect([node_id, d7, d30]).toEqual([node_id, now - ago(7), now - ago(30)]);
    }
    expect(deltas.some((d) => d.d30 > 0)).toBe(true);
  });

  it("writes the activity of every repository refreshed in full, within the budget", async () => {
    const full = await fullIds(db, RUN_DATE);
    expect(await count(db, "raw_github_activity", RUN_DATE)).toBe(full.length);
    expect(first.github_activity_stale).toBe(0);
    expect(first.github_rest_requests).toBe(first.requests.github_rest);
    expect(first.github_rest_requests).toBeGreaterThan(full.length * 3);
  });

  it("resumes the same night from the saved batches without a single REST request", async () => {
    const again = await night(stateDir, db, RUN_DATE, 100_000);
    const rest = again.sources[1];
    expect([rest?.status, rest?.requests, rest?.batches_fetched]).toEqual(["ok", 0, 0]);
    expect(rest?.batches_resumed).toBe(
      (first.sources[1]?.batches_fetched ?? 0) + (first.sources[1]?.batches_resumed ?? 0),
    );
    expect(again.github_rest_requests).toBe(0);
    expect(rest?.table_rows).toEqual(first.sources[1]?.table_rows);
  });

  it("bootstraps on the next night only the repositories that have no earlier row", async () => {
    await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    const next = dayText(NOW + 1);
    const report = await night(stateDir, db, next, 100_000);
    expect(report.sources[1]?.status).toBe("ok");
    const known = new Set(await fullIds(db, RUN_DATE));
    const fresh = (await fullIds(db, next)).filter((id) => !known.has(id));
    const got = await starRows(db, next);
    expect([...got.keys()].sort()).toEqual(
      fresh.filter((id) => expectedStars(index.get(id) as number, NOW + 1).length > 0).sort(),
    );
    for (const id of fresh)
      expect(got.get(id) ?? []).toEqual(expectedStars(index.get(id) as number, NOW + 1));
  }, 120_000);
});
