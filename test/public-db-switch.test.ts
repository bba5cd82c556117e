// A shim switching to the next night's public database on a bucket (s3rver behind a metering proxy) downloads the
// night's manifest and nightly part, plus a history part only on the night its period closes; the publish uploads
// the same; the shim's copy answers what the warehouse holds.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicDbMirror, type PublicDbMirror } from "../api-shim/query/public-db-mirror.ts";
import { loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { manifestBeside, publicDbPaths } from "../core/public-db.ts";
import { openQueryRunner } from "../core/query/index.ts";
import { createS3Storage } from "../core/storage-s3.ts";
import { PUBLIC_TABLES, type PublicDbReport, publishPublicDb } from "../pipeline/public-db.ts";
import {
  addFixtureNight,
  addFixtureNights,
  createPublicTables,
  makeTempDir,
} from "../pipeline/public-testing.ts";
import { uploadPublicDb } from "../publish/release-target.ts";
import { startS3Meter } from "./s3-meter.ts";
import { type S3TestServer, startS3Server } from "./s3-server.ts";

const BUCKET = "switch";
const PREFIX = "site";

describe("switching to the next night's public database on a bucket", () => {
  let s3: S3TestServer;
  let meter: Awaited<ReturnType<typeof startS3Meter>>;
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let warehouse: Db;
  let mirror: PublicDbMirror;
  const build = () => path.join(temp.dir, "build");
  const shim = () => path.join(temp.dir, "shim");

  beforeAll(async () => {
    [s3, temp] = await Promise.all([startS3Server(), makeTempDir()]);
    meter = await startS3Meter(s3.url);
    await s3.bucket(BUCKET);
    warehouse = await openDb(path.join(temp.dir, "warehouse.duckdb"));
    await createPublicTables(warehouse);
    await addFixtureNights(warehouse, "2026-11-02");
    // the shim reads the bucket through the meter, which counts every object it downloads
    const metered = createS3Storage({
      bucket: BUCKET,
      prefix: PREFIX,
      options: s3.config.s3,
      client: { ...s3.client, endpoint: meter.url },
    });
    mirror = await createPublicDbMirror({ storage: metered, stateRoot: shim() });
  }, 120_000);

  afterAll(async () => {
    warehouse?.close();
    await meter?.close();
    await s3?.stop();
    await temp?.remove();
  });

  /** Builds and publishes the night (as `score` then `publish --target` do); the keys the publish uploaded. */
  async function publishNight(runDate: string): Promise<{ report: PublicDbReport; uploaded: string[] }> {
    await addFixtureNight(warehouse, runDate);
    const report = await publishPublicDb({ db: warehouse, stateRoot: build(), runDate });
    const before = s3.events.length;
    const config = loadConfig({ overrides: { stateDir: build() } });
    await uploadPublicDb(s3.storage(BUCKET, PREFIX), config, runDate, silentLogger);
    const uploaded = s3.events.slice(before).map((e) => e.key.slice(PREFIX.length + 1));
    return { report, uploaded };
  }

  /** The shim's switch to the night: what it downloaded (objects, bytes). */
  async function switchTo(runDate: string): Promise<[number, number]> {
    meter.take();
    await mirror.prepare(runDate);
    const { down_objects, down_bytes } = meter.take();
    return [down_objects, down_bytes];
  }

  const size = async (file: string) => (await stat(file)).size;
  const nightlyAndManifest = async (report: PublicDbReport) =>
    (await size(report.file)) + (await size(manifestBeside(report.file)));
  const partBytes = (report: PublicDbReport, names: readonly string[]) =>
    report.parts.filter((p) => names.includes(p.name)).reduce((sum, p) => sum + p.bytes, 0);

  it("downloads only the nightly part and the manifest, and a part on the night its period closes", async () => {
    // Tuesday: the first switch downloads every part
    const tuesday = await publishNight("2026-11-03");
    const allParts = tuesday.report.parts.map((p) => p.name);
    // the 12 whole weeks of snapshots kept (from 2026-08-10; 90 nights reach back to 2026-08-06), July to October of
    // contributors, the fixture's October of releases and its three months of transitions
    expect(allParts).toHaveLength(20);
    expect(tuesday.uploaded.sort()).toEqual(
      [
        ...allParts.map((n) => `public-db/parts/${n}.duckdb`),
        "public-db/2026-11-03.duckdb",
        "public-db/2026-11-03.json",
      ].sort(),
    );
    expect(await switchTo("2026-11-03")).toEqual([
      allParts.length + 2,
      (await nightlyAndManifest(tuesday.report)) + partBytes(tuesday.report, allParts),
    ]);

    // Wednesday: no period closed; only the nightly part and the manifest go up, and come down
    const wednesday = await publishNight("2026-11-04");
    expect(wednesday.report.parts.map((p) => p.name)).toEqual(allParts);
    expect(wednesday.uploaded).toEqual(["public-db/2026-11-04.duckdb", "public-db/2026-11-04.json"]);
    expect(await switchTo("2026-11-04")).toEqual([2, await nightlyAndManifest(wednesday.report)]);

    // the next Monday: the week from 2026-11-02 closed, so its part comes too (once)
    for (const night of ["2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08"]) {
      await addFixtureNight(warehouse, night);
    }
    const monday = await publishNight("2026-11-09");
    const closed = monday.report.parts.filter((p) => p.built).map((p) => p.name);
    expect(closed.map((n) => n.slice(0, -17))).toEqual(["snapshots-2026-11-02"]);
    expect(monday.uploaded).toEqual([
      `public-db/parts/${closed[0]}.duckdb`,
      "public-db/2026-11-09.duckdb",
      "public-db/2026-11-09.json",
    ]);
    expect(await switchTo("2026-11-09")).toEqual([
      3,
      (await nightlyAndManifest(monday.report)) + partBytes(monday.report, closed),
    ]);

    // the shim keeps the parts its two nights name, and its copy answers what the warehouse holds
    const kept = new Set([...wednesday.report.parts, ...monday.report.parts].map((p) => `${p.name}.duckdb`));
    expect((await readdir(publicDbPaths(shim()).partsDir)).sort()).toEqual([...kept].sort());
    const runner = await openQueryRunner({ file: publicDbPaths(shim()).fileFor("2026-11-09"), threads: 1 });
    try {
      for (const table of PUBLIC_TABLES) {
        const sql = `SELECT count(*)::VARCHAR || ' ' || coalesce(sum(hash(t)), 0)::VARCHAR AS f FROM ${table} t`;
        const [expected] = await warehouse.all<{ f: string }>(sql);
        expect([table, (await runner.run(sql)).rows[0]?.[0]]).toEqual([table, expected?.f]);
      }
    } finally {
      runner.close();
    }
  }, 180_000);
});
