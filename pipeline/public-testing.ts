// Test helper: a hand-made set of the public tables (pipeline/testdata/public-tables.sql, the contract's
// columns and a few rows each) in a warehouse, or in a public database file built from one.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Db, openDb, runSqlFile } from "../core/db.ts";

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
