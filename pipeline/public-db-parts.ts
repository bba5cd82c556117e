// The history parts of the public database: the closed periods of its dated tables, each copied once into its own
// file named by its content, so the nightly part (everything else) is all a night changes and all a shim switching
// to the next night downloads besides the periods that closed. See docs/production.md, "The public database".
import { createHash } from "node:crypto";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type Db, sqlLiteral } from "../core/db.ts";
import { syncDir } from "../core/files.ts";
import type { PublicDbPart } from "../core/public-db.ts";
import { SNAPSHOT_DAYS } from "./score.ts";

/**
 * The public tables split into history parts, by a date column their rows are appended by. `snapshots` by week: the
 * warehouse keeps its last SNAPSHOT_DAYS nights, so a week closes every 7 nights and leaves within 13 weeks (a month
 * would put up to 31 nights in the nightly part and 31 at once in a switch when it closes). The tables kept for ever
 * and appended to a few rows a night — contributor counts, releases by the night first seen, lifecycle transitions —
 * by month, so the parts stay few.
 */
export const SPLIT_TABLES = [
  { table: "snapshots", column: "date", period: "week", keepDays: SNAPSHOT_DAYS },
  { table: "contributors", column: "date", period: "month", keepDays: undefined },
  { table: "releases", column: "first_seen", period: "month", keepDays: undefined },
  { table: "transitions", column: "date", period: "month", keepDays: undefined },
] as const;

/** The schema of the nightly part holding the rows of a split table that no part holds (the open period). */
export const RECENT_SCHEMA = "recent";

export interface BuiltPart extends PublicDbPart {
  /** The period's first day (a Monday, or the 1st of a month). */
  start: string;
  bytes: number;
  /** False when a part of the same name (the same rows) was there already. */
  built: boolean;
  /** Not built nor kept here: the target the night is published to holds it (buildParts' `held`). */
  held: boolean;
}

interface Period {
  start: string;
  from: string;
  to: string;
  rows: number;
  checksum: string;
}

const truncUnit = (period: "week" | "month") => (period === "week" ? "week" : "month");

/**
 * The closed periods of each split table, as parts: built into `partsDir` unless a part with the same content is
 * there, or `held` says the publish target holds one (its size): a runner that restored its state has none of the
 * earlier nights' parts, and building them all again would cost more each night as the history grows. A period is
 * closed once the run date is in a later period; a snapshots week the retention has started to cut stays in the
 * nightly part, so a part never changes as the window slides.
 */
export async function buildParts(options: {
  db: Db;
  catalog: string;
  runDate: string;
  partsDir: string;
  held?: (name: string) => Promise<number | undefined>;
}): Promise<BuiltPart[]> {
  const { db, catalog, runDate, partsDir, held } = options;
  const parts: BuiltPart[] = [];
  for (const split of SPLIT_TABLES) {
    const unit = truncUnit(split.period);
    const source = `"${catalog}".main.${split.table}`;
    const [{ open } = { open: runDate }] = await db.all<{ open: string }>(
      `SELECT date_trunc('${unit}', DATE ${sqlLiteral(runDate)})::DATE::VARCHAR AS open`,
    );
    const columns = await db.all<{ c: string }>(
      `SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY column_index) AS c FROM duckdb_columns()
       WHERE database_name = $1 AND schema_name = 'main' AND table_name = $2`,
      [catalog, split.table],
    );
    // the rows' hash sum names the part: equal rows (in any order) give the same name on any runner
    const column = split.column;
    const periods = await db.all<Period>(
      `SELECT date_trunc('${unit}', ${column})::DATE::VARCHAR AS start, min(${column})::VARCHAR AS "from",
         max(${column})::VARCHAR AS "to", count(*)::INTEGER AS rows, sum(hash(t))::VARCHAR AS checksum
       FROM ${source} t GROUP BY 1 ORDER BY 1`,
    );
    for (const period of periods) {
      if (period.start >= open) continue;
      if (split.keepDays !== undefined && !wholeAfterCut(period.start, runDate, split.keepDays)) continue;
      const label = split.period === "week" ? period.start : period.start.slice(0, 7);
      const hash = createHash("sha256")
        .update([split.table, columns[0]?.c, period.start, period.rows, period.checksum].join("|"))
        .digest("hex")
        .slice(0, 16);
      const part: PublicDbPart = {
        name: `${split.table}-${label}-${hash}`,
        table: split.table,
        alias: `${split.table}_${label.replaceAll("-", "_")}`,
        from: period.from,
        to: period.to,
        rows: period.rows,
      };
      const file = path.join(partsDir, `${part.name}.duckdb`);
      const kept = await stat(file).catch(() => undefined);
      const heldBytes = kept ? undefined : await held?.(part.name);
      if (heldBytes !== undefined) {
        parts.push({ ...part, start: period.start, bytes: heldBytes, built: false, held: true });
        continue;
      }
      if (!kept) await buildPart(db, { source, part, column, unit, start: period.start, file });
      const bytes = kept ? kept.size : (await stat(file)).size;
      parts.push({ ...part, start: period.start, bytes, built: !kept, held: false });
    }
  }
  return parts;
}

