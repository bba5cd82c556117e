// A publish after `state pull --recent`, on a real s3rver: nights from 2026-10-30 to 2026-11-02, the warehouse
// snapshot of 1 November (written by the test after that night: a nightly writes one every 4 nights), the release
// of 1 November live in the bucket. An empty folder restored with --recent holds only 2 November, the night after
// the snapshot — not October's nights nor 1 November, the current month's earlier night; its publish lists every
// night all the same — the missing nights and the closed month of October copied from the previous release, not
// uploaded, November packed from the previous release's packed November and the local night — and its dataset index
// equals that of a publish after a full restore, November's packed files byte for byte. A publish to a target with
// no previous release refuses, naming the night it lacks, and so does one whose closed month changed since, or whose
// previous release does not hold the current month packed.
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
import { replayNights } from "../nightly/replay.ts";
import { score } from "../pipeline/score.ts";
import { writeSnapshot } from "../pipeline/state/snapshot.ts";
import { pullState, pushState } from "../pipeline/state/sync.ts";
import type { DatasetIndex } from "../publish/dataset-index.ts";
import { CURRENT_KEY, readPointer, releaseKey } from "../publish/layout.ts";
import { type PublishReport, publishRelease } from "../publish/release.ts";
import { DATASETS_INDEX_FILE } from "../publish/routes/datasets.ts";
import type { SimServer } from "../sim/index.ts";
import { replayUnpublishedSharing } from "./replayed-world.ts";
import { ONE_PUBLISHER_SETTLE_MS, type S3TestServer, startS3Server } from "./s3-server.ts";

const START = "2026-10-30";
const SNAPSHOT = "2026-11-01";
const LAST = "2026-11-02";

