// GET /datasets/{file}: one dataset file of the release as it is (Parquet or Arrow), e.g.
// /datasets/quality.parquet or /datasets/history/date=2026-11-20/snapshots.parquet — the URLs the index lists.
import { z } from "zod";
import { noParams, withRule } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const datasetFileRoute: FileRoute = {
  name: "dataset-file",
  method: "GET",
  path: "/datasets/{file}",
  kind: "file",
  summary: "A dataset file (Parquet or Arrow)",
  description:
    "A file listed by /api/v1/datasets, by its path under datasets/ (slashes included). Parquet files are application/vnd.apache.parquet, the Arrow file application/vnd.apache.arrow.file.",
  tag: "Datasets",
  query: noParams,
  pathParams: z
    .strictObject({
      // with its rule, so a bad path is refused naming what a good one is
      file: withRule(
        z
          .string()
          .regex(/^[A-Za-z0-9_][A-Za-z0-9._=/-]*\.(parquet|arrow)$/)
          .refine((f) => !f.includes(".."), "no .. segments"),
        "text",
        "a path under datasets/ ending in .parquet or .arrow, without .. segments",
      ).describe("Path of the file under datasets/, as /api/v1/datasets lists it"),
    })
    .describe("Path parameters of GET /datasets/{file}"),
  cache: HOURLY_PUBLIC,
  file: (p) => `datasets/${p.file}`,
  contentType: "application/vnd.apache.parquet",
  wildcard: true,
  examples: { file: "quality.parquet" },
};
