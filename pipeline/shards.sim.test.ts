// Sharded collection against the simulator over real sockets: one night collected as 3 shards (each on its own copy
// of the state, as separate runners would) and merged gives exactly the public projects rows of the same night
// collected whole; each tracked repository is collected by one shard; an incomplete set is refused or carried.
import { spawnSync } from "node:child_process";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, loadConfig, statePaths } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { type SimServer, startSimServer } from "../sim/index.ts";
import { TOPIC_VOCABULARY } from "../sim/repo-text.ts";
import { startS3Server } from "../test/s3-server.ts";
import { type CollectReport, collect } from "./collect.ts";
import {
  allShards,
  parseShard,
  parseShardCount,
  repositoryKey,
  type Shard,
  shardOf,
  shardPlan,
} from "./schedule/shards.ts";
import { RAW_TABLES, score } from "./score.ts";
import { mergeShards, nightShards, shardConfig, shardPrefix, uploadShard } from "./shards.ts";
import { closeDiscarded } from "./sim-collect.testing.ts";

const FIRST = "2026-10-05";
const NIGHT = "2026-10-06";
const SHARDS = 3;
const CLI = path.join(import.meta.dirname, "..", "bin", "projintel.js");
/** What the simulated world (1,200 repositories, seed 13) holds on NIGHT, and what collecting it cost. */
const WORLD = {
  tracked: 1099,
  trackedPerShard: [402, 347, 344],
  pointsPerShard: [70, 64, 70],
  pointsWhole: 201,
};

interface State {
  dir: string;
  db: Db;
  config: Config;
}

