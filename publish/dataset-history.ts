// The history's nightly snapshot files as release datasets: each <history>/snapshots/date=D/data.parquet is copied
// in as it is. A night's file is only ever replaced whole (temp file, rename), so its size and mtime identify its
// content: a night whose fingerprint matches the previous release's is linked from it without being read, and only
// new or rewritten nights are hashed. Rows and columns always come from the Parquet footer, which is cheap to read.
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { type Db, sqlLiteral } from "../core/db.ts";

export interface HistoryPartition {
  date: string;
  /** The local Parquet file. */
  file: string;
  /** `${size}-${mtimeMs}`: changes whenever the nightly rewrites the file. */
  fingerprint: string;
}

/** What the previous release recorded for a path. */
export interface PreviousFile {
  path: string;
  bytes: number;
  sha256: string;
  fingerprint?: string | undefined;
}

export interface FooterFacts {
  rows: number;
  columns: { name: string; type: string }[];
}

/** The nights under `<historyDir>/<table>/` that have a data file, oldest first. */
export async function listHistoryPartitions(
  historyDir: string,
  table = "snapshots",
): Promise<HistoryPartition[]> {
  const dir = path.join(historyDir, table);
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const partitions: HistoryPartition[] = [];
  for (const name of names.filter((n) => /^date=\d{4}-\d{2}-\d{2}$/.test(n)).sort()) {
    const file = path.join(dir, name, "data.parquet");
    // a night being written has only its temp file yet: it is published once it is complete
    const info = await stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    if (info) partitions.push({ date: name.slice("date=".length), file, fingerprint: fingerprintOf(info) });
  }
  return partitions;
}

export function fingerprintOf(info: { size: number; mtimeMs: number }): string {
  return `${info.size}-${info.mtimeMs}`;
}

/** Bytes and sha256 of a file, from one streamed read. */
export async function hashFile(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest("hex") };
}

/**
 * Rows and columns of a Parquet file as DuckDB reads it, from its footer alone. Hive partitioning is off: the
 * columns are the ones stored in the file, whatever its path says.
 */
export async function readFooter(db: Db, file: string): Promise<FooterFacts> {
  const source = sqlLiteral(file);
  const [meta] = await db.all<{ rows: number }>(
    `SELECT sum(num_rows)::BIGINT AS rows FROM parquet_file_metadata(${source})`,
  );
  const columns = await db.all<{ column_name: string; column_type: string }>(
    `DESCRIBE SELECT * FROM read_parquet(${source}, hive_partitioning = false)`,
  );
  return {
    rows: meta?.rows ?? 0,
    columns: columns.map((c) => ({ name: c.column_name, type: c.column_type })),
  };
}

/** Bytes and sha256 of a night: the previous release's when its fingerprint still matches, else read. */
export async function historyContent(
  partition: HistoryPartition,
  before: PreviousFile | undefined,
): Promise<{ bytes: number; sha256: string; reused: boolean }> {
  if (before?.fingerprint !== undefined && before.fingerprint === partition.fingerprint) {
    return { bytes: before.bytes, sha256: before.sha256, reused: true };
  }
  return { ...(await hashFile(partition.file)), reused: false };
}
