// POST /api/v1/query follows a release switch: it reads the public database the live release names, not the newest
// file on disk. Two nights' public databases, each marked with its night and build; the second release published
// while the shim runs moves the answers to its night, and a night built and published again (its history release)
// moves them to the second build — only once that release is live.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { publicDbPaths } from "../../core/public-db.ts";
import { createLocalStorage } from "../../core/storage.ts";
import { publishRelease } from "../../publish/release.ts";
import { FIXTURE_ROWS, fixtureDb } from "../../publish/testing.ts";
import { writeNightBuild } from "../../test/fixture-night.ts";
import { buildApp } from "../app.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "../quota/quota.ts";
import { openReleaseReader, type ReleaseReader } from "../release-reader.ts";
import { createQueryPool, type QueryPool } from "./pool.ts";

const NIGHTS = ["2026-03-01", "2026-03-02"];
let root: string;
let reader: ReleaseReader;
let quotas: QuotaStore;
let pool: QueryPool;
let app: ReturnType<typeof buildApp>;

const storage = () => createLocalStorage(root, { syncObjects: false });
const config = () => loadConfig({ overrides: { stateDir: root } });

async function publishNight(runDate: string, at = "03:15:00"): Promise<void> {
  const db = await fixtureDb(FIXTURE_ROWS, runDate);
  try {
    const created = new Date(`${runDate}T${at}Z`);
    await publishRelease({
      db,
      storage: storage(),
      config: config(),
      clock: { now: () => created },
      force: true,
    });
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), "query-switch-"));
  await mkdir(publicDbPaths(root).dir);
  for (const night of NIGHTS) await writeNightBuild(root, night, "first");
  await publishNight(NIGHTS[0] as string);
  reader = await openReleaseReader({ storage: storage(), checkEveryMs: 0 });
  quotas = await openEmbeddedQuotaStore();
  pool = createQueryPool({ limits: { workers: 1, threadsPerWorker: 1 } });
  await pool.start();
  app = buildApp({ config: config(), release: reader, quotas, query: { pool, stateRoot: root } });
}, 120_000);

afterAll(async () => {
  await app?.close();
  reader?.close();
  await quotas?.close();
  await pool?.close();
  await rm(root, { recursive: true, force: true });
});

async function night(): Promise<unknown> {
  const res = await app.inject({
    method: "POST",
    url: "/api/v1/query",
    payload: { sql: "SELECT CAST(night AS VARCHAR), build FROM night" },
  });
  const body = res.json() as { data: { run_date: string; rows: unknown[][] } };
  return [res.statusCode, body.data.run_date, body.data.rows];
}

describe("POST /api/v1/query across a release switch", () => {
  it("reads the served night's public database, then the next night's once its release is live", async () => {
    expect(await night()).toEqual([200, "2026-03-01", [["2026-03-01", "first"]]]);
    await publishNight(NIGHTS[1] as string);
    // not yet reloaded: still the old night
    expect(await night()).toEqual([200, "2026-03-01", [["2026-03-01", "first"]]]);
    expect(await reader.reload()).toBe(true);
    expect(await night()).toEqual([200, "2026-03-02", [["2026-03-02", "first"]]]);
  });

  it("a night built and published again answers from its second build once that release is live", async () => {
    // issue 35: the history release of the same night; both builds stay on disk, the workers hold the first open
    await writeNightBuild(root, NIGHTS[1] as string, "history");
    expect(await night()).toEqual([200, "2026-03-02", [["2026-03-02", "first"]]]); // the live release's build
    await publishNight(NIGHTS[1] as string, "09:40:00");
    expect(await night()).toEqual([200, "2026-03-02", [["2026-03-02", "first"]]]); // not yet reloaded
    expect(await reader.reload()).toBe(true);
    expect(await night()).toEqual([200, "2026-03-02", [["2026-03-02", "history"]]]);
  });
});
