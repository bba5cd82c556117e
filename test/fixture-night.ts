// A fixture night for tests that publish to a folder or a bucket as `projintel publish --target` does: the fixture's
// scored warehouse, the night's public database (pipeline's public tables) and a release made from them. Here in test/
// because it needs the pipeline's fixtures, which the shim's own helpers (api-shim/testing.ts) must not import.
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { loadConfig } from "../core/config.ts";
import { openDb } from "../core/db.ts";
import { publicDbName, publicDbPaths } from "../core/public-db.ts";
import { type Storage, sha256File } from "../core/storage.ts";
import { writePublicFixture } from "../pipeline/public-testing.ts";
import { publishRelease } from "../publish/release.ts";
import { FIXTURE_ROWS, type FixtureRow, fixtureDb } from "../publish/testing.ts";

/**
 * Builds the public database of `runDate` in the state folder `stateDir` (`<state>/public/<run_date>.duckdb`, which a
 * publish to a remote uploads to public-db/<run_date>.duckdb): the fixture's public tables and a table `night` holding
 * the run date, so a query tells which night's file answered.
 */
export async function writeFixturePublicDb(stateDir: string, runDate: string): Promise<void> {
  const paths = publicDbPaths(stateDir);
  const file = paths.fileFor(runDate);
  await mkdir(paths.dir, { recursive: true });
  await writePublicFixture(file);
  const db = await openDb(file);
  try {
    await db.run(`CREATE TABLE night AS SELECT DATE '${runDate}' AS night`);
    await db.run("CHECKPOINT");
  } finally {
    db.close();
  }
}

/** Writes the fixture's scored warehouse of `runDate` as `<stateDir>/warehouse.duckdb`, for `projintel publish`. */
export async function writeFixtureWarehouse(stateDir: string, runDate: string): Promise<void> {
  const file = path.join(stateDir, "warehouse.duckdb");
  await rm(file, { force: true });
  const db = await fixtureDb(FIXTURE_ROWS, runDate);
  try {
    await db.run(`ATTACH '${file}' AS warehouse`);
    await db.run("COPY FROM DATABASE memory TO warehouse");
    await db.run("DETACH warehouse");
  } finally {
    db.close();
  }
}

/**
 * Publishes the fixture rows as the release of `runDate` on `storage` (a folder or a bucket) from the state folder
 * `stateDir`, as `projintel publish --target` does; with `publicDb` (the default) the night's public database is
 * built there first, so the publish uploads it.
 */
export async function publishFixtureNight(
  storage: Storage,
  runDate: string,
  options: { stateDir: string; publicDb?: boolean; rows?: readonly FixtureRow[] },
): Promise<string> {
  if (options.publicDb ?? true) await writeFixturePublicDb(options.stateDir, runDate);
  const db = await fixtureDb(options.rows ?? FIXTURE_ROWS, runDate);
  try {
    const created = new Date(`${runDate}T03:15:00Z`);
    const report = await publishRelease({
      db,
      storage,
      config: loadConfig({ overrides: { stateDir: options.stateDir } }),
      clock: { now: () => created },
      force: true,
    });
    return report.releaseId;
  } finally {
    db.close();
  }
}

/**
 * Writes a build of the night's public database into `<stateDir>/public/`, named by its bytes as `projintel score`
 * names it: the fixture's public tables and a table `night` holding the night and `build`, so a query tells which
 * build answered. Returns its file name.
 */
export async function writeNightBuild(stateDir: string, night: string, build: string): Promise<string> {
  const dir = publicDbPaths(stateDir).dir;
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `${night}-building.tmp`);
  await writePublicFixture(temp);
  const db = await openDb(temp);
  try {
    await db.run(`CREATE TABLE night AS SELECT DATE '${night}' AS night, '${build}' AS build`);
    await db.run("CHECKPOINT");
  } finally {
    db.close();
  }
  const name = `${publicDbName(night, await sha256File(temp))}.duckdb`;
  await rename(temp, path.join(dir, name));
  return name;
}
