// The flat restore, on a real s3rver: four replayed nights (the first writes the warehouse snapshot) pushed to a
// bucket; `state pull --recent` into an empty folder downloads the snapshot and the three nights after it, leaves
// the first night's history on the remote (the snapshot's night), and builds a warehouse equal table by table to the
// one the nights were scored on; scoring the last night again on it gives the same public tables as on a warehouse rebuilt from the
// whole history. A newer snapshot replaces the old one in the index and the bucket, and the history there stays
// complete; a push that stops midway through a new snapshot leaves the index naming the old one whole. A collect job's
// pull (--raw-only) restores the raw tables alone, equal to the whole restore's; collecting runs on that warehouse,
// scoring refuses it, and a whole pull replaces it.
import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openWarehouse } from "../cli/context.ts";
import { type Config, statePaths } from "../core/config.ts";
import { type Db, openDb, sqlLiteral } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import type { Storage } from "../core/storage.ts";
import { collect } from "../pipeline/collect.ts";
import { historyParts, rebuildWarehouse } from "../pipeline/history.ts";
import { PUBLIC_TABLES } from "../pipeline/public-db.ts";
import { KEPT_TABLES, RAW_TABLES, score } from "../pipeline/score.ts";
import {
  appendedTables,
  localSnapshots,
  readSnapshotManifest,
  writeSnapshot,
} from "../pipeline/state/snapshot.ts";
import { pullState, pushState, STATE_INDEX_KEY } from "../pipeline/state/sync.ts";
import type { SimServer } from "../sim/index.ts";
import { replayUnpublishedSharing } from "./replayed-world.ts";
import { type S3TestServer, startS3Server } from "./s3-server.ts";

const START = "2026-10-30";
const LAST = "2026-11-02";

