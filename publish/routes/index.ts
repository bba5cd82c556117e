// The route table: every endpoint of the API, one spec per file in this folder, listed here in the order the
// docs show them. Publish renders from it, the shim serves from it, the OpenAPI document is generated from it.
// A test checks every file of the folder is listed (no directory scanning, no self-registration).
import type { RouteSpec } from "../route-spec.ts";
import { datasetFileRoute } from "./dataset-file.ts";
import { datasetsRoute } from "./datasets.ts";
import { datasetsQualityRoute } from "./datasets-quality.ts";
import { mcpScoresRoute } from "./mcp-scores.ts";
import { projectRoute } from "./project.ts";
import { projectByNameRoute } from "./project-by-name.ts";
import { projectsRoute } from "./projects.ts";
import { projectsBulkRoute } from "./projects-bulk.ts";
import { qualityRoute } from "./quality.ts";
import { qualityLookupRoute } from "./quality-lookup.ts";
import { trendingRoute } from "./trending.ts";

export const ROUTES: readonly RouteSpec[] = [
  qualityRoute,
  qualityLookupRoute,
  mcpScoresRoute,
  datasetsQualityRoute,
  trendingRoute,
  projectsRoute,
  projectsBulkRoute,
  projectRoute,
  projectByNameRoute,
  datasetsRoute,
  datasetFileRoute,
];
