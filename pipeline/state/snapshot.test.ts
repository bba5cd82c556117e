// The snapshot's trim of the registries' raw rows, against the warehouse it was taken of: 60 nights of PyPI, npm,
// Docker Hub and Hugging Face rows for packages refreshed every night to every 9th (one losing its repository link,
// one not seen for 43 nights), npm's monthly points and daily series. The snapshot keeps far fewer rows, and the
// packages a later night derives from them (feat_packages.sql) are the same on the warehouse restored from it as on
// the original, on the next night and on nights long after; the rows releases.sql would still read (those after the
// latest release it recorded, on night 30 here) are all kept. The lifecycle candidates a restore leaves are those
// scoring left night after night. And a snapshot carries the months of snapshots whose rows did not change.
import { mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays, isoDay } from "../../core/clock.ts";
import { type Db, openDb } from "../../core/db.ts";
import { silentLogger } from "../../core/log.ts";
import {
  CANDIDATE_NIGHTS,
  ensureRawTables,
  retainCandidates,
  runTransform,
  setScoreVariables,
} from "../score.ts";
import { readSnapshotManifest, restoreWarehouse, writeSnapshot } from "./snapshot.ts";

const FIRST = "2026-08-01";
const NIGHTS = 60;
const SNAPSHOT = isoDay(addDays(new Date(`${FIRST}T00:00:00Z`), NIGHTS - 1));
const day = (k: number) => isoDay(addDays(new Date(`${FIRST}T00:00:00Z`), k));

/** The latest release recorded: releases.sql reads the registries' rows after it. */
const RELEASES_SINCE = day(30);

/** Night k of package i: refreshed every (i + 1)th night; package 7 not after night 19 (its last: night 16). */
const seen = (i: number, k: number) => k % (i + 1) === 0 && !(i === 7 && k > 19);

async function fill(db: Db): Promise<void> {
  await ensureRawTables(db);
  const releases = (
    await readFile(path.join(import.meta.dirname, "..", "sql", "releases.sql"), "utf8")
  ).match(/CREATE TABLE IF NOT EXISTS releases \([\s\S]*?\n\);/);
  if (!releases) throw new Error("releases.sql no longer holds its CREATE TABLE");
  await db.run(releases[0]);
  await db.run(
    `INSERT INTO releases VALUES ('owner/repo-1', 'pypi', 'pkg-1', '1.3.1', NULL, false, DATE '${RELEASES_SINCE}', NULL)`,
  );
  const rows = {
    pypi: [] as string[],
    pypiDl: [] as string[],
    npm: [] as string[],
    npmDl: [] as string[],
    docker: [] as string[],
    hf: [] as string[],
  };
  for (let k = 0; k < NIGHTS; k++) {
    const run = `DATE '${day(k)}'`;
    for (let i = 0; i < 9; i++) {
      if (!seen(i, k)) continue;
      const p = `'pkg-${i}'`;
      // package 3 loses its repository link on night 50: the latest row naming one is older
      const repo = i === 3 && k >= 50 ? "NULL" : `'owner/repo-${i}'`;
      const version = `'1.${Math.floor(k / 10)}.${i}'`;
      rows.pypi.push(`(${run}, ${p}, ${repo}, ${version}, ['numpy'], ${k + 1}, ${k}, now()::TIMESTAMP)`);
      rows.pypiDl.push(`(${run}, ${p}, ${k}, ${7 * k}, ${30 * k + i}, now()::TIMESTAMP)`);
      rows.npm.push(`(${run}, ${p}, ${repo}, ${version}, ${k + 2}, ['pkg-0'], false, now()::TIMESTAMP)`);
      // a monthly point each refresh; a daily series of the last 3 days every other refresh
      rows.npmDl.push(`(${run}, ${p}, ${run} - 30, ${run} - 1, ${1000 * k + i}, now()::TIMESTAMP)`);
      if (k % 2 === 0)
        for (let d = 1; d <= 3; d++)
          rows.npmDl.push(`(${run}, ${p}, ${run} - ${d}, ${run} - ${d}, ${10 * k + d}, now()::TIMESTAMP)`);
      rows.docker.push(`(${run}, 'img/${i}', 'owner/repo-${i}', 'name', ${k * 5}, ${k}, now()::TIMESTAMP)`);
      rows.hf.push(
        `(${run}, 'org/model-${i}', 'owner/repo-${i}', 'name', [], [], [], false, ${k * 3}, now()::TIMESTAMP)`,
      );
    }
  }
  await db.run(
    `INSERT INTO raw_pypi_projects (run_date, package, repo_full_name, version, requires_dist, releases_total, stable_releases, fetched_at) VALUES ${rows.pypi.join(", ")}`,
  );
  await db.run(
    `INSERT INTO raw_pypi_downloads (run_date, package, last_day, last_week, last_month, fetched_at) VALUES ${rows.pypiDl.join(", ")}`,
  );
  await db.run(
    `INSERT INTO raw_npm_packages (run_date, package, repo_full_name, version, versions_total, dependencies, deprecated, fetched_at) VALUES ${rows.npm.join(", ")}`,
  );
  await db.run(
    `INSERT INTO raw_npm_downloads (run_date, package, start_date, end_date, downloads, fetched_at) VALUES ${rows.npmDl.join(", ")}`,
  );
  await db.run(
    `INSERT INTO raw_dockerhub_repos (run_date, image, repo_full_name, matched_by, pull_count, star_count, fetched_at) VALUES ${rows.docker.join(", ")}`,
  );
  await db.run(
    `INSERT INTO raw_hf_models (run_date, model_id, repo_full_name, matched_by, tags, arxiv_ids, linked_repos, gated, downloads, fetched_at) VALUES ${rows.hf.join(", ")}`,
  );
}

