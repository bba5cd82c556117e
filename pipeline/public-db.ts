// The public database: a separate DuckDB file holding exactly the public tables (docs/contracts.md), which the
// SQL endpoint and `projintel sql` read — never the warehouse, with its raw/feat tables. Built into a temp
// file, checkpointed and renamed into place, so a kill at any moment never leaves half a file where readers look.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Db, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { syncDir, writeJsonAtomic } from "../core/files.ts";
import { type PublicDbPointer, publicDbPaths } from "../core/public-db.ts";

export { type PublicDbPointer, publicDbPaths, resolvePublicDb } from "../core/public-db.ts";

/** The tables the public database holds, and nothing else. */
export const PUBLIC_TABLES = [
  "projects",
  "snapshots",
  "releases",
  "packages",
  "transitions",
  "posts",
  "papers",
  "labs",
  "contributors",
] as const;

export type PublicTable = (typeof PUBLIC_TABLES)[number];

/** Public databases kept besides the current one, for readers that resolved the pointer just before a swap. */
export const KEEP_PREVIOUS_PUBLIC_DBS = 1;

export interface PublicDbReport {
  run_date: string;
  file: string;
  tables: Record<PublicTable, number>;
  bytes: number;
  duration_ms: number;
}

const ALIAS = "public_build";

/** Names the public tables the warehouse lacks (tables or views of its main schema). */
async function missingTables(db: Db): Promise<string[]> {
  const rows = await db.all<{ name: string }>(
    `SELECT table_name AS name FROM duckdb_tables() WHERE database_name = current_database() AND schema_name = 'main'
     UNION ALL
     SELECT view_name FROM duckdb_views() WHERE database_name = current_database() AND schema_name = 'main'`,
  );
  const present = new Set(rows.map((r) => r.name));
  return PUBLIC_TABLES.filter((t) => !present.has(t));
}

/**
 * Copies the public tables from the warehouse into `file`, replacing it atomically: the copy goes to a temp
 * file beside it (ATTACH + CREATE TABLE AS), is checkpointed and detached (no WAL left), then renamed over it.
 */
export async function buildPublicDb(options: {
  db: Db;
  file: string;
  runDate: string;
}): Promise<PublicDbReport> {
  const { db, file, runDate } = options;
  const started = performance.now();
  const missing = await missingTables(db);
  if (missing.length > 0) {
    throw new AppError(
      `The warehouse has no ${missing.join(", ")} table${missing.length > 1 ? "s" : ""}, which the public database must hold.`,
      {
        hint: "Run `projintel score` for the run date first; it builds every public table.",
        stage: "public-db",
      },
    );
  }
  const temp = `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
  const [{ catalog } = { catalog: "" }] = await db.all<{ catalog: string }>(
    "SELECT current_database() AS catalog",
  );
  const tables = {} as Record<PublicTable, number>;
  let attached = false;
  try {
    await db.run(`ATTACH ${sqlLiteral(temp)} AS ${ALIAS}`);
    attached = true;
    for (const table of PUBLIC_TABLES) {
      await db.run(`CREATE TABLE ${ALIAS}.main.${table} AS SELECT * FROM "${catalog}".main.${table}`);
      const [row] = await db.all<{ n: number }>(`SELECT count(*) AS n FROM ${ALIAS}.main.${table}`);
      tables[table] = row?.n ?? 0;
    }
    await db.run(`CHECKPOINT ${ALIAS}`);
    await db.run(`DETACH ${ALIAS}`);
    attached = false;
    await rename(temp, file);
    await syncDir(path.dirname(file));
  } catch (error) {
    if (attached) await db.run(`DETACH ${ALIAS}`).catch(() => undefined); // the original error matters more
    await rm(temp, { force: true });
    await rm(`${temp}.wal`, { force: true });
    throw error instanceof AppError
      ? error
      : new AppError(`Building the public database ${file} failed: ${(error as Error).message}`, {
          hint: "Check free disk space in the state folder, then run `projintel score` again.",
          stage: "public-db",
          cause: error,
        });
  }
  return {
    run_date: runDate,
    file,
    tables,
    bytes: (await stat(file)).size,
    duration_ms: Math.round(performance.now() - started),
  };
}

/**
 * Builds `<state>/public/<run_date>.duckdb`, then points `current.json` at it (written last, atomically), then
 * removes older files past KEEP_PREVIOUS_PUBLIC_DBS and temp files a killed build left behind.
 */
export async function publishPublicDb(options: {
  db: Db;
  stateRoot: string;
  runDate: string;
  now?: () => Date;
  /**
   * Nights whose files must stay whatever their age: the night the live release serves, which SQL readers open
   * until the release flips (a publish killed after this build leaves the previous release live).
   */
  keepRunDates?: readonly string[];
}): Promise<PublicDbReport> {
  const paths = publicDbPaths(options.stateRoot);
  await mkdir(paths.dir, { recursive: true });
  const report = await buildPublicDb({
    db: options.db,
    file: paths.fileFor(options.runDate),
    runDate: options.runDate,
  });
  const pointer: PublicDbPointer = {
    run_date: options.runDate,
    file: path.basename(report.file),
    built_at: (options.now ?? (() => new Date()))().toISOString(),
    tables: report.tables,
  };
  await writeJsonAtomic(paths.pointer, pointer);
  await prune(paths.dir, pointer.file, options.keepRunDates ?? []);
  return report;
}

async function prune(dir: string, current: string, keep: readonly string[]): Promise<void> {
  const names = await readdir(dir);
  const kept = new Set([current, ...keep.map((runDate) => `${runDate}.duckdb`)]);
  const older = names
    .filter((n) => /^\d{4}-\d{2}-\d{2}\.duckdb$/.test(n) && !kept.has(n))
    .sort()
    .reverse();
  // Backfills can build an older date after a newer one: keep by name order, never the current file.
  const drop = [
    ...older.slice(KEEP_PREVIOUS_PUBLIC_DBS),
    ...names.filter((n) => /\.duckdb\.\d+-[0-9a-f]{12}\.tmp(\.wal)?$/.test(n)),
  ];
  for (const name of drop) await rm(path.join(dir, name), { force: true });
}