/** A period starting at `start` still has every night the warehouse kept (none deleted by the retention yet). */
function wholeAfterCut(start: string, runDate: string, keepDays: number): boolean {
  const firstKept = Date.parse(`${runDate}T00:00:00Z`) - (keepDays - 1) * 86_400_000;
  return Date.parse(`${start}T00:00:00Z`) >= firstKept;
}

/** Copies one period's rows into `file` (temp file, checkpoint, rename), ordered so a date filter skips blocks. */
async function buildPart(
  db: Db,
  options: { source: string; part: PublicDbPart; column: string; unit: string; start: string; file: string },
): Promise<void> {
  const { source, part, column, unit, start, file } = options;
  const temp = `${file}.${process.pid}-${Date.now().toString(16)}.tmp`;
  const alias = `build_${part.alias}`;
  await mkdir(path.dirname(file), { recursive: true });
  await db.run(`ATTACH ${sqlLiteral(temp)} AS ${alias}`);
  try {
    await db.run(
      `CREATE TABLE ${alias}.main.${part.table} AS SELECT * FROM ${source}
       WHERE date_trunc('${unit}', ${column})::DATE = DATE ${sqlLiteral(start)} ORDER BY ${column}, node_id`,
    );
    await db.run(`CHECKPOINT ${alias}`);
  } catch (error) {
    await db.run(`DETACH ${alias}`).catch(() => undefined); // the original error matters more
    await rm(temp, { force: true });
    await rm(`${temp}.wal`, { force: true });
    throw error;
  }
  await db.run(`DETACH ${alias}`);
  await rename(temp, file);
  await syncDir(path.dirname(file));
}

/**
 * In the nightly part being built (catalog `target`): each split table as its rows no part holds (schema
 * RECENT_SCHEMA) and a view `main.<table>` over those and its parts, which must be attached under their aliases.
 * A table with no part stays one table, as in a database of one file.
 */
export async function writeSplitTable(
  db: Db,
  options: { source: string; target: string; table: string; parts: readonly BuiltPart[] },
): Promise<void> {
  const { source, target, table, parts } = options;
  if (parts.length === 0) {
    await db.run(`CREATE TABLE ${target}.main.${table} AS SELECT * FROM ${source}`);
    return;
  }
  const split = SPLIT_TABLES.find((s) => s.table === table);
  const held = parts.map((p) => `DATE ${sqlLiteral(p.start)}`);
  await db.run(`CREATE SCHEMA IF NOT EXISTS ${target}.${RECENT_SCHEMA}`);
  await db.run(
    `CREATE TABLE ${target}.${RECENT_SCHEMA}.${table} AS SELECT * FROM ${source}
     WHERE date_trunc('${truncUnit(split?.period ?? "month")}', ${split?.column ?? "date"})::DATE NOT IN (${held.join(", ")})`,
  );
  // unqualified `recent.<table>` binds in the view's own catalog, whatever name a reader attaches it under
  const selects = [
    `SELECT * FROM ${RECENT_SCHEMA}.${table}`,
    ...parts.map((p) => `SELECT * FROM ${p.alias}.main.${table}`),
  ];
  await db.run(`CREATE VIEW ${target}.main.${table} AS ${selects.join(" UNION ALL ")}`);
}
