// A shim serving from a remote folder (`serve --release <folder>`, the same layout a bucket has): POST /query reads
// the public database the release names, downloaded from public-db/<name>.duckdb into its own state folder, switches
// to the next night's file together with the release, and to a night's second build when the night is published
// again, keeps only the files in use, and answers 503 for a night whose public database the remote lacks while GET
// serves its release.
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { publicDbPaths } from "../../core/public-db.ts";
import { createLocalStorage } from "../../core/storage.ts";
import { publishRelease } from "../../publish/release.ts";
import { FIXTURE_ROWS, fixtureDb } from "../../publish/testing.ts";
import { publishFixtureNight, writeNightBuild } from "../../test/fixture-night.ts";
import { type RunningServer, startServer } from "../server.ts";

const NIGHTS = ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"] as const;
let remote: string;
let state: string;
/** The publishing side's state folder: the public databases are built there, then uploaded by the publish. */
let build: string;
let server: RunningServer;

const remoteStorage = () => createLocalStorage(remote, { syncObjects: false });

/** Publishes a night's release to the remote, with its public database (marked with its night) unless told not to. */
async function publishNight(runDate: string, withPublicDb = true): Promise<void> {
  await publishFixtureNight(remoteStorage(), runDate, { stateDir: build, publicDb: withPublicDb });
}

async function night(): Promise<unknown> {
  const res = await fetch(`${server.url}/api/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql: "SELECT CAST(night AS VARCHAR) FROM night" }),
  });
  const body = (await res.json()) as { data?: { run_date: string; rows: unknown[][] } };
  return [res.status, body.data?.run_date, body.data?.rows];
}

async function servedRunDate(): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/status`);
  return ((await res.json()) as { data: { run_date: string } }).data.run_date;
}

const localFiles = async () => (await readdir(publicDbPaths(state).dir)).sort();

/** The night and build the shim's queries answer from. */
async function builds(): Promise<unknown> {
  const res = await fetch(`${server.url}/api/v1/query`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ sql: "SELECT CAST(night AS VARCHAR), build FROM night" }),
  });
  const body = (await res.json()) as { data?: { rows: unknown[][] } };
  return [res.status, body.data?.rows];
}

beforeAll(async () => {
  const temp = (prefix: string) => mkdtemp(path.join(os.tmpdir(), prefix));
  [remote, state, build] = await Promise.all([temp("remote-"), temp("shim-state-"), temp("public-build-")]);
  await publishNight(NIGHTS[0]);
  const config = loadConfig({
    overrides: {
      stateDir: state,
      host: "127.0.0.1",
      port: 0,
      release: { checkEveryMs: 100 },
      quota: { anonymous: 100_000 },
    },
  });
  server = await startServer({ config, releaseLocation: remote });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await Promise.all([remote, state, build].map((dir) => dir && rm(dir, { recursive: true, force: true })));
});

describe("POST /api/v1/query from a remote's public databases", () => {
  it("answers from the downloaded file, follows the release to the next night, and keeps only the files in use", async () => {
    expect(await night()).toEqual([200, NIGHTS[0], [[NIGHTS[0]]]]);
    expect(await localFiles()).toEqual([`${NIGHTS[0]}.duckdb`]);
    const [local, published] = await Promise.all([
      readFile(publicDbPaths(state).fileFor(NIGHTS[0])),
      readFile(path.join(remote, "public-db", `${NIGHTS[0]}.duckdb`)),
    ]);
    expect([local.length, local.equals(published)]).toEqual([published.length, true]);

    await publishNight(NIGHTS[1]);
    await expect.poll(night, { timeout: 60_000, interval: 100 }).toEqual([200, NIGHTS[1], [[NIGHTS[1]]]]);
    await publishNight(NIGHTS[2]);
    await expect.poll(night, { timeout: 60_000, interval: 100 }).toEqual([200, NIGHTS[2], [[NIGHTS[2]]]]);
    // the served night's file and the one before it (queries still running on it); the first is gone
    expect(await localFiles()).toEqual([`${NIGHTS[1]}.duckdb`, `${NIGHTS[2]}.duckdb`]);
  }, 180_000);

  it("a night without a public database on the remote: GET serves its release, POST /query answers 503", async () => {
    await publishNight(NIGHTS[3], false);
    await expect.poll(servedRunDate, { timeout: 60_000, interval: 100 }).toBe(NIGHTS[3]);
    const res = await fetch(`${server.url}/api/v1/query`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ sql: "SELECT 1" }),
    });
    expect(res.status).toBe(503);
    expect(((await res.json()) as { detail: { error: { code: string } } }).detail.error.code).toBe(
      "unavailable",
    );
  }, 120_000);

  it("a night published twice (its history release) answers from the second build once it is live", async () => {
    // issue 35: both builds of a night used to travel as public-db/<run_date>.duckdb, and the shim kept the first
    // each build in a state folder of its own under the system's temp folder (never the working directory)
    const publishBuild = async (label: string, at: string) => {
      const dir = await mkdtemp(path.join(os.tmpdir(), `public-${label}-`));
      const db = await fixtureDb(FIXTURE_ROWS, NIGHTS[4]);
      try {
        const name = await writeNightBuild(dir, NIGHTS[4], label);
        const created = new Date(`${NIGHTS[4]}T${at}Z`);
        await publishRelease({
          db,
          storage: remoteStorage(),
          config: loadConfig({ overrides: { stateDir: dir } }),
          clock: { now: () => created },
          force: true,
        });
        return name;
      } finally {
        db.close();
        await rm(dir, { recursive: true, force: true });
      }
    };
    const first = await publishBuild("first", "03:15:00");
    await expect.poll(builds, { timeout: 60_000, interval: 100 }).toEqual([200, [[NIGHTS[4], "first"]]]);
    const history = await publishBuild("history", "09:40:00");
    await expect.poll(builds, { timeout: 60_000, interval: 100 }).toEqual([200, [[NIGHTS[4], "history"]]]);
    // both builds of the night, named by their bytes: the first still held for queries running on it
    expect(await localFiles()).toEqual([first, history].sort());
  }, 180_000);
});
