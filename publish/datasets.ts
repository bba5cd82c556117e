// The analyst datasets of a release: Parquet snapshots of the quality records and the projects table, the quality
// records again as Arrow IPC, every night of the history as its own Parquet file and the history packed by month
// (dataset-months.ts; the nights and closed months this folder lacks are the previous release's, and its current
// month the previous release's extended with the local nights, dataset-carry.ts) —
// each with the entry the dataset index (GET /api/v1/datasets) lists: URL, rows, bytes, sha256 and columns as DuckDB
// reads the file.
import { mkdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { type Db, sqlLiteral } from "../core/db.ts";
import { AppError } from "../core/errors.ts";
import { ARROW_BATCH_ROWS, arrowFromQuery } from "./dataset-arrow.ts";
import { carriedMonth, type PreviousDatasets, planNights, priorMonth } from "./dataset-carry.ts";
import { historyContent, listHistoryPartitions, type PreviousFile, readFooter } from "./dataset-history.ts";
import {
  extendMonth,
  PACKED_ROW_GROUP_ROWS,
  PACKED_TABLES,
  type PackedMonth,
  type PackedTable,
  packedPath,
  packMonths,
} from "./dataset-months.ts";
import { sha256 } from "./release-writer.ts";
import { collectionSql } from "./render-collection.ts";

export { datasetIndex, datasetIndexSchema } from "./dataset-index.ts";

export const PARQUET_CONTENT_TYPE = "application/vnd.apache.parquet";
export const ARROW_CONTENT_TYPE = "application/vnd.apache.arrow.file";

/** A file of the release, in the shape the release writer takes. */
export interface DatasetFile {
  /** Path inside the release, e.g. "datasets/quality.parquet". */
  path: string;
  body?: Buffer;
  /** A local file to copy in instead of `body` (history partitions). */
  file?: string;
  /** For `file`: identifies its content unread; equal to the previous release's → linked from it. */
  fingerprint?: string;
  /** Neither `body` nor `file`: the previous release's file, copied as it is (dataset-carry.ts). */
  carried?: true;
  contentType: string;
}

export interface DatasetEntry {
  name: string;
  path: string;
  /** baseUrl + "/" + path. */
  url: string;
  format: "parquet" | "arrow";
  rows: number;
  bytes: number;
  sha256: string;
  /** As DuckDB reads a Parquet file (hive partitioning off), as apache-arrow reads an Arrow file. */
  columns: { name: string; type: string }[];
  /** History partitions: the night. */
  date?: string;
  /** History packed by month: the month (YYYY-MM). */
  month?: string;
  description: string;
}

export interface DatasetContext {
  db: Db;
  /** The history folder (pipeline/history.ts): nights under snapshots/date=YYYY-MM-DD/data.parquet. */
  historyDir: string;
  baseUrl: string;
  /** Where DuckDB writes the Parquet files before they are read back; they are removed once read. */
  tempDir: string;
  /** Where the history packed by month is kept between publishes (dataset-months.ts). */
  packedDir: string;
  /** The live release's files by path (its manifest): history nights whose fingerprint matches are not read. */
  previous?: ReadonlyMap<string, PreviousFile>;
  /** The live release's dataset index: the history nights and months this folder lacks are taken from it. */
  previousDatasets?: PreviousDatasets | undefined;
  /** The nights the last pull left on the remote (core/history-left.ts): each is local or the previous release's. */
  historyLeft?: readonly string[] | undefined;
}

export interface RenderedDataset {
  file: DatasetFile;
  entry: DatasetEntry;
}

/** A dataset written from one publish/sql/dataset_<name>.sql file. */
interface TableDataset {
  name: string;
  description: string;
}

const QUALITY: TableDataset = {
  name: "quality",
  description:
    "Every quality record of the run: the fields of /api/v1/quality plus run_date, node_id, owner, domain and stack_layer, ordered by domain, quality_score descending, stars descending, full_name.",
};

const PROJECTS: TableDataset = {
  name: "projects",
  description:
    "The projects table: one row per tracked repository with its metadata, downloads, classification, score components, star trends, hype ratio and lifecycle stage, ordered by full_name.",
};

export async function* renderDatasets(ctx: DatasetContext): AsyncGenerator<RenderedDataset> {
  const base = ctx.baseUrl.replace(/\/+$/, "");
  const url = (releasePath: string) => `${base}/${releasePath}`;

  for (const table of [QUALITY, PROJECTS]) {
    const releasePath = `datasets/${table.name}.parquet`;
    const { body, rows, columns } = await writeParquet(ctx, table.name);
    yield {
      file: { path: releasePath, body, contentType: PARQUET_CONTENT_TYPE },
      entry: {
        name: table.name,
        path: releasePath,
        url: url(releasePath),
        format: "parquet",
        rows,
        bytes: body.length,
        sha256: sha256(body),
        columns,
        description: table.description,
      },
    };
    if (table === QUALITY) yield await renderQualityArrow(ctx, url);
  }

  // the nights held locally, and those only the previous release holds (a `state pull --recent`: dataset-carry.ts)
  const local = await listHistoryPartitions(ctx.historyDir);
  const plan = planNights(
    local.map((n) => n.date),
    ctx.previousDatasets,
    ctx.historyLeft ?? [],
    ctx.historyDir,
  );
  const localNights = new Map(local.map((n) => [n.date, n]));
  const localSha = new Map<string, string>();
  for (const date of plan.nights) {
    const releasePath = `datasets/history/date=${date}/snapshots.parquet`;
    const partition = localNights.get(date);
    if (partition === undefined) {
      const before = plan.carried.get(date) as DatasetEntry;
      yield carried({ ...before, url: url(releasePath), description: nightDescription(date) });
      continue;
    }
    const content = await historyContent(partition, ctx.previous?.get(releasePath));
    const footer = await readFooter(ctx.db, partition.file);
    localSha.set(date, content.sha256);
    yield {
      file: {
        path: releasePath,
        file: partition.file,
        fingerprint: partition.fingerprint,
        contentType: PARQUET_CONTENT_TYPE,
      },
      entry: {
        name: "snapshots",
        path: releasePath,
        url: url(releasePath),
        format: "parquet",
        rows: footer.rows,
        bytes: content.bytes,
        sha256: content.sha256,
        columns: footer.columns,
        date,
        description: nightDescription(date),
      },
    };
  }

  // a month is packed here when every night of it is local; else a closed month is the previous release's, as it is,
  // and the current one (which gained a night since) is the previous release's packed file extended with the local
  // nights (a `state pull --recent` leaves the month's nights at or before the snapshot on the remote)
  const latest = plan.nights.at(-1)?.slice(0, 7);
  const months = new Map<string, string[]>();
  for (const night of plan.nights)
    months.set(night.slice(0, 7), [...(months.get(night.slice(0, 7)) ?? []), night]);
  const packedHere = (month: string) => (months.get(month) ?? []).every((night) => localNights.has(night));
  for (const packed of PACKED_TABLES) {
    const { table } = packed;
    const tableNights = table === "snapshots" ? local : await listHistoryPartitions(ctx.historyDir, table);
    const here = tableNights.filter((n) => packedHere(n.date.slice(0, 7)));
    for await (const month of packMonths(ctx, packed, here, latest)) yield packedMonth(packed, month, url);
    for (const [month, nights] of months) {
      if (packedHere(month)) continue;
      const releasePath = packedPath(table, month);
      const held = tableNights.filter((n) => n.date.slice(0, 7) === month);
      if (month === latest && held.length > 0) {
        const prior = priorMonth({ table, month, path: releasePath, previous: ctx.previousDatasets });
        yield packedMonth(packed, await extendMonth(ctx, packed, { month, nights, local: held, prior }), url);
        continue;
      }
      const before = carriedMonth({
        table,
        month,
        path: releasePath,
        local: new Map(nights.flatMap((n) => (localSha.has(n) ? [[n, localSha.get(n) as string]] : []))),
        previous: ctx.previousDatasets,
      });
      const description = monthDescription(packed, month, nights.length, month === latest);
      yield carried({ ...before, url: url(releasePath), description });
    }
  }
}

/** A month packed in this folder (packedDir), with its entry. */
function packedMonth(
  packed: PackedTable,
  month: PackedMonth,
  url: (releasePath: string) => string,
): RenderedDataset {
  return {
    file: {
      path: month.release_path,
      file: month.file,
      fingerprint: month.fingerprint,
      contentType: PARQUET_CONTENT_TYPE,
    },
    entry: {
      name: packed.table,
      path: month.release_path,
      url: url(month.release_path),
      format: "parquet",
      rows: month.rows,
      bytes: month.bytes,
      sha256: month.sha256,
      columns: month.columns,
      month: month.month,
      description: monthDescription(packed, month.month, month.nights, month.current),
    },
  };
}

/** A file of the previous release copied as it is, with its entry (URL and description as this release says). */
function carried(entry: DatasetEntry): RenderedDataset {
  return { file: { path: entry.path, carried: true, contentType: PARQUET_CONTENT_TYPE }, entry };
}

function nightDescription(date: string): string {
  return `Snapshot of every tracked repository on ${date} (the snapshots table of that night). The date is not stored in the file: it is in the path, which DuckDB reads as a date column (hive partitioning).`;
}

function monthDescription(packed: PackedTable, month: string, nights: number, current: boolean): string {
  return `The ${packed.table} history (${packed.rows}) of ${nights} night${nights === 1 ? "" : "s"} of ${month}${current ? " (the current month: rewritten each night)" : " (a closed month: its bytes do not change)"}, with the night as its date column, sorted by ${packed.sortBy.join(", ")} in row groups of ${PACKED_ROW_GROUP_ROWS.toLocaleString("en-US")} rows, so a query for one project reads a small part of it. The month is in the path (month=YYYY-MM).`;
}

/** COPYs publish/sql/dataset_<name>.sql to a temp Parquet file and reads it back with its rows and columns. */
async function writeParquet(ctx: DatasetContext, name: string) {
  const select = await collectionSql(`dataset_${name}`);
  // `.tmp`: a publish killed here leaves a file the release sweeps recognise as a leftover
  const temp = path.join(ctx.tempDir, `dataset_${name}.${process.pid}.parquet.tmp`);
  try {
    await mkdir(ctx.tempDir, { recursive: true });
    await ctx.db.run(`COPY (\n${select}\n) TO ${sqlLiteral(temp)} (FORMAT parquet, COMPRESSION zstd)`);
    const footer = await readFooter(ctx.db, temp);
    return { body: await readFile(temp), ...footer };
  } catch (error) {
    throw new AppError(
      `Writing datasets/${name}.parquet (publish/sql/dataset_${name}.sql) failed: ${(error as Error).message}`,
      { hint: "Check that the tables it reads exist and that the temp folder is writable.", cause: error },
    );
  } finally {
    await rm(temp, { force: true });
  }
}

async function renderQualityArrow(
  ctx: DatasetContext,
  url: (releasePath: string) => string,
): Promise<RenderedDataset> {
  const releasePath = "datasets/quality.arrow";
  const select = await collectionSql("dataset_quality");
  const { body, rows, columns } = await arrowFromQuery(ctx.db, select, releasePath);
  return {
    file: { path: releasePath, body, contentType: ARROW_CONTENT_TYPE },
    entry: {
      name: "quality",
      path: releasePath,
      url: url(releasePath),
      format: "arrow",
      rows,
      bytes: body.length,
      sha256: sha256(body),
      columns,
      description: `${QUALITY.description} Arrow IPC file format, uncompressed, in record batches of up to ${ARROW_BATCH_ROWS.toLocaleString("en-US")} rows.`,
    },
  };
}
