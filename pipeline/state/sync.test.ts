// The state index on a folder remote: what a push leaves when it stops midway while replacing a night (a pull sees
// the night whole or not at all), and what a pull refuses (an object that is not what the index records, an index
// naming a file that is not state), and a night whose pull fails. The bucket, the simulator and kills are in
// test/state-remote.test.ts.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { openDb } from "../../core/db.ts";
import { silentLogger } from "../../core/log.ts";
import { createLocalStorage, type Storage } from "../../core/storage.ts";
import { runRemoteNightly } from "../../nightly/run.ts";
import { pullState, pushState, STATE_INDEX_KEY } from "./sync.ts";

const SNAPSHOT = (day: string) => `history/snapshots/date=${day}/data.parquet`;
const RAW = (day: string) => `history/raw/raw_github_repos/run_date=${day}/data.parquet`;
const ETAG = `etags/ab/${"c".repeat(62)}.json`;
/** The remote object the ETag cache's etags/ab/ folder travels in. */
const ETAG_PACK = "etags/ab.ndjson.gz";

let work: string;
let remote: Storage;
const dir = (name: string) => path.join(work, name);

async function put(stateRoot: string, files: Record<string, string>): Promise<void> {
  for (const [rel, body] of Object.entries(files)) {
    const file = path.join(stateRoot, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
  }
}

const sync = (stateRoot: string, storage: Storage = remote) => ({
  storage,
  stateRoot,
  logger: silentLogger,
  concurrency: 1,
});

async function indexed(): Promise<Record<string, { bytes: number }>> {
  return JSON.parse(String(await remote.get(STATE_INDEX_KEY))).objects;
}

/** Pulls into a new folder (an empty warehouse already there, so the fake Parquet is never rebuilt from). */
async function pullInto(name: string) {
  await mkdir(dir(name), { recursive: true });
  (await openDb(path.join(dir(name), "warehouse.duckdb"))).close();
  return pullState(sync(dir(name)));
}

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), "state-sync-"));
  remote = createLocalStorage(dir("remote"), { syncObjects: false });
  await put(dir("a"), {
    [SNAPSHOT("2026-11-15")]: "night 1 snapshot",
    [RAW("2026-11-15")]: "night 1 raw",
    [SNAPSHOT("2026-11-16")]: "night 2 snapshot",
    [RAW("2026-11-16")]: "night 2 raw",
    [ETAG]: '{"url":"u","etag":"1","body":"b"}',
    "runs/2026-11-16/manifest.json": "{}",
    "runs/2026-11-16/batches/github/x.ndjson": "not state",
    "keys.jsonl": "not state",
  });
});

afterEach(() => rm(work, { recursive: true, force: true }));

describe("state index", () => {
  it("pushes only state files, and a push stopped while replacing a night leaves that night out of the index", async () => {
    expect(await pushState(sync(dir("a")))).toMatchObject({ objects: 6, uploaded: 6, unchanged: 0 });
    expect(Object.keys(await indexed())).toEqual([
      ETAG_PACK,
      RAW("2026-11-15"),
      RAW("2026-11-16"),
      SNAPSHOT("2026-11-15"),
      SNAPSHOT("2026-11-16"),
      "runs/2026-11-16/manifest.json",
    ]);

    // night 2 run again: both of its files change; the push dies after replacing the first
    await put(dir("a"), {
      [RAW("2026-11-16")]: "night 2 raw, rerun",
      [SNAPSHOT("2026-11-16")]: "night 2 snapshot, rerun",
    });
    let puts = 0;
    const dying: Storage = {
      ...remote,
      async putFile(key, file, options) {
        if (++puts === 2) throw new Error("killed");
        return remote.putFile(key, file, options);
      },
    };
    await expect(pushState(sync(dir("a"), dying))).rejects.toThrow("killed");
    expect(Object.keys(await indexed())).toEqual([
      ETAG_PACK,
      RAW("2026-11-15"),
      SNAPSHOT("2026-11-15"),
      "runs/2026-11-16/manifest.json",
    ]);
    expect(await pullInto("b")).toMatchObject({ objects: 4, downloaded: 4, warehouse: "kept", nights: 1 });

    // the next push completes it; a pull then gets the rerun night whole
    expect(await pushState(sync(dir("a")))).toMatchObject({ uploaded: 2, unchanged: 4 });
    expect(await pullInto("c")).toMatchObject({ objects: 6, downloaded: 6, nights: 2 });
    expect(await readFile(path.join(dir("c"), RAW("2026-11-16")), "utf8")).toBe("night 2 raw, rerun");
    expect(await pushState(sync(dir("a")))).toMatchObject({ uploaded: 0, unchanged: 6 });
  });

  it("refuses an object that differs from the index, and an index naming a file that is not state", async () => {
    await pushState(sync(dir("a")));
    await remote.put(`state/${RAW("2026-11-15")}`, "night 1 raw, but changed");
    await expect(pullInto("b")).rejects.toThrow(
      `${remote.location}/state/${RAW("2026-11-15")} differs from what the state index records.`,
    );
    const index = JSON.parse(String(await remote.get(STATE_INDEX_KEY)));
    index.objects["keys.jsonl"] = { bytes: 1, sha256: "0".repeat(64) };
    await remote.put(STATE_INDEX_KEY, JSON.stringify(index));
    await expect(pullInto("c")).rejects.toThrow(`names "keys.jsonl", which is not a state file.`);
  });

  it("makes a night whose pull fails a failed night with its report, before the warehouse is opened", async () => {
    await remote.put(STATE_INDEX_KEY, "{ not json");
    const config = loadConfig({ env: {}, overrides: { stateDir: dir("night") } });
    let opened = false;
    const night = runRemoteNightly({
      config,
      logger: silentLogger,
      runDate: "2026-11-17",
      storage: remote,
      openDb: async () => {
        opened = true;
        throw new Error("the warehouse must not be opened");
      },
    });
    await expect(night).rejects.toThrow(`${remote.location}/state/index.json is not a valid state index.`);
    expect(opened).toBe(false);
    const manifest = JSON.parse(
      await readFile(path.join(dir("night"), "runs", "2026-11-17", "manifest.json"), "utf8"),
    );
    expect(manifest).toMatchObject({ run_date: "2026-11-17", status: "failed" });
    expect(manifest.error).toBe(
      `${remote.location}/state/index.json is not a valid state index. Push the state from a machine that has it (projintel state push) to write it again.`,
    );
  });
});
