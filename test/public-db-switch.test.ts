// A shim switching to the next night's public database on a bucket (s3rver behind a metering proxy) downloads the
// night's manifest and the gzipped copy of its nightly part, plus a history part's only on the night its period
// closes; the publish uploads the same, each object with its gzipped copy; the shim's copy answers what the warehouse
// holds. A gzipped copy that does not unpack to its object, or none, and the shim downloads the object itself.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPublicDbMirror, type PublicDbMirror } from "../api-shim/query/public-db-mirror.ts";
import { loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { gzippedKey, manifestBeside, publicDbKey, publicDbPaths } from "../core/public-db.ts";
import { openQueryRunner } from "../core/query/index.ts";
import { createLocalStorage } from "../core/storage.ts";
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

  /** The shim's switch to the night's build (a release naming it): what it downloaded (objects, bytes). */
  async function switchTo(report: PublicDbReport): Promise<[number, number]> {
    meter.take();
    await mirror.prepare({ run_date: report.run_date, public_db: path.basename(report.file) });
    const { down_objects, down_bytes } = meter.take();
    return [down_objects, down_bytes];
  }

  const size = async (file: string) => (await stat(file)).size;
  /** The bytes of an object's gzipped copy in the bucket. */
  const gzippedBytes = async (key: string) =>
    (await s3.storage(BUCKET, PREFIX).stat(gzippedKey(key)))?.bytes ?? Number.NaN;
  /** The build's name, by which the bucket and the shim hold it (`<run_date>-<sha256 prefix>`). */
  const nameOf = (report: PublicDbReport) => path.basename(report.file, ".duckdb");
  const nightlyAndManifest = async (report: PublicDbReport) =>
    (await gzippedBytes(publicDbKey(nameOf(report)))) + (await size(manifestBeside(report.file)));
  const partBytes = async (names: readonly string[]) => {
    let sum = 0;
    for (const name of names) sum += await gzippedBytes(`public-db/parts/${name}.duckdb`);
    return sum;
  };
  /** An object and its gzipped copy, in the order a publish uploads them. */
  const withCopy = (key: string) => [`${key}.gz`, key];

  it("downloads only the nightly part and the manifest, and a part on the night its period closes", async () => {
    // Tuesday: the first switch downloads every part
    const tuesday = await publishNight("2026-11-03");
    const allParts = tuesday.report.parts.map((p) => p.name);
    // the 12 whole weeks of snapshots kept (from 2026-08-10; 90 nights reach back to 2026-08-06), July to October of
    // contributors, the fixture's October of releases and its three months of transitions
    expect(allParts).toHaveLength(20);
    expect(tuesday.uploaded).toEqual([
      ...allParts.flatMap((n) => withCopy(`public-db/parts/${n}.duckdb`)),
      ...withCopy(`public-db/${nameOf(tuesday.report)}.duckdb`),
      `public-db/${nameOf(tuesday.report)}.json`,
    ]);
    expect(await switchTo(tuesday.report)).toEqual([
      allParts.length + 2,
      (await nightlyAndManifest(tuesday.report)) + (await partBytes(allParts)),
    ]);
    // what travels is less than half the databases' bytes
    const plain =
      (await size(tuesday.report.file)) + tuesday.report.parts.reduce((sum, p) => sum + p.bytes, 0);
    expect(
      (await gzippedBytes(publicDbKey(nameOf(tuesday.report)))) + (await partBytes(allParts)),
    ).toBeLessThan(plain / 2);

    // Wednesday: no period closed; only the nightly part and the manifest go up, and come down
    const wednesday = await publishNight("2026-11-04");
    expect(wednesday.report.parts.map((p) => p.name)).toEqual(allParts);
    expect(wednesday.uploaded).toEqual([
      ...withCopy(`public-db/${nameOf(wednesday.report)}.duckdb`),
      `public-db/${nameOf(wednesday.report)}.json`,
    ]);
    expect(await switchTo(wednesday.report)).toEqual([2, await nightlyAndManifest(wednesday.report)]);

    // the next Monday: the week from 2026-11-02 closed, so its part comes too (once)
    for (const night of ["2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08"]) {
      await addFixtureNight(warehouse, night);
    }
    const monday = await publishNight("2026-11-09");
    const closed = monday.report.parts.filter((p) => p.built).map((p) => p.name);
    expect(closed.map((n) => n.slice(0, -17))).toEqual(["snapshots-2026-11-02"]);
    expect(monday.uploaded).toEqual([
      ...withCopy(`public-db/parts/${closed[0]}.duckdb`),
      ...withCopy(`public-db/${nameOf(monday.report)}.duckdb`),
      `public-db/${nameOf(monday.report)}.json`,
    ]);
    expect(await switchTo(monday.report)).toEqual([
      3,
      (await nightlyAndManifest(monday.report)) + (await partBytes(closed)),
    ]);

    // the shim keeps the parts its two nights name, and its copy answers what the warehouse holds
    const kept = new Set([...wednesday.report.parts, ...monday.report.parts].map((p) => `${p.name}.duckdb`));
    expect((await readdir(publicDbPaths(shim()).partsDir)).sort()).toEqual([...kept].sort());
    const runner = await openQueryRunner({
      file: publicDbPaths(shim()).fileFor(nameOf(monday.report)),
      threads: 1,
    });
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

  it("downloads the object itself when its gzipped copy is damaged or missing, and serves the same rows", async () => {
    const bucket = s3.storage(BUCKET, PREFIX);
    const expected = async (report: PublicDbReport) => {
      const [row] = await warehouse.all<{ f: string }>(
        "SELECT count(*)::VARCHAR || ' ' || sum(hash(t))::VARCHAR AS f FROM projects t",
      );
      const runner = await openQueryRunner({
        file: publicDbPaths(shim()).fileFor(nameOf(report)),
        threads: 1,
      });
      try {
        const sql = "SELECT count(*)::VARCHAR || ' ' || sum(hash(t))::VARCHAR AS f FROM projects t";
        expect((await runner.run(sql)).rows[0]?.[0]).toBe(row?.f);
      } finally {
        runner.close();
      }
    };
    // a copy cut short (a damaged object): it cannot unpack, so the object itself comes
    const damaged = await publishNight("2026-11-10");
    const key = publicDbKey(nameOf(damaged.report));
    const copy = (await bucket.get(gzippedKey(key))) as Buffer;
    await bucket.put(gzippedKey(key), copy.subarray(0, copy.length >> 1));
    const [objects, bytes] = await switchTo(damaged.report);
    // the manifest and the object itself came whole (what of the aborted copy the meter saw varies)
    const whole = (await size(damaged.report.file)) + (await size(manifestBeside(damaged.report.file)));
    expect([objects >= 2, bytes >= whole, bytes <= whole + copy.length]).toEqual([true, true, true]);
    await expected(damaged.report);
    // an older publish's bucket, with no gzipped copy
    const missing = await publishNight("2026-11-11");
    await bucket.delete(gzippedKey(publicDbKey(nameOf(missing.report))));
    expect(await switchTo(missing.report)).toEqual([
      2,
      (await size(missing.report.file)) + (await size(manifestBeside(missing.report.file))),
    ]);
    await expected(missing.report);
  }, 120_000);

  it("on a runner without the parts, builds none the bucket holds; a publish elsewhere names the part it lacks", async () => {
    // the night again, scored on a fresh runner against the bucket (the nightly's score job)
    await addFixtureNight(warehouse, "2026-11-12");
    const fresh = path.join(temp.dir, "fresh-runner");
    const bucket = s3.storage(BUCKET, PREFIX);
    const report = await publishPublicDb({
      db: warehouse,
      stateRoot: fresh,
      runDate: "2026-11-12",
      target: bucket,
    });
    expect(report.parts.length).toBeGreaterThan(0);
    expect(report.parts.filter((p) => p.built || !p.held)).toEqual([]);
    const config = loadConfig({ overrides: { stateDir: fresh } });
    const before = s3.events.length;
    expect(await uploadPublicDb(bucket, config, "2026-11-12", silentLogger)).toBe("uploaded");
    // the nightly part (with its copy) and the manifest: no part
    expect(s3.events.slice(before).map((e) => e.key.slice(PREFIX.length + 1))).toEqual([
      ...withCopy(publicDbKey(nameOf(report))),
      `public-db/${nameOf(report)}.json`,
    ]);
    await expect(
      uploadPublicDb(
        createLocalStorage(path.join(temp.dir, "elsewhere")),
        config,
        "2026-11-12",
        silentLogger,
      ),
    ).rejects.toThrow(`reads the history part ${report.parts[0]?.name}, which neither`);
  }, 120_000);
});
