// POST /api/v1/query follows a release switch: it reads the public database of the night the live release serves,
// not the newest file on disk. Two nights' public databases, each marked with its night; the second release
// published while the shim runs moves the answers to its night.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../core/config.ts";
import { openDb } from "../../core/db.ts";
import { publicDbPaths } from "../../core/public-db.ts";
import { createLocalStorage } from "../../core/storage.ts";
import { writePublicFixture } from "../../pipeline/public-testing.ts";
import { publishRelease } from "../../publish/release.ts";
import { FIXTURE_ROWS, fixtureDb } from "../../publish/testing.ts";
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

async function publishNight(runDate: string): Promise<void> {
  const db = await fixtureDb(FIXTURE_ROWS, runDate);
  try {
    const created = new Date(`${runDate}T03:15:00Z`);
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
  for (const night of NIGHTS) {
    const file = publicDbPaths(root).fileFor(night);
    await writePublicFixture(file);
    const db = await openDb(file);
    await db.run(`CREATE TABLE night AS SELECT DATE '${night}' AS night`);
    await db.run("CHECKPOINT");
    db.close();
  }
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
    payload: { sql: "SELECT night FROM night" },
  });
  const body = res.json() as { data: { run_date: string; rows: unknown[][] } };
  return [res.statusCode, body.data.run_date, body.data.rows];
}

describe("POST /api/v1/query across a release switch", () => {
  it("reads the served night's public database, then the next night's once its release is live", async () => {
    expect(await night()).toEqual([200, "2026-03-01", [["2026-03-01"]]]);
    await publishNight(NIGHTS[1] as string);
    expect(await night()).toEqual([200, "2026-03-01", [["2026-03-01"]]]); // not yet reloaded: still the old night
    expect(await reader.reload()).toBe(true);
    expect(await night()).toEqual([200, "2026-03-02", [["2026-03-02"]]]);
  });
});
