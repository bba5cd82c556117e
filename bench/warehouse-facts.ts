// Facts the fault benchmarks read from a finished run's warehouse, opened read-only after the CLI exited:
// repository coverage on a night, the key sets of each raw table, and a content checksum per raw table.
import path from "node:path";
import { type Db, openDb } from "../core/db.ts";

/** Columns that legitimately differ between two collects of the same world and date. */
const VOLATILE_COLUMNS = new Set(["fetched_at"]);

export function openWarehouseReadOnly(stateDir: string): Promise<Db> {
  return openDb(path.join(stateDir, "warehouse.duckdb"), { readOnly: true });
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function rawTables(db: Db): Promise<string[]> {
  const rows = await db.all<{ name: string }>(
    "SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 'raw\\_%' ESCAPE '\\' ORDER BY 1",
  );
  return rows.map((r) => r.name);
}

async function columns(db: Db, table: string): Promise<string[]> {
  const rows = await db.all<{ name: string }>(
    "SELECT column_name AS name FROM information_schema.columns WHERE table_name = ? ORDER BY ordinal_position",
    [table],
  );
  return rows.map((r) => r.name);
}

/** The primary key of a raw table without its run_date: what identifies an entity from night to night. */
async function entityKey(db: Db, table: string): Promise<string[]> {
  const [row] = await db.all<{ cols: string[] }>(
    "SELECT constraint_column_names AS cols FROM duckdb_constraints() WHERE table_name = ? AND constraint_type = 'PRIMARY KEY'",
    [table],
  );
  return (row?.cols ?? []).filter((c) => c !== "run_date");
}

/** Each row of a raw table on one run date: its entity key and a hash of its non-volatile columns. */
export async function rowHashes(db: Db, table: string, runDate: string): Promise<Map<string, string>> {
  const key = await entityKey(db, table);
  if (key.length === 0) return new Map();
  const cols = (await columns(db, table)).filter((c) => !VOLATILE_COLUMNS.has(c));
  const rows = await db.all<{ k: string; h: string }>(
    `SELECT concat_ws('|', ${key.map((c) => `${quote(c)}::VARCHAR`).join(", ")}) AS k, hash(${cols.map(quote).join(", ")})::VARCHAR AS h FROM ${quote(table)} WHERE run_date = ?::DATE`,
    [runDate],
  );
  return new Map(rows.map((r) => [r.k, r.h]));
}

/** The entity keys of a raw table on one run date, each as one string. */
export async function entityKeys(db: Db, table: string, runDate: string): Promise<Set<string>> {
  return new Set((await rowHashes(db, table, runDate)).keys());
}

export interface TableChecksum {
  rows: number;
  /** Sum of a hash of every row's columns but the volatile ones: equal content gives equal sums. */
  checksum: string;
}

export async function tableChecksum(db: Db, table: string, runDate: string): Promise<TableChecksum> {
  const cols = (await columns(db, table)).filter((c) => !VOLATILE_COLUMNS.has(c));
  const [row] = await db.all<{ n: number; h: string | null }>(
    `SELECT count(*) AS n, sum(hash(${cols.map(quote).join(", ")}))::VARCHAR AS h FROM ${quote(table)} WHERE run_date = ?::DATE`,
    [runDate],
  );
  return { rows: Number(row?.n ?? 0), checksum: row?.h ?? "0" };
}

export interface RepoCoverage {
  /** Repositories the warehouse knows as of the night: every node_id with a raw_github_repos row up to it. */
  tracked: number;
  /** Of those, recorded as gone (deleted or unknown) by then: not expected to refresh. */
  gone: number;
  /** A row of the night, scored as fresh. */
  fresh: number;
  /** No row of the night, scored with the previous values and is_stale set. */
  carried_stale: number;
  /** No row of the night, yet scored as fresh: a silent carry-forward. */
  carried_unflagged: number;
  /** Tracked, not gone, and absent from score_quality. */
  missing: number;
  /** (fresh + carried_stale) / (tracked − gone). */
  share: number;
}

export async function repoCoverage(db: Db, runDate: string): Promise<RepoCoverage> {
  const tables = await rawTables(db);
  const gone = tables.includes("raw_github_gone")
    ? "SELECT DISTINCT node_id FROM raw_github_gone WHERE run_date <= ?::DATE"
    : "SELECT NULL::VARCHAR AS node_id WHERE ?::DATE IS NULL";
  const [row] = await db.all<Omit<RepoCoverage, "share">>(
    `WITH tracked AS (SELECT DISTINCT node_id FROM raw_github_repos WHERE run_date <= ?::DATE),
       fresh AS (SELECT node_id FROM raw_github_repos WHERE run_date = ?::DATE),
       gone AS (${gone}),
       scored AS (SELECT node_id, is_stale FROM score_quality WHERE run_date = ?::DATE)
     SELECT count(*) AS tracked,
       count(g.node_id) AS gone,
       count(*) FILTER (WHERE g.node_id IS NULL AND f.node_id IS NOT NULL AND s.is_stale = false) AS fresh,
       count(*) FILTER (WHERE g.node_id IS NULL AND f.node_id IS NULL AND s.is_stale) AS carried_stale,
       count(*) FILTER (WHERE g.node_id IS NULL AND f.node_id IS NULL AND s.is_stale = false) AS carried_unflagged,
       count(*) FILTER (WHERE s.node_id IS NULL AND g.node_id IS NULL) AS missing
     FROM tracked t LEFT JOIN fresh f USING (node_id) LEFT JOIN gone g USING (node_id) LEFT JOIN scored s USING (node_id)`,
    [runDate, runDate, runDate, runDate],
  );
  const facts = Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, Number(v)])) as Omit<
    RepoCoverage,
    "share"
  >;
  const expected = facts.tracked - facts.gone;
  const share = expected > 0 ? (facts.fresh + facts.carried_stale) / expected : 1;
  return { ...facts, share: Math.round(share * 1e6) / 1e6 };
}