describe("the warehouse snapshot's registry rows", () => {
  let work: string;
  let original: Db;
  let restored: Db;

  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "pis-snapshot-trim-"));
    const state = path.join(work, "state");
    original = await openDb(path.join(work, "original.duckdb"));
    await fill(original);
    await writeSnapshot({ db: original, stateRoot: state, night: SNAPSHOT, logger: silentLogger });
    const target = path.join(work, "restored.duckdb");
    await restoreWarehouse({
      stateRoot: state,
      night: SNAPSHOT,
      historyRoot: path.join(work, "no-history"),
      target,
      logger: silentLogger,
    });
    restored = await openDb(target);
  });

  afterAll(async () => {
    original?.close();
    restored?.close();
    await rm(work, { recursive: true, force: true });
  });

  const count = async (db: Db, sql: string) => (await db.all<{ n: number }>(sql))[0]?.n;

  it("keeps the last nights whole and of the older ones each package's latest rows", async () => {
    const tables = ["raw_pypi_projects", "raw_npm_downloads", "raw_hf_models"];
    const before = await Promise.all(
      tables.map((t) => count(original, `SELECT count(*)::INTEGER AS n FROM ${t}`)),
    );
    const after = await Promise.all(
      tables.map((t) => count(restored, `SELECT count(*)::INTEGER AS n FROM ${t}`)),
    );
    // 60 nights: 166 refreshes (60 + 30 + 20 + 15 + 12 + 10 + 9 + 3 for package 7 + 7); npm's 113 of them on an even
    // night with 3 daily rows besides the point
    expect(before).toEqual([166, 166 + 3 * 113, 166]);
    // PyPI: the 75 rows of nights 31 to 59 (after the last release; package 3's latest naming its repository, night
    // 48, among them) and package 7's latest (night 16); the Hub: the 58 rows of nights 37 to 59 (the last 23) and
    // package 7's latest; npm: the last 23 nights and package 7's latest point and latest day
    expect(after).toEqual([76, 174, 59]);
    // the snapshot's tables carry no primary key the code dropped (snapshots, lifecycle candidates)
    expect(
      await count(
        restored,
        "SELECT count(*)::INTEGER AS n FROM duckdb_constraints() WHERE table_name IN ('snapshots', 'lifecycle_candidates') AND constraint_type = 'PRIMARY KEY'",
      ),
    ).toBe(0);
  });

  it("keeps every row releases.sql would still read", async () => {
    for (const table of ["raw_pypi_projects", "raw_npm_packages"]) {
      const read = `SELECT * FROM ${table} WHERE run_date > DATE '${RELEASES_SINCE}' ORDER BY ALL`;
      const rows = await original.all(read);
      expect(rows.length).toBeGreaterThan(70);
      expect(await restored.all(read)).toEqual(rows);
    }
  });

  for (const later of [1, 10, 40]) {
    it(`derives the same packages ${later} night(s) after the snapshot`, async () => {
      const runDate = day(NIGHTS - 1 + later);
      const derived = async (db: Db) => {
        await setScoreVariables(db, runDate);
        await runTransform(db, "feat_packages");
        return db.all(
          "SELECT * EXCLUDE (dependencies), list_sort(dependencies) AS dependencies FROM feat_packages ORDER BY ALL",
        );
      };
      const packages = await derived(original);
      expect(packages.length).toBeGreaterThan(20);
      expect(await derived(restored)).toEqual(packages);
    });
  }
});

