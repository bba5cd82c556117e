// The dataset index: the `data` of GET /api/v1/datasets, listing every dataset file of the release (URL, rows,
// bytes, sha256, columns) with a few lines on how to read them, and its zod schema (the route's record schema).
import { z } from "zod";
import type { DatasetEntry } from "./datasets.ts";

const columnSchema = z.strictObject({
  name: z.string().min(1),
  type: z.string().min(1).describe("DuckDB type for Parquet files, Arrow type for Arrow files"),
});

export const datasetEntrySchema = z
  .strictObject({
    name: z.string().min(1).describe("Dataset: quality, projects or snapshots (history)"),
    path: z.string().min(1).describe("Path of the file inside the release"),
    url: z.url().describe("Where to download or query the file"),
    format: z.enum(["parquet", "arrow"]).describe("Parquet (zstd) or Arrow IPC file format"),
    rows: z.int().min(0),
    bytes: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    columns: z.array(columnSchema).describe("Columns stored in the file, in order"),
    date: z.iso.date().optional().describe("History snapshots: the night the file holds"),
    description: z.string().min(1),
  })
  .describe("Dataset file");

export const datasetIndexSchema = z
  .strictObject({
    run_date: z.iso.date().describe("Day of the data (UTC)"),
    release_id: z.string().min(1),
    history: z
      .strictObject({
        nights: z.int().min(0),
        first: z.iso.date().nullable(),
        last: z.iso.date().nullable(),
      })
      .describe("The nights of history published, one snapshots file each"),
    how_to_use: z.array(z.string()).describe("Ways to read the files"),
    files: z.array(datasetEntrySchema).describe("Every dataset file, sorted by path"),
  })
  .describe("Dataset index");

export type DatasetIndex = z.infer<typeof datasetIndexSchema>;

/** The index of a release's datasets; `entries` in any order. */
export function datasetIndex(
  entries: readonly DatasetEntry[],
  meta: { runDate: string; releaseId: string },
): DatasetIndex {
  const files = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const nights = files.flatMap((f) => (f.date === undefined ? [] : [f.date])).sort();
  const example = (name: string, format: DatasetEntry["format"]) =>
    files.find((f) => f.name === name && f.format === format && f.date === undefined)?.url ?? "<url>";
  const lastNights = files.filter((f) => f.date !== undefined).slice(-2);
  return {
    run_date: meta.runDate,
    release_id: meta.releaseId,
    history: { nights: nights.length, first: nights[0] ?? null, last: nights.at(-1) ?? null },
    how_to_use: [
      `DuckDB reads a file straight from its URL: SELECT * FROM '${example("quality", "parquet")}' LIMIT 10;`,
      `Several nights of history at once: SELECT * FROM read_parquet([${lastNights.map((f) => `'${f.url}'`).join(", ") || "'<url>', '<url>'"}]); the night is in each path (date=YYYY-MM-DD), which DuckDB adds as the date column.`,
      `pandas and polars: read_parquet('${example("projects", "parquet")}'); Arrow: pyarrow.ipc.open_file on the downloaded ${example("quality", "arrow")}.`,
      "Each file's sha256 checks a download; files change only when their data does, so an unchanged sha256 needs no new download.",
    ],
    files: files.map((f) => ({ ...f, columns: f.columns.map((c) => ({ ...c })) })),
  };
}
