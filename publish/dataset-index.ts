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
    name: z
      .string()
      .min(1)
      .describe("Dataset: quality, projects, or a history table (snapshots, lifecycle, packages)"),
    path: z.string().min(1).describe("Path of the file inside the release"),
    url: z.url().describe("Where to download or query the file"),
    format: z.enum(["parquet", "arrow"]).describe("Parquet (zstd) or Arrow IPC file format"),
    rows: z.int().min(0),
    bytes: z.int().min(0),
    sha256: z.string().regex(/^[0-9a-f]{64}$/),
    columns: z.array(columnSchema).describe("Columns stored in the file, in order"),
    date: z.iso.date().optional().describe("History snapshots: the night the file holds"),
    month: z
      .string()
      .regex(/^\d{4}-\d{2}$/)
      .optional()
      .describe("History packed by month: the month the file holds (YYYY-MM)"),
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
        months: z
          .array(z.string().regex(/^\d{4}-\d{2}$/))
          .describe("The months packed, one file per table each"),
      })
      .describe(
        "The nights of history published, one snapshots file each, and the months they are packed into",
      ),
    how_to_use: z.array(z.string()).describe("Ways to read the files"),
    files: z.array(datasetEntrySchema).describe("Every dataset file, sorted by path"),
  })
  .describe("Dataset index");

export type DatasetIndex = z.infer<typeof datasetIndexSchema>;

/** The index of a release's datasets; `entries` in any order. */
export function datasetIndex(
  entries: readonly DatasetEntry[],
  meta: { runDate: string; releaseId: string; exampleProject?: string | undefined },
): DatasetIndex {
  const files = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const nights = files.flatMap((f) => (f.date === undefined ? [] : [f.date])).sort();
  const example = (name: string, format: DatasetEntry["format"]) =>
    files.find((f) => f.name === name && f.format === format && f.date === undefined)?.url ?? "<url>";
  const lastNights = files.filter((f) => f.date !== undefined).slice(-2);
  const months = files.filter((f) => f.month !== undefined && f.name === "snapshots");
  const project = meta.exampleProject ?? "<owner/name>";
  return {
    run_date: meta.runDate,
    release_id: meta.releaseId,
    history: {
      nights: nights.length,
      first: nights[0] ?? null,
      last: nights.at(-1) ?? null,
      months: months.map((f) => f.month as string),
    },
    how_to_use: [
      `DuckDB reads a file straight from its URL: SELECT * FROM '${example("quality", "parquet")}' LIMIT 10;`,
      `DuckDB, a year of one project's history in one query over the files packed by month (13 at most, each sorted by full_name, so only the row groups holding the project are read): SELECT date, stars, quality_score FROM read_parquet([${months.map((f) => `'${f.url}'`).join(", ") || "'<url>'"}]) WHERE full_name = '${project}' ORDER BY date;`,
      `DuckDB, several nights of history at once (the night is in each path, date=YYYY-MM-DD, which DuckDB adds as the date column): SELECT * FROM read_parquet([${lastNights.map((f) => `'${f.url}'`).join(", ") || "'<url>', '<url>'"}]);`,
      `JavaScript, hyparquet (a HEAD, then ranges: the footer and the two columns' chunks, not the file): const file = await asyncBufferFromUrl({ url: '${example("projects", "parquet")}' }); const rows = await parquetReadObjects({ file, metadata: await parquetMetadataAsync(file, { initialFetchSize: 16384 }), columns: ['full_name', 'stars'], compressors });`,
      `JavaScript, apache-arrow: const table = await tableFromIPC(fetch('${example("quality", "arrow")}'));`,
      "Each file's sha256 checks a download; files change only when their data does, so an unchanged sha256 needs no new download.",
    ],
    files: files.map((f) => ({ ...f, columns: f.columns.map((c) => ({ ...c })) })),
  };
}
