// A warehouse restored for collection alone (`state pull --recent --raw-only`, a nightly collect job): only the raw
// tables, which are all that collecting reads (its plans and the sources' history: pipeline/collect.ts), without the
// 90 nights of snapshots, the transitions, the lifecycle candidates and the year of contributor counts that scoring
// reads. Such a warehouse says so in a table of its own, written in the same file before it is renamed into place,
// so no crash leaves one unmarked; scoring, publishing or replaying on it is refused (it would lose the history),
// and a whole `state pull` replaces it.
import { existsSync } from "node:fs";
import { type Db, openDb, sqlLiteral } from "../../core/db.ts";
import { AppError } from "../../core/errors.ts";

/** The marker table of a raw-only warehouse: the snapshot night it was restored from. */
const RAW_ONLY_TABLE = "restored_raw_only";

/** Marks the warehouse `db` (still under its temp name) as holding the raw tables only. */
export async function markRawOnly(db: Db, snapshot: string): Promise<void> {
  await db.run(`CREATE TABLE ${RAW_ONLY_TABLE} AS SELECT DATE ${sqlLiteral(snapshot)} AS snapshot`);
}

/** The snapshot night a raw-only warehouse was restored from; undefined for a whole warehouse. */
export async function rawOnlySnapshot(db: Db): Promise<string | undefined> {
  const [marked] = await db.all<{ n: number }>(
    "SELECT count(*)::INTEGER AS n FROM duckdb_tables() WHERE table_name = ? AND database_name = current_database()",
    [RAW_ONLY_TABLE],
  );
  if (!marked?.n) return undefined;
  const [row] = await db.all<{ snapshot: string }>(
    `SELECT strftime(snapshot, '%Y-%m-%d') AS snapshot FROM ${RAW_ONLY_TABLE}`,
  );
  return row?.snapshot;
}

/** Whether the warehouse file exists and holds the raw tables only. */
export async function isRawOnlyWarehouse(file: string): Promise<boolean> {
  if (!existsSync(file)) return false;
  const db = await openDb(file, { readOnly: true });
  try {
    return (await rawOnlySnapshot(db)) !== undefined;
  } finally {
    db.close();
  }
}

/** Refuses a raw-only warehouse to any command but collection, naming what to run instead. */
export async function assertWholeWarehouse(db: Db, file: string): Promise<void> {
  const snapshot = await rawOnlySnapshot(db);
  if (snapshot === undefined) return;
  throw new AppError(
    `The warehouse ${file} holds the raw tables only (restored from the ${snapshot} snapshot by \`state pull --raw-only\`, for collection): scoring, publishing or replaying on it would lose the history.`,
    {
      hint: "Run `projintel state pull --recent` without --raw-only: it replaces this warehouse with a whole one. Only `projintel collect` runs on a raw-only warehouse.",
      stage: "state",
    },
  );
}
