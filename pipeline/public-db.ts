// The public database: a separate DuckDB file holding exactly the public tables (docs/contracts.md), which the
// SQL endpoint and `projintel sql` read — never the warehouse, with its raw/feat tables. Built into a temp
// file, checkpointed and renamed into place, so a kill at any moment never leaves half a file where readers look.
import { randomBytes } from "node:crypto";
import { mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Db, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { syncDir, writeJsonAtomic } from "../core/files.ts";
import {
  manifestBeside,
  PARTS_FOLDER,
  type PublicDbManifest,
  type PublicDbPointer,
  parsePublicDbFile,
  publicDbName,
  publicDbPartKey,
  publicDbPaths,
  readManifestBeside,
} from "../core/public-db.ts";
import { type Storage, sha256File } from "../core/storage.ts";
import {
  type BuiltPart,
  buildParts,
  RECENT_SCHEMA,
  SPLIT_TABLES,
  writeSplitTable,
} from "./public-db-parts.ts";

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
  /** The nightly part: every public table but the closed periods of the split ones. */
  file: string;
  tables: Record<PublicTable, number>;
  /** The nightly part's size. */
  bytes: number;
  /**
   * The history parts it reads (pipeline/public-db-parts.ts): built tonight, kept from an earlier night, or held by the
   * publish target only (no file here).
   */
  parts: { name: string; rows: number; bytes: number; built: boolean; held: boolean }[];
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
 * The closed periods of the split tables go to history parts in `parts/` beside it instead (built once, named by
 * their rows), which `<run_date>.json` names, written just before the nightly part.
 */
export async function buildPublicDb(options: {
  db: Db;
  /** The file to write, or the folder to write it in named by its bytes (publicDbName), as publishPublicDb does. */
  file: string | { folder: string };
  runDate: string;
  /** Where the night is published: the parts it holds already are not built here (see buildParts). */
  target?: Storage;
}): Promise<PublicDbReport> {
  const { db, runDate, target } = options;
  const started = performance.now();
  const folder = typeof options.file === "string" ? path.dirname(options.file) : options.file.folder;
  // named once its bytes are final, when it is named by them
  let file = typeof options.file === "string" ? options.file : "";
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
  const temp = path.join(folder, `${runDate}.duckdb.${process.pid}-${randomBytes(6).toString("hex")}.tmp`);
  const [{ catalog } = { catalog: "" }] = await db.all<{ catalog: string }>(
    "SELECT current_database() AS catalog",
  );
  const tables = {} as Record<PublicTable, number>;
  const attached: string[] = [];
  let parts: BuiltPart[] = [];
  try {
    const partsDir = path.join(folder, PARTS_FOLDER);
    parts = await buildParts({
      db,
      catalog,
      runDate,
      partsDir,
      ...(target ? { held: async (name) => (await target.stat(publicDbPartKey(name)))?.bytes } : {}),
    });
    for (const part of parts) {
      if (part.held) {
        // the views bind to a part's columns when created: an empty table of them stands in for a part held only by
        // the target (readers attach the part itself under the same alias)
        await db.run(`ATTACH ':memory:' AS ${part.alias}`);
        attached.push(part.alias);
        await db.run(
          `CREATE TABLE ${part.alias}.main.${part.table} AS SELECT * FROM "${catalog}".main.${part.table} LIMIT 0`,
        );
        continue;
      }
      await db.run(
        `ATTACH ${sqlLiteral(path.join(partsDir, `${part.name}.duckdb`))} AS ${part.alias} (READ_ONLY)`,
      );
      attached.push(part.alias);
    }
    await db.run(`ATTACH ${sqlLiteral(temp)} AS ${ALIAS}`);
    attached.push(ALIAS);
    for (const table of PUBLIC_TABLES) {
      const source = `"${catalog}".main.${table}`;
      const own = parts.filter((p) => p.table === table);
      if (SPLIT_TABLES.some((s) => s.table === table))
        await writeSplitTable(db, { source, target: ALIAS, table, parts: own });
      else await db.run(`CREATE TABLE ${ALIAS}.main.${table} AS SELECT * FROM ${source}`);
      // a split table's rows: its own and each part's (counted when it was cut; a held part's stand-in is empty)
      const [row] = await db.all<{ n: number }>(
        `SELECT count(*) AS n FROM ${ALIAS}.${own.length > 0 ? RECENT_SCHEMA : "main"}.${table}`,
      );
      tables[table] = Number(row?.n ?? 0) + own.reduce((sum, p) => sum + p.rows, 0);
    }
    await db.run(`CHECKPOINT ${ALIAS}`);
    while (attached.length > 0) await db.run(`DETACH ${attached.pop()}`);
    if (typeof options.file !== "string") {
      file = path.join(folder, `${publicDbName(runDate, await sha256File(temp))}.duckdb`);
    }
    await writeManifest(file, runDate, parts);
    await rename(temp, file);
    await syncDir(path.dirname(file));
  } catch (error) {
    // the original error matters more than a failed detach
    for (const alias of attached.reverse()) await db.run(`DETACH ${alias}`).catch(() => undefined);
    await rm(temp, { force: true });
    await rm(`${temp}.wal`, { force: true });
    throw error instanceof AppError
      ? error
      : new AppError(
          `Building the public database ${file || `of ${runDate} in ${folder}`} failed: ${(error as Error).message}`,
          {
            hint: "Check free disk space in the state folder, then run `projintel score` again.",
            stage: "public-db",
            cause: error,
          },
        );
  }
  return {
    run_date: runDate,
    file,
    tables,
    bytes: (await stat(file)).size,
    parts: parts.map(({ name, rows, bytes, built, held }) => ({ name, rows, bytes, built, held })),
    duration_ms: Math.round(performance.now() - started),
  };
}

/** Names the nightly part's history parts beside it, or removes a stale manifest when it reads none. */
async function writeManifest(file: string, runDate: string, parts: readonly BuiltPart[]): Promise<void> {
  if (parts.length === 0) {
    await rm(manifestBeside(file), { force: true });
    return;
  }
  const manifest: PublicDbManifest = {
    run_date: runDate,
    parts: parts.map(({ name, table, alias, from, to, rows }) => ({ name, table, alias, from, to, rows })),
  };
  await writeJsonAtomic(manifestBeside(file), manifest);
}

/**
 * Builds `<state>/public/<run_date>-<sha256 prefix>.duckdb` (named by its bytes, so a second build of a night never
 * replaces the file a reader or the live release holds), then points `current.json` at it (written last,
 * atomically), then removes older files past KEEP_PREVIOUS_PUBLIC_DBS and temp files a killed build left behind.
 */
export async function publishPublicDb(options: {
  db: Db;
  stateRoot: string;
  runDate: string;
  now?: () => Date;
  /**
   * Nights whose files must stay whatever their age: the night the live release serves, which SQL readers open
   * until the release flips (a publish killed after this build leaves the previous release live). Every file of such
   * a night stays: a night built again keeps the build its live release names.
   */
  keepRunDates?: readonly string[];
  /** The remote the night is published to, when not the state folder: the parts it holds are not built again. */
  target?: Storage;
}): Promise<PublicDbReport> {
  const paths = publicDbPaths(options.stateRoot);
  await mkdir(paths.dir, { recursive: true });
  const report = await buildPublicDb({
    db: options.db,
    file: { folder: paths.dir },
    runDate: options.runDate,
    ...(options.target ? { target: options.target } : {}),
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

/**
 * Removes nightly parts past KEEP_PREVIOUS_PUBLIC_DBS with their manifests, temp files a killed build left, and the
 * history parts no remaining manifest names.
 */
async function prune(dir: string, current: string, keep: readonly string[]): Promise<void> {
  const names = await readdir(dir);
  const older: { name: string; runDate: string; at: number }[] = [];
  for (const name of names) {
    const night = parsePublicDbFile(name);
    if (!night || name === current || keep.includes(night.runDate)) continue;
    older.push({ name, runDate: night.runDate, at: (await stat(path.join(dir, name))).mtimeMs });
  }
  // Backfills can build an older date after a newer one: keep by night, then by build time, never the current file.
  older.sort((a, b) => b.runDate.localeCompare(a.runDate) || b.at - a.at);
  const drop = [
    ...older.slice(KEEP_PREVIOUS_PUBLIC_DBS).flatMap(({ name }) => [name, manifestBeside(name)]),
    ...names.filter((n) => TEMP_FILE.test(n)),
  ];
  for (const name of drop) await rm(path.join(dir, name), { force: true });
  const named = new Set<string>();
  for (const name of await readdir(dir)) {
    if (!parsePublicDbFile(name)) continue;
    const manifest = await readManifestBeside(path.join(dir, name));
    for (const part of manifest?.parts ?? []) named.add(`${part.name}.duckdb`);
  }
  const partsDir = path.join(dir, PARTS_FOLDER);
  for (const name of await readdir(partsDir).catch(() => [] as string[])) {
    if (!named.has(name)) await rm(path.join(partsDir, name), { force: true });
  }
}

/** A build's temp file (and its WAL), named by process and random digits. */
const TEMP_FILE = /\.duckdb\.\d+-[0-9a-f]+\.tmp(\.wal)?$/;