describe("publish after a --recent restore", () => {
  let work: string;
  let sim: SimServer;
  let s3: S3TestServer;
  let bucket: Storage;
  // one publisher at a time to each bucket prefix, so no lock settle
  const publish = { lockSettleMs: ONE_PUBLISHER_SETTLE_MS };
  const configOf = (dir: string): Config =>
    loadConfig({
      env: {},
      overrides: {
        stateDir: path.join(work, dir),
        simUrl: sim.url,
        github: { tokens: ["publish-recent-test"], restBudget: 150 },
        publish,
      },
    });
  const sync = (dir: string) => ({
    storage: bucket,
    stateRoot: path.join(work, dir),
    logger: silentLogger,
    concurrency: 4,
  });
  /**
   * Publishes the folder's warehouse to `storage`, scoring its last night first when asked (a restored folder holds
   * the snapshot's scores; a folder scored already, or copied from one, is published as it is).
   */
  async function publishFrom(dir: string, storage: Storage, scoreFirst = false): Promise<PublishReport> {
    const config = configOf(dir);
    const db = await openDb(statePaths(config).warehouse);
    try {
      if (scoreFirst) await score({ db, runDate: LAST, logger: silentLogger });
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
  /** Every night folder (date=… or run_date=…) under the folder's history, of every table. */
  async function historyNightsIn(dir: string): Promise<string[]> {
    const found = await readdir(path.join(work, dir, "history"), { recursive: true });
    return [
      ...new Set(found.flatMap((rel) => /(?:^|\/)(?:run_)?date=(\d{4}-\d{2}-\d{2})$/.exec(rel)?.[1] ?? [])),
    ].sort();
  }

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "pis-publish-recent-"));
    s3 = await startS3Server();
    await s3.bucket("recent");
    bucket = s3.storage("recent", "pis");
    // every night scored in full; the snapshot of 1 November (the warehouse after that night) replaces the first
    // night's, so the current month has a night at or before it; 1 November's release is live. The nights publish
    // nothing to the folder: the tests read the bucket's releases and the state, never a local release. The three
    // nights are state-snapshot's first three: replayed once for both, and copied
    let config: Config;
    ({ sim, config } = await replayUnpublishedSharing({
      stateDir: path.join(work, "a"),
      start: START,
      nights: 3,
      sharedNights: 3,
      token: "publish-recent-test",
    }));
    const db = await openDb(statePaths(config).warehouse);
    try {
      await writeSnapshot({ db, stateRoot: statePaths(config).root, night: SNAPSHOT, logger: silentLogger });
      await publishRelease({
        db,
        config: { ...config, publish: { ...config.publish, ...publish } },
        storage: bucket,
      });
      const advanced = await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
      expect(advanced.ok).toBe(true);
      await replayNights({ config, db, logger: silentLogger, nights: 1, unpublished: true });
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

  it("pull --recent leaves on the remote every night at or before the snapshot's, the current month's too", async () => {
    const pulled = await pullState({ ...sync("recent"), recent: true });
    expect(pulled).toMatchObject({ warehouse: "restored", snapshot: SNAPSHOT, nights: 1 });
    // no table's file of 1 November (nor of October) was downloaded: only the night after the snapshot
    expect(await historyNightsIn("recent")).toEqual([LAST]);
    expect(await readHistoryLeft(path.join(work, "recent"))).toEqual({
      version: 1,
      location: bucket.location,
      nights: [START, "2026-10-31", SNAPSHOT],
    });
  });

  it("publishes every night, copying what it lacks from the previous release, as a full restore would", async () => {
    const previous = await liveIndex();
    expect(previous.history).toMatchObject({ nights: 3, first: START, last: SNAPSHOT });
    const recent = await publishFrom("recent", bucket, true);
    const afterRecent = await liveIndex();
    expect(afterRecent.release_id).toBe(recent.releaseId);
    expect(afterRecent.history).toEqual({
      nights: 4,
      first: START,
      last: LAST,
      months: ["2026-10", "2026-11"],
    });
    // the nights this folder lacks and October packed (3 tables) are the previous release's bytes, copied
    const copied = (p: string) => afterRecent.files.find((f) => f.path === p);
    const carried = previous.files.filter((f) => f.month === "2026-10" || f.date !== undefined);
    expect(carried.map((f) => f.path).sort()).toEqual([
      "datasets/history/date=2026-10-30/snapshots.parquet",
      "datasets/history/date=2026-10-31/snapshots.parquet",
      "datasets/history/date=2026-11-01/snapshots.parquet",
      "datasets/history/lifecycle/month=2026-10/lifecycle.parquet",
      "datasets/history/packages/month=2026-10/packages.parquet",
      "datasets/history/snapshots/month=2026-10/snapshots.parquet",
    ]);
    for (const f of carried) expect(copied(f.path)).toMatchObject({ sha256: f.sha256, rows: f.rows });
    const packed = path.join(work, "recent", "packed-history");
    expect(existsSync(path.join(packed, "snapshots", "month=2026-10"))).toBe(false);
    // November is packed here from the previous release's November and the local night, whose download is gone
    const november = afterRecent.files.filter((f) => f.month === "2026-11");
    expect(november.map((f) => f.name).sort()).toEqual(["lifecycle", "packages", "snapshots"]);
    for (const f of november) {
      const before = previous.files.find((p) => p.path === f.path);
      expect(before?.rows).toBeGreaterThan(0);
      expect(f.rows).toBeGreaterThan(before?.rows as number);
      expect(f.description).toContain("of 2 nights of 2026-11 (the current month");
      expect((await readdir(path.join(packed, f.name, "month=2026-11"))).sort()).toEqual([
        "data.parquet",
        "fingerprint",
      ]);
    }
    expect(await historyNightsIn("recent")).toEqual([LAST]);

    await pullState(sync("full"));
    await publishFrom("full", bucket, true);
    const afterFull = await liveIndex();
    expect(afterFull.release_id).not.toBe(recent.releaseId);
    expect(files(afterFull)).toEqual(files(afterRecent));
    expect(afterFull.files.filter((f) => f.path.startsWith("datasets/history/"))).toHaveLength(4 + 2 * 3);
    // the current month extended from the previous release is byte for byte the month packed from every night
    const months = (index: DatasetIndex) =>
      files({ ...index, files: index.files.filter((f) => f.month === "2026-11") });
    expect(months(afterRecent)).toHaveLength(3);
    expect(months(afterRecent)).toEqual(months(afterFull));
  });

  it("refuses a night neither this folder nor the previous release holds, naming it", async () => {
    await s3.bucket("fresh");
    const fresh = s3.storage("fresh", "pis");
    await expect(publishFrom("recent", fresh)).rejects.toThrow(
      `History night ${START} (and 2 more) is neither in ${path.join(work, "recent", "history")} nor in the previous release, so the release's datasets would miss it.`,
    );
    expect(await fresh.get(CURRENT_KEY)).toBeUndefined();
  });

  it("refuses to carry a closed month one of whose local nights changed since the previous release", async () => {
    await cp(path.join(work, "recent"), path.join(work, "rewritten"), { recursive: true });
    const night = (date: string) =>
      path.join(work, "rewritten", "history", "snapshots", `date=${date}`, "data.parquet");
    await cp(night(LAST), night("2026-10-31"));
    const live = (await readPointer(bucket))?.release_id;
    await expect(publishFrom("rewritten", bucket)).rejects.toThrow(
      "History night 2026-10-31 differs from the previous release's, and its month 2026-10 cannot be packed again: this folder does not hold the month's other nights.",
    );
    expect((await readPointer(bucket))?.release_id).toBe(live);
  });

  it("refuses to extend a current month the previous release does not hold packed, naming it", async () => {
    const live = (await readPointer(bucket))?.release_id as string;
    const key = releaseKey(live, DATASETS_INDEX_FILE);
    const index = await liveIndex();
    const lacking = { ...index, files: index.files.filter((f) => f.month !== "2026-11") };
    await bucket.put(key, Buffer.from(JSON.stringify(lacking)));
    try {
      await expect(publishFrom("recent", bucket)).rejects.toMatchObject({
        message: `The snapshots history of 2026-11 is not packed in the previous release ${live}, and this folder does not hold every night of it, so the month cannot be packed.`,
        hint: expect.stringContaining("projintel state pull, without --recent"),
      });
      expect((await readPointer(bucket))?.release_id).toBe(live);
    } finally {
      await bucket.put(key, Buffer.from(JSON.stringify(index)));
    }
  });
});