describe("sharded collection", () => {
  let sim: SimServer;
  let base: string;
  let whole: State;
  let merged: State;
  let remote: Storage;
  let remoteDir: string;
  /** The remote without shard 2's done.json: a shard that did not finish. */
  let partial: Storage;
  let wholeReport: CollectReport;
  const shards: State[] = [];
  const shardReports: CollectReport[] = [];
  const temp: string[] = [];

  /** A state folder: a copy of the first night's (a runner that restored it), or a new one. */
  async function openState(from: string | undefined, tokens: string[], restBudget = 100_000): Promise<State> {
    const dir = await mkdtemp(path.join(tmpdir(), "pis-shards-"));
    temp.push(dir);
    if (from) await cp(from, dir, { recursive: true });
    const config = loadConfig({
      env: {},
      overrides: {
        stateDir: dir,
        simUrl: sim.url,
        github: { topics: [...TOPIC_VOCABULARY], tokens, restBudget, statsRetryMs: 1 },
      },
    });
    return { dir, config, db: await openDb(statePaths(config).warehouse) };
  }

  const collectNight = (state: State, runDate: string, shard?: Shard) =>
    collect({
      config: shard ? shardConfig(state.config, shard) : state.config,
      db: state.db,
      logger: silentLogger,
      runDate,
      stateDir: state.dir,
      sleep: async () => {},
      ...(shard ? { shard } : {}),
    });

  const projects = (db: Db) => db.all("SELECT * FROM projects ORDER BY node_id");

  beforeAll(async () => {
    sim = await startSimServer({
      repos: 1200,
      seed: 13,
      date: FIRST,
      anchor: FIRST,
      port: 0,
      logger: silentLogger,
    });
    // distinct tokens per run: the simulator's REST secondary limit (900 a minute) is counted per token
    const first = await openState(undefined, ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8"], 600);
    await collectNight(first, FIRST);
    await score({ db: first.db, runDate: FIRST, logger: silentLogger });
    first.db.close();
    base = first.dir;
    await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });

    whole = await openState(base, ["w1", "w2", "w3"]);
    wholeReport = await collectNight(whole, NIGHT);
    expect(wholeReport.github_activity_stale).toBe(0); // no budget binds, so shards and whole see the same
    await score({ db: whole.db, runDate: NIGHT, logger: silentLogger });

    remoteDir = await mkdtemp(path.join(tmpdir(), "pis-shards-remote-"));
    temp.push(remoteDir);
    remote = createLocalStorage(remoteDir);
    // side by side, as the shards of a night run on separate runners (each restored the same state)
    await Promise.all(
      allShards(SHARDS).map(async (shard) => {
        const state = await openState(base, ["s1", "s2", "s3"]);
        shards[shard.index - 1] = state;
        const collectStartedMs = Date.now();
        const report = await collectNight(state, NIGHT, shard);
        shardReports[shard.index - 1] = report;
        await uploadShard({
          ...state,
          storage: remote,
          runDate: NIGHT,
          shard,
          report,
          logger: silentLogger,
          collectStartedMs,
        });
      }),
    );
    merged = await openState(base, []);
    await mergeShards({
      ...merged,
      storage: remote,
      runDate: NIGHT,
      count: SHARDS,
      carryMissing: false,
      logger: silentLogger,
    });
    await score({ db: merged.db, runDate: NIGHT, logger: silentLogger });
    const partialDir = await mkdtemp(path.join(tmpdir(), "pis-shards-partial-"));
    temp.push(partialDir);
    await cp(remoteDir, partialDir, { recursive: true });
    partial = createLocalStorage(partialDir);
    await partial.delete(`${shardPrefix(NIGHT, { index: 2, count: SHARDS })}done.json`);
  }, 180_000);

  afterAll(async () => {
    for (const state of [whole, merged, ...shards]) if (state) await closeDiscarded(state.db);
    await sim?.close();
    for (const dir of temp) await rm(dir, { recursive: true, force: true });
  });

  it("merges 3 shards into exactly the raw rows and the projects of the night collected whole", async () => {
    for (const table of RAW_TABLES) {
      const rows = (db: Db) =>
        db.all(`SELECT * EXCLUDE (fetched_at) FROM ${table} WHERE run_date = '${NIGHT}' ORDER BY ALL`);
      expect({ table, rows: await rows(merged.db) }).toEqual({ table, rows: await rows(whole.db) });
    }
    const expected = await projects(whole.db);
    expect(expected.length).toBe(WORLD.tracked);
    expect(await projects(merged.db)).toEqual(expected);
  });

  it("collects every tracked repository in exactly one shard, its owner's, and adds up the GraphQL points", async () => {
    const tracked = await whole.db.all<{ node_id: string; full_name: string }>(
      `SELECT node_id, full_name FROM raw_github_repos WHERE run_date = '${FIRST}' ORDER BY node_id`,
    );
    const collectedBy = new Map<string, number[]>();
    for (const shard of allShards(SHARDS)) {
      const file = path.join(remoteDir, shardPrefix(NIGHT, shard), "raw_github_repos.parquet");
      for (const { node_id } of await merged.db.all<{ node_id: string }>(
        `SELECT node_id FROM read_parquet('${file}')`,
      ))
        collectedBy.set(node_id, [...(collectedBy.get(node_id) ?? []), shard.index]);
    }
    const owners = tracked.map((r): [string, number[]] => [
      r.node_id,
      [shardOf(repositoryKey(r.full_name), SHARDS)],
    ]);
    expect(tracked.map((r) => [r.node_id, collectedBy.get(r.node_id)])).toEqual(owners);
    const perShard = allShards(SHARDS).map((s) => owners.filter(([, [i]]) => i === s.index).length);
    expect(perShard).toEqual(WORLD.trackedPerShard);
    // new tonight: found by the discovery of one shard or more, merged to one row each
    const fresh = [...collectedBy].filter(([id]) => !tracked.some((r) => r.node_id === id));
    expect(fresh.length).toBe(WORLD.tracked - tracked.length);
    const { done } = await nightShards(remote, NIGHT, SHARDS);
    const points = done.map((d) => d.collect.github_graphql_points);
    expect(points).toEqual(WORLD.pointsPerShard);
    expect(wholeReport.github_graphql_points).toBe(WORLD.pointsWhole);
  });

  it("hands the shards' new ETag cache entries to the scoring job: its cache then equals the whole run's", async () => {
    const entries = async (dir: string) => {
      const names = (await readdir(path.join(dir, "etags"), { recursive: true })).filter((n) =>
        n.endsWith(".json"),
      );
      return new Map(
        await Promise.all(
          names.map(async (n) => [n, await readFile(path.join(dir, "etags", n), "utf8")] as const),
        ),
      );
    };
    const [before, wholeCache, mergedCache] = await Promise.all([
      entries(base),
      entries(whole.dir),
      entries(merged.dir),
    ]);
    expect(wholeCache.size).toBeGreaterThan(before.size);
    expect([...mergedCache.keys()].sort()).toEqual([...wholeCache.keys()].sort());
    for (const [name, text] of wholeCache) {
      const { url, etag } = JSON.parse(text) as { url: string; etag: string };
      expect(JSON.parse(mergedCache.get(name) ?? "{}"), name).toMatchObject({ url, etag });
    }
  });

  it("keeps every repository in its shard when repositories are added", () => {
    const names = new Map(Array.from({ length: 2000 }, (_, i) => [`id${i}`, `owner${i % 700}/repo${i}`]));
    const plan = { full: [...names.keys()].sort(), light: [], tiers: { hot: 0, warm: 0, cold: 0, new: 0 } };
    const before = allShards(SHARDS).map((s) => shardPlan(plan, names, s).full);
    const more = new Map([
      ...names,
      ...Array.from({ length: 500 }, (_, i) => [`new${i}`, `other${i}/x`] as const),
    ]);
    const grown = { ...plan, full: [...more.keys()].sort() };
    const after = allShards(SHARDS).map((s) => shardPlan(grown, more, s).full.filter((id) => names.has(id)));
    expect(after).toEqual(before);
    expect(before.flat().sort()).toEqual(plan.full);
    for (const share of before) expect(share.length).toBeGreaterThan(2000 / SHARDS / 1.25);
  });

  it("refuses an incomplete set, naming the missing shard, and leaves the night's rows alone", async () => {
    const state = await openState(base, []);
    await expect(
      mergeShards({
        ...state,
        storage: partial,
        runDate: NIGHT,
        count: SHARDS,
        carryMissing: false,
        logger: silentLogger,
      }),
    ).rejects.toThrow(`Refusing to score ${NIGHT}: 1 of 3 shards did not finish (2-of-3: no done.json`);
    const [row] = await state.db.all<{ n: number }>(
      `SELECT count(*) AS n FROM raw_github_repos WHERE run_date = '${NIGHT}'`,
    );
    expect(row?.n).toBe(0);
  });

  it("with --carry-missing scores the others and flags the missing shard's repositories as carried", async () => {
    const state = await openState(base, []);
    const { report } = await mergeShards({
      ...state,
      storage: partial,
      runDate: NIGHT,
      count: SHARDS,
      carryMissing: true,
      logger: silentLogger,
    });
    expect(report).toMatchObject({ merged: ["1-of-3", "3-of-3"], carried: ["2-of-3"] });
    expect(report.carried_repositories).toBe(WORLD.trackedPerShard[1]);
    await score({ db: state.db, runDate: NIGHT, logger: silentLogger });
    const carried = await state.db.all<{
      node_id: string;
      full_name: string;
      stars: number;
      is_stale: boolean;
    }>("SELECT node_id, full_name, stars, is_stale FROM projects WHERE is_carried ORDER BY node_id");
    expect(carried.length).toBe(WORLD.trackedPerShard[1]);
    expect(carried.every((p) => p.is_stale && shardOf(repositoryKey(p.full_name), SHARDS) === 2)).toBe(true);
    // their values are the first night's
    const first = await whole.db.all<{
      node_id: string;
      full_name: string;
      stars: number;
      is_stale: boolean;
    }>(
      `SELECT node_id, full_name, stars, true AS is_stale FROM raw_github_repos WHERE run_date = '${FIRST}' ORDER BY node_id`,
    );
    expect(carried).toEqual(first.filter((r) => carried.some((c) => c.node_id === r.node_id)));
  });

  it("merges the same shards through an S3-compatible server (s3rver) to the same projects", async () => {
    const s3 = await startS3Server();
    try {
      await s3.bucket("projintel-shards");
      const bucket = s3.storage("projintel-shards", "nightly");
      await Promise.all(
        shards.map((state, i) =>
          uploadShard({
            ...state,
            storage: bucket,
            runDate: NIGHT,
            shard: { index: i + 1, count: SHARDS },
            report: shardReports[i] as CollectReport,
            logger: silentLogger,
          }),
        ),
      );
      expect(await bucket.list(shardPrefix(NIGHT, { index: 1, count: SHARDS }))).toEqual(
        [...RAW_TABLES.map((t) => `${t}.parquet`), "etags.ndjson", "done.json"]
          .map((f) => `${shardPrefix(NIGHT, { index: 1, count: SHARDS })}${f}`)
          .sort(),
      );
      const state = await openState(base, []);
      await mergeShards({
        ...state,
        storage: bucket,
        runDate: NIGHT,
        count: SHARDS,
        carryMissing: false,
        logger: silentLogger,
      });
      await score({ db: state.db, runDate: NIGHT, logger: silentLogger });
      expect(await projects(state.db)).toEqual(await projects(whole.db));
    } finally {
      await s3.stop();
    }
  });

  it("parses --shard i/n and refuses what is not a shard", () => {
    expect(parseShard("2/3")).toEqual({ index: 2, count: 3 });
    expect(parseShard("64/64")).toEqual({ index: 64, count: 64 });
    expect(() => parseShard("0/3")).toThrow(
      "--shard 0/3: the shard number must be 1 to 3 (shards are 1-based).",
    );
    expect(() => parseShard("4/3")).toThrow(
      "--shard 4/3: the shard number must be 1 to 3 (shards are 1-based).",
    );
    expect(() => parseShard("1/65")).toThrow("--shard 1/65: the shard count must be 1 to 64.");
    expect(() => parseShard("x")).toThrow('--shard must be i/n, got "x".');
    expect(() => parseShardCount("0")).toThrow('--shards must be a whole number from 1 to 64, got "0".');
    const cli = spawnSync(process.execPath, [CLI, "collect", "--shard", "4/3"], { encoding: "utf8" });
    expect(cli.status).toBe(2);
    expect(cli.stderr).toContain("--shard 4/3: the shard number must be 1 to 3");
  });
});