describe("the lifecycle candidates a restore leaves", () => {
  it("are those scoring left each night: the older nights trimmed as of the latest night restored", async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "pis-snapshot-candidates-"));
    const state = path.join(work, "state");
    const history = path.join(state, "history");
    const original = await openDb(path.join(work, "original.duckdb"));
    let restored: Db | undefined;
    try {
      await ensureRawTables(original);
      // 30 nights of 3 repositories, each night's candidates appended and the older ones trimmed as score() does;
      // r-2 is archived on nights 3 to 5, r-3 seen every 4th night. The snapshot of night 20, the history after it.
      const snapshotNight = day(20);
      for (let k = 0; k < 30; k++) {
        await original.run(
          `INSERT INTO lifecycle_candidates VALUES ('r-1', DATE '${day(k)}', 'growing', false), ('r-2', DATE '${day(k)}', 'dormant', ${k >= 3 && k <= 5})`,
        );
        if (k % 4 === 0)
          await original.run(
            `INSERT INTO lifecycle_candidates VALUES ('r-3', DATE '${day(k)}', 'fading', false)`,
          );
        await setScoreVariables(original, day(k));
        await retainCandidates(original);
        if (day(k) === snapshotNight)
          await writeSnapshot({ db: original, stateRoot: state, night: snapshotNight, logger: silentLogger });
        if (k > 20) {
          const dir = path.join(history, "lifecycle", `date=${day(k)}`);
          await mkdir(dir, { recursive: true });
          await original.run(
            `COPY (SELECT * EXCLUDE (date) FROM lifecycle_candidates WHERE date = DATE '${day(k)}') TO '${path.join(dir, "data.parquet")}' (FORMAT parquet)`,
          );
        }
      }
      const target = path.join(work, "restored.duckdb");
      await restoreWarehouse({
        stateRoot: state,
        night: snapshotNight,
        historyRoot: history,
        target,
        logger: silentLogger,
      });
      restored = await openDb(target);
      const rows =
        "SELECT node_id, date::VARCHAR AS date, is_archived FROM lifecycle_candidates ORDER BY ALL";
      const left = await original.all<{ node_id: string; date: string; is_archived: boolean }>(rows);
      expect(await restored.all(rows)).toEqual(left);
      // the last 7 nights whole (r-3's on nights 24 and 28); before them r-3's third latest (night 20) and r-2's 3
      // archived nights, nothing else
      expect(left.length).toBe(2 * CANDIDATE_NIGHTS + 2 + 1 + 3);
      expect(left.filter((r) => r.is_archived).map((r) => r.date)).toEqual([day(3), day(4), day(5)]);
    } finally {
      original.close();
      restored?.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe("the monthly files of snapshots", () => {
  it("carries the months whose rows did not change from the previous snapshot, and restores the same rows", async () => {
    const work = await mkdtemp(path.join(os.tmpdir(), "pis-snapshot-months-"));
    const state = path.join(work, "state");
    const original = await openDb(path.join(work, "original.duckdb"));
    let restored: Db | undefined;
    try {
      await ensureRawTables(original);
      const nights = (from: string, count: number) =>
        original.run(
          `INSERT INTO snapshots SELECT DATE '${from}' + d::INTEGER, 'r-' || r, 'o/r-' || r, 100 + d + r, 1, 1, 1, NULL, 1,
             0, 0, 50, 10, 10, 10, 20, 'established', 'growing' FROM range(${count}) t(d), range(3) u(r)`,
        );
      const retain = (night: string) =>
        original.run(`DELETE FROM snapshots WHERE date <= DATE '${night}' - 90`);
      // the 90 nights up to 2026-09-10 (from 2026-06-13), snapshot; 4 more nights (June loses 4 to the retention), one
      // July night re-scored with other stars, snapshot again
      await nights("2026-06-13", 90);
      const snapshot = (night: string) =>
        writeSnapshot({ db: original, stateRoot: state, night, logger: silentLogger });
      const first = await snapshot("2026-09-10");
      expect(first.carried_files).toBe(0);
      await nights("2026-09-11", 4);
      await retain("2026-09-14");
      await original.run("UPDATE snapshots SET stars = stars + 1 WHERE date = DATE '2026-07-20'");
      const second = await snapshot("2026-09-14");
      // June (its 4 dropped nights stay in the file) and August carried; July (changed) and September written
      expect(second.carried_files).toBe(2);
      const manifest = await readSnapshotManifest(state, "2026-09-14");
      const files = manifest.tables.find((t) => t.table === "snapshots")?.files ?? [];
      expect(files.map((f) => [f.name, f.rows])).toEqual([
        ["snapshots.2026-06.parquet", 18 * 3],
        ["snapshots.2026-07.parquet", 31 * 3],
        ["snapshots.2026-08.parquet", 31 * 3],
        ["snapshots.2026-09.parquet", 14 * 3],
      ]);
      const target = path.join(work, "restored.duckdb");
      await restoreWarehouse({
        stateRoot: state,
        night: "2026-09-14",
        historyRoot: path.join(work, "no-history"),
        target,
        logger: silentLogger,
      });
      restored = await openDb(target);
      const rows = "SELECT date::VARCHAR AS date, node_id, stars FROM snapshots ORDER BY ALL";
      const expected = await original.all(rows);
      expect(expected).toHaveLength(90 * 3);
      expect(await restored.all(rows)).toEqual(expected);
    } finally {
      original.close();
      restored?.close();
      await rm(work, { recursive: true, force: true });
    }
  });
});
