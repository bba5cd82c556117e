// GET /api/v1/datasets: the index of the release's analyst datasets — each Parquet or Arrow file's URL, rows,
// bytes, sha256 and columns.
import { noParams } from "../../schemas/index.ts";
import { datasetIndexSchema } from "../dataset-index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const DATASETS_INDEX_FILE = "api/v1/datasets.json";

export const datasetsRoute: FileRoute = {
  name: "datasets",
  method: "GET",
  path: "/api/v1/datasets",
  kind: "file",
  summary: "The analyst datasets of this release (Parquet and Arrow)",
  description:
    "Quality records and projects as Parquet, quality records as Arrow IPC, one Parquet file of snapshots per night of history, and the history packed by month (datasets/history/<table>/month=YYYY-MM/… for snapshots, lifecycle and packages: a file per closed month and one for the current month, sorted by project and date, so a year of one project is one query over at most 13 files) — each with its URL, rows, bytes, sha256 and columns. DuckDB reads them by URL: SELECT * FROM '<url>'.",
  tag: "Datasets",
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: DATASETS_INDEX_FILE,
  contentType: "application/json; charset=utf-8",
  envelope: true,
  schema: datasetIndexSchema,
};
