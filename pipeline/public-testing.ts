// Test helper: a hand-made set of the public tables (pipeline/testdata/public-tables.sql, the contract's
// columns and a few rows each) in a warehouse, or in a public database file built from one.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { addDays, isoDay } from "../core/clock.ts";
import { type Db, openDb, runSqlFile } from "../core/db.ts";
import { SNAPSHOT_DAYS } from "./score.ts";

export const PUBLIC_FIXTURE_SQL = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "testdata",
  "public-tables.sql",
);

/** The run date of the fixture's projects. */
export const FIXTURE_RUN_DATE = "2026-11-01";

/** Creates the fixture's public tables in the database. */
export async function createPublicTables(db: Db): Promise<void> {
  await runSqlFile(db, PUBLIC_FIXTURE_SQL);
}

/** A temp folder under os.tmpdir(), and a function that removes it. */
export async function makeTempDir(prefix = "projintel-public-"): Promise<{
  dir: string;
  remove: () => Promise<void>;
}> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** Writes a DuckDB file holding only the fixture's public tables, as buildPublicDb would. */
export async function writePublicFixture(file: string): Promise<void> {
  const db = await openDb(file);
  try {
    await createPublicTables(db);
    await db.run("CHECKPOINT");
  } finally {
    db.close();
  }
}

/** The first night of the history addFixtureNight builds on (a Wednesday). */
export const GENERATED_FIRST_NIGHT = "2026-07-01";

/**
 * Adds the night `runDate` to the fixture's dated public tables as a nightly run would: a snapshot of each of
 * `repos` generated repositories, a contributor count for a third of them (a different third each night), and the
 * snapshots past SNAPSHOT_DAYS removed, as pipeline/sql/snapshots.sql does.
 */
export async function addFixtureNight(db: Db, runDate: string, repos = 20): Promise<void> {
  const night = `DATE '${runDate}'`;
  const day = `(${night} - DATE '${GENERATED_FIRST_NIGHT}')`;
  await db.run(
    `INSERT INTO snapshots BY NAME
     SELECT ${night} AS date, 'G_' || i AS node_id, 'gen/repo-' || i AS full_name,
       (1000 + 10 * i + ${day})::INTEGER AS stars, (i % 7)::INTEGER AS forks,
       (hash(i, ${night}) % 100)::INTEGER AS quality_score, CASE WHEN i % 2 = 0 THEN 'high' ELSE 'low' END AS quality_tier
     FROM range(${repos}) AS t(i);
     DELETE FROM snapshots WHERE date <= ${night} - ${SNAPSHOT_DAYS};
     INSERT INTO contributors
     SELECT 'G_' || i, 'gen/repo-' || i, ${night}, (10 + i + ${day} // 7)::INTEGER
     FROM range(${repos}) AS t(i) WHERE (i + ${day}) % 3 = 0;`,
  );
}

/** Adds every night from GENERATED_FIRST_NIGHT to `last` (addFixtureNight), in order. */
export async function addFixtureNights(db: Db, last: string, repos = 20): Promise<void> {
  for (let d = new Date(`${GENERATED_FIRST_NIGHT}T00:00:00Z`); isoDay(d) <= last; d = addDays(d, 1)) {
    await addFixtureNight(db, isoDay(d), repos);
  }
}

/** A raw table holding only run_date, with `n` rows on each of the given nights (what ds_status.sql reads of it). */
export async function rawTable(db: Db, table: string, nights: Record<string, number>): Promise<void> {
  await db.run(`CREATE TABLE ${table} (run_date DATE)`);
  for (const [night, n] of Object.entries(nights)) {
    await db.run(`INSERT INTO ${table} SELECT DATE '${night}' FROM range(${n})`);
  }
}