describe("state restore from a warehouse snapshot", () => {
  let work: string;
  let config: Config;
  let sim: SimServer;
  let s3: S3TestServer;
  let remote: Storage;
  const sync = (stateRoot: string, storage: Storage = remote) => ({
    storage,
    stateRoot,
    logger: silentLogger,
    concurrency: 4,
  });
  const index = async (): Promise<Record<string, unknown>> =>
    JSON.parse(String(await remote.get(STATE_INDEX_KEY))).objects;

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "pis-snapshot-"));
    // every night scored in full (a night scored only for its history writes no snapshot), none published: this
    // file reads the state, never a release (four publishes were about half of the replay's time). The first three
    // nights are publish-recent's too: replayed once for both, and copied
    ({ sim, config } = await replayUnpublishedSharing({
      stateDir: path.join(work, "a"),
      start: START,
      nights: 4,
      sharedNights: 3,
      token: "snapshot-test",
    }));
    s3 = await startS3Server();
    await s3.bucket("state");
    remote = s3.storage("state", "pis");
    await pushState(sync(path.join(work, "a")));
  }, 300_000);

  afterAll(async () => {
    await sim?.close();
    await s3?.stop();
    await rm(work, { recursive: true, force: true });
  });

  /** Rows of `table` in one attached database and not the other, both ways (0 and 0: equal as multisets). */
  async function differences(db: Db, a: string, b: string, table: string, exclude = "") {
    const cols = exclude ? ` EXCLUDE (${exclude})` : "";
    const [row] = await db.all<{ rows: number; only_a: number; only_b: number }>(
      `SELECT (SELECT count(*) FROM ${a}.${table})::INTEGER AS rows,
         (SELECT count(*) FROM (SELECT *${cols} FROM ${a}.${table} EXCEPT ALL SELECT *${cols} FROM ${b}.${table}))::INTEGER AS only_a,
         (SELECT count(*) FROM (SELECT *${cols} FROM ${b}.${table} EXCEPT ALL SELECT *${cols} FROM ${a}.${table}))::INTEGER AS only_b`,
    );
    return { table, only_a: row?.only_a, only_b: row?.only_b, rows: row?.rows ?? 0 };
  }

  it("the first night writes the snapshot, and the push names it in the index", async () => {
    expect(await localSnapshots(path.join(work, "a"))).toEqual([START]);
    const named = Object.keys(await index()).filter((rel) => rel.startsWith("warehouse-snapshot/"));
    const manifest = await readSnapshotManifest(path.join(work, "a"), START);
    expect(named.sort()).toEqual(
      [
        `warehouse-snapshot/${START}/manifest.json`,
        ...manifest.tables.flatMap((t) =>
          (t.files?.map((f) => f.name) ?? [`${t.table}.parquet`]).map(
            (name) => `warehouse-snapshot/${START}/${name}`,
          ),
        ),
      ].sort(),
    );
    expect(manifest.tables.map((t) => t.table)).toEqual(
      expect.arrayContaining([
        "raw_github_repos",
        "snapshots",
        "transitions",
        "releases",
        "contributors",
        "ds_briefings",
      ]),
    );
  });

  it("pull --recent downloads the snapshot and the nights after it, and restores an equal warehouse", async () => {
    const b = path.join(work, "b");
    const pulled = await pullState({ ...sync(b), recent: true });
    expect(pulled).toMatchObject({ warehouse: "restored", snapshot: START, nights: 3 });
    // the first night's history files stay on the remote; none of them is here
    expect(pulled.left_on_remote).toBe(historyParts().length);
    expect((await readdir(path.join(b, "history", "snapshots"))).sort()).toEqual([
      "date=2026-10-31",
      "date=2026-11-01",
      "date=2026-11-02",
    ]);
    const manifest = await readSnapshotManifest(b, START);
    const db = await openDb(":memory:");
    try {
      await db.run(`ATTACH ${sqlLiteral(statePaths(config).warehouse)} AS a (READ_ONLY)`);
      await db.run(`ATTACH ${sqlLiteral(statePaths({ stateDir: b }).warehouse)} AS b (READ_ONLY)`);
      // the tables a night appends to (releases, contributors) are as of the snapshot until the next score, below
      const appended = await appendedTables();
      const compared = manifest.tables.map((t) => t.table).filter((t) => !appended.includes(t));
      expect(compared).toHaveLength(RAW_TABLES.length + KEPT_TABLES.length);
      for (const table of compared) {
        const diff = await differences(db, "a", "b", table);
        expect(diff).toEqual({ table, only_a: 0, only_b: 0, rows: diff.rows });
      }
      const [rows] = await db.all<{ raw: number; nights: number }>(
        "SELECT (SELECT count(*) FROM b.raw_github_repos)::INTEGER AS raw, (SELECT count(DISTINCT run_date) FROM b.raw_github_repos)::INTEGER AS nights",
      );
      expect(rows?.raw).toBeGreaterThan(0);
      expect(rows?.nights).toBe(4);
      // the changes of stage of the nights after the snapshot are the restore's own (from their snapshots)
      const [later] = await db.all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM b.transitions WHERE date > DATE '${START}'`,
      );
      expect(later?.n).toBeGreaterThan(0);
    } finally {
      db.close();
    }
  });

  it("pull --recent --raw-only (a collect job) restores the raw tables alone, which only collect opens, and a whole pull replaces it", async () => {
    const c = path.join(work, "raw-only");
    const pulled = await pullState({ ...sync(c), recent: true, rawOnly: true });
    expect(pulled).toMatchObject({ warehouse: "restored", raw_only: true, snapshot: START, nights: 3 });
    // of the snapshot, its manifest and the raw tables' files; of the history, the raw tables' nights after it
    const manifest = await readSnapshotManifest(c, START);
    const raw = manifest.tables
      .map((t) => t.table)
      .filter((t) => (RAW_TABLES as readonly string[]).includes(t));
    expect(raw).toEqual([...RAW_TABLES]);
    expect((await readdir(path.join(c, "warehouse-snapshot", START))).sort()).toEqual(
      ["manifest.json", ...raw.map((t) => `${t}.parquet`)].sort(),
    );
    expect(await readdir(path.join(c, "history"))).toEqual(["raw"]);
    const whole = await pullState({ ...sync(path.join(work, "b")), recent: true });
    expect(pulled.objects).toBeLessThan(whole.objects);
    const warehouse = statePaths({ stateDir: c }).warehouse;
    const db = await openDb(":memory:");
    try {
      await db.run(
        `ATTACH ${sqlLiteral(statePaths({ stateDir: path.join(work, "b") }).warehouse)} AS b (READ_ONLY)`,
      );
      await db.run(`ATTACH ${sqlLiteral(warehouse)} AS c (READ_ONLY)`);
      // every raw table equals the whole restore's
      for (const table of RAW_TABLES) {
        const diff = await differences(db, "b", "c", table);
        expect(diff).toEqual({ table, only_a: 0, only_b: 0, rows: diff.rows });
      }
      // the other tables are there empty (as on a new warehouse), beside the raw-only mark
      const others = await db.all<{ name: string }>(
        `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = 'c'
           AND table_name NOT IN (${RAW_TABLES.map((t) => `'${t}'`).join(", ")}) ORDER BY name`,
      );
      expect(others.map((t) => t.name)).toEqual([...KEPT_TABLES, "restored_raw_only"].sort());
      for (const table of KEPT_TABLES) {
        const [row] = await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM c.${table}`);
        expect({ table, rows: row?.n }).toEqual({ table, rows: 0 });
      }
    } finally {
      db.close();
    }
    // collection opens it (and collects the night again), scoring refuses it and says what to run
    const cConfig = { ...config, stateDir: c };
    const collected = await openWarehouse(cConfig, { rawOnly: "allowed" });
    try {
      const report = await collect({
        config: cConfig,
        db: collected,
        logger: silentLogger,
        runDate: LAST,
        stateDir: c,
      });
      expect(report.sources.every((s) => s.status === "ok")).toBe(true);
      const [night] = await collected.all<{ n: number }>(
        `SELECT count(*)::INTEGER AS n FROM raw_github_repos WHERE run_date = DATE '${LAST}'`,
      );
      expect(night?.n).toBeGreaterThan(100);
    } finally {
      collected.close();
    }
    await expect(openWarehouse(cConfig)).rejects.toMatchObject({
      message: expect.stringContaining(`holds the raw tables only (restored from the ${START} snapshot`),
      hint: expect.stringContaining("projintel state pull --recent` without --raw-only"),
    });
    // a whole pull into the same folder replaces it with a warehouse scoring opens
    const replaced = await pullState({ ...sync(c), recent: true });
    expect(replaced).toMatchObject({ warehouse: "restored", snapshot: START, nights: 3 });
    expect(replaced.raw_only).toBeUndefined();
    (await openWarehouse(cConfig)).close();
  });

  it("scoring on the restored warehouse gives the public tables of a warehouse rebuilt from the whole history", async () => {
    const restored = statePaths({ stateDir: path.join(work, "b") }).warehouse;
    const rebuilt = path.join(work, "rebuilt.duckdb");
    await rebuildWarehouse({ root: statePaths(config).history, target: rebuilt, logger: silentLogger });
    for (const file of [restored, rebuilt]) {
      const db = await openDb(file);
      try {
        await score({ db, runDate: LAST, logger: silentLogger });
      } finally {
        db.close();
      }
    }
    const db = await openDb(":memory:");
    try {
      await db.run(`ATTACH ${sqlLiteral(restored)} AS r (READ_ONLY)`);
      await db.run(`ATTACH ${sqlLiteral(rebuilt)} AS f (READ_ONLY)`);
      for (const table of PUBLIC_TABLES) {
        const diff = await differences(db, "r", "f", table);
        expect(diff).toEqual({ table, only_a: 0, only_b: 0, rows: diff.rows });
      }
      const projects = await differences(db, "r", "f", "projects");
      expect(projects.rows).toBeGreaterThan(100);
      // one row a repository a night in the tables kept without a primary key (kept/snapshots.sql): on the first
      // folder (4 nights scored), the restored and the rebuilt warehouse (the last night scored again)
      await db.run(`ATTACH ${sqlLiteral(statePaths(config).warehouse)} AS a (READ_ONLY)`);
      for (const [table, key] of [
        ["snapshots", "date, node_id"],
        ["lifecycle_candidates", "node_id, date"],
      ])
        for (const warehouse of ["a", "r", "f"]) {
          const [row] = await db.all<{ rows: number; keys: number }>(
            `SELECT count(*)::INTEGER AS rows, count(DISTINCT (${key}))::INTEGER AS keys FROM ${warehouse}.${table}`,
          );
          expect(row?.rows).toBeGreaterThan(100);
          expect(row?.keys).toBe(row?.rows);
        }
    } finally {
      db.close();
    }
  });

  it("a push stopped midway through a new snapshot leaves the old one named whole", async () => {
    const b = path.join(work, "b");
    const db = await openDb(statePaths({ stateDir: b }).warehouse);
    try {
      await writeSnapshot({ db, stateRoot: b, night: "2026-11-25", logger: silentLogger });
    } finally {
      db.close();
    }
    expect(await localSnapshots(b)).toEqual(["2026-11-25"]);
    let puts = 0;
    const failing: Storage = {
      ...remote,
      async putFile(key, file, options) {
        if (key.includes("warehouse-snapshot/") && ++puts === 3) throw new Error("the runner was stopped");
        return remote.putFile(key, file, options);
      },
    };
    await expect(pushState({ ...sync(b, failing), concurrency: 1 })).rejects.toThrow(
      "the runner was stopped",
    );
    const named = Object.keys(await index());
    expect(
      named.filter((rel) => rel.endsWith("manifest.json") && rel.startsWith("warehouse-snapshot/")),
    ).toEqual([`warehouse-snapshot/${START}/manifest.json`]);
    // a pull meanwhile still restores from the old snapshot
    const c = path.join(work, "c");
    expect(await pullState({ ...sync(c), recent: true })).toMatchObject({
      warehouse: "restored",
      snapshot: START,
    });
  });

  it("the next push replaces the snapshot in the index and the bucket; the history there stays complete", async () => {
    const b = path.join(work, "b");
    await pushState(sync(b));
    const named = Object.keys(await index());
    expect(
      named.filter((rel) => rel.endsWith("manifest.json") && rel.startsWith("warehouse-snapshot/")),
    ).toEqual(["warehouse-snapshot/2026-11-25/manifest.json"]);
    const listed = (await remote.listObjects("state/")).map((o) => o.key);
    expect(listed.filter((key) => key.startsWith(`state/warehouse-snapshot/${START}/`))).toEqual([]);
    // every night's history file of the first folder is still named and stored
    const history = Object.keys(await index()).filter((rel) => rel.startsWith("history/"));
    for (const night of [START, "2026-10-31", "2026-11-01", LAST]) {
      expect(history.filter((rel) => rel.includes(`=${night}/`))).toHaveLength(historyParts().length);
    }
    for (const rel of history) expect(listed).toContain(`state/${rel}`);
    // a plain pull (a full restore) fetches every night again; the warehouse comes from the new snapshot
    const d = path.join(work, "d");
    const full = await pullState(sync(d));
    expect(full).toMatchObject({
      warehouse: "restored",
      snapshot: "2026-11-25",
      nights: 4,
      left_on_remote: 0,
    });
    expect(existsSync(path.join(d, "warehouse-snapshot", START))).toBe(false);
  });
});
