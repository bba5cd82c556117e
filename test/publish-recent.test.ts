// A publish after `state pull --recent`, on a real s3rver: nights from 2026-10-29 to 2026-11-01 (the first writes
// the warehouse snapshot), the release of 2026-10-31 live in the bucket. An empty folder restored with --recent
// holds the nights after the snapshot and those of November, not the snapshot's own night; its publish lists every
// night all the same — the missing night and the closed month of October copied from the previous release, not
// uploaded — and its dataset index equals that of a publish after a full restore. A publish to a target with no
// previous release refuses, naming the night it lacks, and so does one whose closed month changed since.
import { existsSync } from "node:fs";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Config, loadConfig, statePaths } from "../core/config.ts";
import { openDb } from "../core/db.ts";
import { readHistoryLeft } from "../core/history-left.ts";
import { silentLogger } from "../core/log.ts";
import type { Storage } from "../core/storage.ts";
import { replayWorld } from "../nightly/replay.testing.ts";
import { replayNights } from "../nightly/replay.ts";
import { score } from "../pipeline/score.ts";
import { pullState, pushState } from "../pipeline/state-sync.ts";
import type { DatasetIndex } from "../publish/dataset-index.ts";
import { CURRENT_KEY, readPointer, releaseKey } from "../publish/layout.ts";
import { type PublishReport, publishRelease } from "../publish/release.ts";
import { DATASETS_INDEX_FILE } from "../publish/routes/datasets.ts";
import type { SimServer } from "../sim/index.ts";
import { type S3TestServer, startS3Server } from "./s3-server.ts";

const START = "2026-10-29";
const LAST = "2026-11-01";

describe("publish after a --recent restore", () => {
  let work: string;
  let sim: SimServer;
  let s3: S3TestServer;
  let bucket: Storage;
  const configOf = (dir: string): Config =>
    loadConfig({
      env: {},
      overrides: {
        stateDir: path.join(work, dir),
        simUrl: sim.url,
        github: { tokens: ["publish-recent-test"], restBudget: 150 },
      },
    });
  const sync = (dir: string) => ({
    storage: bucket,
    stateRoot: path.join(work, dir),
    logger: silentLogger,
    concurrency: 4,
  });
  /** Scores the last night on the folder's warehouse, then publishes it to `storage`. */
  async function scoreAndPublish(dir: string, storage: Storage): Promise<PublishReport> {
    const config = configOf(dir);
    const db = await openDb(statePaths(config).warehouse);
    try {
      await score({ db, runDate: LAST, logger: silentLogger });
      return await publishRelease({ db, config, storage, validate: "sample" });
    } finally {
      db.close();
    }
  }
  async function liveIndex(): Promise<DatasetIndex> {
    const pointer = await readPointer(bucket);
    const body = await bucket.get(releaseKey(pointer?.release_id as string, DATASETS_INDEX_FILE));
    return JSON.parse(String(body)) as DatasetIndex;
  }
  const files = (index: DatasetIndex) =>
    index.files.map((f) => ({ path: f.path, sha256: f.sha256, rows: f.rows }));

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "pis-publish-recent-"));
    s3 = await startS3Server();
    await s3.bucket("recent");
    bucket = s3.storage("recent", "pis");
    // every night scored in full (the first writes the snapshot); October's last night is the live release
    let config: Config;
    ({ sim, config } = await replayWorld({
      stateDir: path.join(work, "a"),
      start: START,
      nights: 3,
      token: "publish-recent-test",
      publishEvery: true,
    }));
    const db = await openDb(statePaths(config).warehouse);
    try {
      await publishRelease({ db, config, storage: bucket });
      const advanced = await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
      expect(advanced.ok).toBe(true);
      await replayNights({ config, db, logger: silentLogger, nights: 1, publishEvery: true });
    } finally {
      db.close();
    }
    await pushState(sync("a"));
  }, 400_000);

  afterAll(async () => {
    await sim?.close();
    await s3?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it("pull --recent leaves on the remote only the snapshot's night, before the latest night's month", async () => {
    const pulled = await pullState({ ...sync("recent"), recent: true });
    expect(pulled).toMatchObject({ warehouse: "restored", snapshot: START, nights: 3 });
    expect((await readdir(path.join(work, "recent", "history", "snapshots"))).sort()).toEqual([
      "date=2026-10-30",
      "date=2026-10-31",
      "date=2026-11-01",
    ]);
    expect(await readHistoryLeft(path.join(work, "recent"))).toEqual({
      version: 1,
      location: bucket.location,
      nights: [START],
    });
  });

  it("publishes every night, copying what it lacks from the previous release, as a full restore would", async () => {
    const previous = await liveIndex();
    expect(previous.history).toMatchObject({ nights: 3, first: START, last: "2026-10-31" });
    const recent = await scoreAndPublish("recent", bucket);
    const afterRecent = await liveIndex();
    expect(afterRecent.release_id).toBe(recent.releaseId);
    expect(afterRecent.history).toEqual({
      nights: 4,
      first: START,
      last: LAST,
      months: ["2026-10", "2026-11"],
    });
    // the night this folder lacks and October packed (3 tables) are the previous release's bytes, copied
    const copied = (p: string) => afterRecent.files.find((f) => f.path === p);
    const october = previous.files.filter((f) => f.month === "2026-10" || f.date === START);
    expect(october.map((f) => f.path).sort()).toEqual([
      "datasets/history/date=2026-10-29/snapshots.parquet",
      "datasets/history/lifecycle/month=2026-10/lifecycle.parquet",
      "datasets/history/packages/month=2026-10/packages.parquet",
      "datasets/history/snapshots/month=2026-10/snapshots.parquet",
    ]);
    for (const f of october) expect(copied(f.path)).toMatchObject({ sha256: f.sha256, rows: f.rows });
    expect(existsSync(path.join(work, "recent", "packed-history", "snapshots", "month=2026-10"))).toBe(false);

    await pullState(sync("full"));
    await scoreAndPublish("full", bucket);
    const afterFull = await liveIndex();
    expect(afterFull.release_id).not.toBe(recent.releaseId);
    expect(files(afterFull)).toEqual(files(afterRecent));
    expect(afterFull.files.filter((f) => f.path.startsWith("datasets/history/"))).toHaveLength(4 + 2 * 3);
  });

  it("refuses a night neither this folder nor the previous release holds, naming it", async () => {
    await s3.bucket("fresh");
    const fresh = s3.storage("fresh", "pis");
    await expect(scoreAndPublish("recent", fresh)).rejects.toThrow(
      `History night ${START} is neither in ${path.join(work, "recent", "history")} nor in the previous release, so the release's datasets would miss it.`,
    );
    expect(await fresh.get(CURRENT_KEY)).toBeUndefined();
  });

  it("refuses to carry a closed month one of whose local nights changed since the previous release", async () => {
    await cp(path.join(work, "recent"), path.join(work, "rewritten"), { recursive: true });
    const night = (date: string) =>
      path.join(work, "rewritten", "history", "snapshots", `date=${date}`, "data.parquet");
    await cp(night("2026-10-31"), night("2026-10-30"));
    const live = (await readPointer(bucket))?.release_id;
    await expect(scoreAndPublish("rewritten", bucket)).rejects.toThrow(
      "History night 2026-10-30 differs from the previous release's, and its month 2026-10 cannot be packed again: this folder does not hold the month's other nights.",
    );
    expect((await readPointer(bucket))?.release_id).toBe(live);
  });
});
