// npm collect against the simulator over real sockets: every package named after a tracked repository
// (name or @owner/name) whose packument links back is kept, with last month's downloads as the sim counts
// them; unscoped names go in bulk, scoped ones alone; injected 5xx, rate limits and malformed bodies are
// retried or quarantined.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SimServer, startSimServer } from "../../../sim/index.ts";
import { linksOf } from "../../../sim/links.ts";
import { npmDailyDownloads, npmDownloadsBetween } from "../../../sim/npm/downloads.ts";
import { npmFirstPublish } from "../../../sim/npm/packument.ts";
import { rowsOf, runCollect, simRepoRefs, testContext } from "../testing.ts";
import type { RepoRef } from "../types.ts";
import { fetchDaily } from "./downloads.ts";
import { NEW_PACKAGE_DAYS, npm } from "./index.ts";
import { candidateNames } from "./repository.ts";

const RUN_DATE = "2026-03-01";
const TODAY = Date.parse(`${RUN_DATE}T00:00:00Z`) / 86_400_000;
let sim: SimServer;
const dirs: string[] = [];

beforeAll(async () => {
  sim = await startSimServer({ repos: 300, seed: 11, date: RUN_DATE, port: 0 });
});
afterAll(async () => {
  await sim.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const repos = (): RepoRef[] => simRepoRefs(sim.world);

function expectedPackages(refs: readonly RepoRef[]): Map<string, { repo: string; downloads: number }> {
  const { world } = sim;
  const expected = new Map<string, { repo: string; downloads: number }>();
  refs.forEach((ref, i) => {
    const name = linksOf(world).npmName(i);
    if (!name || !candidateNames(ref).includes(name) || npmFirstPublish(world, i) > TODAY) return;
    expected.set(name, {
      repo: ref.full_name.toLowerCase(),
      downloads: npmDownloadsBetween(world, i, TODAY - 30, TODAY - 1),
    });
  });
  return expected;
}

async function setFaults(faults: object): Promise<void> {
  await fetch(`${sim.url}/_sim/faults`, { method: "POST", body: JSON.stringify(faults) });
}

async function collectFresh(retries = 0) {
  const stateDir = await mkdtemp(path.join(tmpdir(), "npm-sim-"));
  dirs.push(stateDir);
  const test = testContext({
    stateDir,
    runDate: RUN_DATE,
    urls: { npm: `${sim.url}/npm`, npmDownloads: `${sim.url}/npm-downloads` },
    repos: repos(),
    simulated: true,
    retries,
  });
  const items = await runCollect(npm, test.ctx);
  const packages = Object.fromEntries(
    rowsOf(items, "raw_npm_packages.").map((r) => [r.package, r.repo_full_name]),
  );
  const downloads = Object.fromEntries(
    rowsOf(items, "raw_npm_downloads.").map((r) => [r.package, r.downloads]),
  );
  return { ...test, packages, downloads };
}

describe("npm collect against the simulator", () => {
  it("keeps exactly the linked packages and their last-month downloads", async () => {
    const refs = repos();
    const expected = expectedPackages(refs);
    // JS/TS repositories publish to npm more often the bigger they are: a few of the 300
    expect(expected.size).toBeGreaterThan(5);
    expect([...expected.keys()].some((n) => n.startsWith("@"))).toBe(true);
    const { ctx, quarantined, packages, downloads } = await collectFresh();
    expect(packages).toEqual(Object.fromEntries([...expected].map(([name, e]) => [name, e.repo])));
    expect(downloads).toEqual(Object.fromEntries([...expected].map(([name, e]) => [name, e.downloads])));
    expect(quarantined).toEqual([]);
    const scoped = [...expected.keys()].filter((n) => n.startsWith("@")).length;
    expect(ctx.http.stats().bySource.npm?.requests).toBe(refs.length * 2 + 1 + scoped);
  });

  it("gets the same rows through 5xx answers and rate limits, by retrying", async () => {
    await setFaults({ rate: 0.2, kinds: ["5xx", "rate_limit"], seed: 3 });
    try {
      const expected = expectedPackages(repos());
      const { ctx, packages, downloads } = await collectFresh(10);
      expect(packages).toEqual(Object.fromEntries([...expected].map(([name, e]) => [name, e.repo])));
      expect(downloads).toEqual(Object.fromEntries([...expected].map(([name, e]) => [name, e.downloads])));
      expect(ctx.http.stats().bySource.npm?.retries).toBeGreaterThan(50);
    } finally {
      await setFaults({ rate: 0 });
    }
  });

  it("quarantines malformed answers it cannot read, naming the URL, and keeps every row it can", async () => {
    await setFaults({ rate: 0.3, kinds: ["malformed"], seed: 5 });
    try {
      const expected = expectedPackages(repos());
      const { packages, downloads, quarantined } = await collectFresh(10);
      const urls = quarantined.map((q) => decodeURIComponent(q.url));
      for (const [name, e] of expected) {
        // A package is missing only when its packument or its downloads answer was quarantined.
        if (packages[name] === undefined) expect(urls.some((u) => u.endsWith(`/npm/${name}`))).toBe(true);
        else expect(packages[name]).toBe(e.repo);
        if (packages[name] !== undefined && downloads[name] === undefined)
          expect(urls.some((u) => u.includes("/npm-downloads/") && u.includes(name))).toBe(true);
        else if (downloads[name] !== undefined) expect(downloads[name]).toBe(e.downloads);
      }
      expect(Object.keys(packages).length).toBeGreaterThan(expected.size / 2);
      expect(quarantined.length).toBeGreaterThan(0);
    } finally {
      await setFaults({ rate: 0 });
    }
  });

  it("fetches a daily series for one package, scoped names included", async () => {
    const { world } = sim;
    const refs = repos();
    const i = refs.findIndex(
      (_, k) => linksOf(world).npmName(k)?.startsWith("@") && npmFirstPublish(world, k) < TODAY - 7,
    );
    const name = linksOf(world).npmName(i) as string;
    const stateDir = await mkdtemp(path.join(tmpdir(), "npm-sim-"));
    dirs.push(stateDir);
    const { ctx } = testContext({
      stateDir,
      runDate: RUN_DATE,
      urls: { npmDownloads: `${sim.url}/npm-downloads` },
      repos: [],
    });
    const rows = await fetchDaily(ctx, [name], "2026-02-22", "2026-02-28");
    ctx.http.close();
    expect(rows.map((r) => [r.package, r.start_date, r.downloads])).toEqual(
      Array.from({ length: 7 }, (_, d) => [
        name,
        `2026-02-${22 + d}`,
        npmDailyDownloads(world, i, TODAY - 7 + d),
      ]),
    );
  });

  it("adds 30 days of daily downloads for packages no earlier run has seen", async () => {
    const { world } = sim;
    const expected = [...expectedPackages(repos()).keys()];
    const fresh = [
      ...expected.filter((n) => !n.startsWith("@")).slice(0, 3),
      expected.find((n) => n.startsWith("@")),
    ];
    const stateDir = await mkdtemp(path.join(tmpdir(), "npm-sim-"));
    dirs.push(stateDir);
    const { ctx } = testContext({
      stateDir,
      runDate: RUN_DATE,
      urls: { npm: `${sim.url}/npm`, npmDownloads: `${sim.url}/npm-downloads` },
      repos: repos(),
    });
    ctx.history = {
      latest: async (_table, _key, _columns, keys) =>
        (keys ?? []).filter((k) => !fresh.includes(k)).map((k) => ({ package: k })),
    };
    const daily = rowsOf(await runCollect(npm, ctx), "raw_npm_downloads.").filter(
      (r) => r.start_date === r.end_date,
    );
    const series = (name: string) => {
      const i = linksOf(world).findNpm(name) as number;
      return Array.from({ length: NEW_PACKAGE_DAYS }, (_, d) => npmDailyDownloads(world, i, TODAY - 30 + d));
    };
    expect(fresh.map((name) => daily.filter((r) => r.package === name).map((r) => r.downloads))).toEqual(
      fresh.map((name) => series(name as string)),
    );
    expect(daily).toHaveLength(4 * NEW_PACKAGE_DAYS);
  });
});
