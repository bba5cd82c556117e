// GET /api/v1/status: orientation — the public tables and their rows, the repository count, every domain with its
// repositories, each source's freshness, the run date and release id. A document written by the orientation artifact.
import { noParams, statusSchema } from "../../schemas/index.ts";
import { type FileRoute, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const STATUS_FILE = "api/v1/status.json";

export const statusRoute: FileRoute = {
  name: "status",
  method: "GET",
  path: "/api/v1/status",
  kind: "file",
  summary: "Orientation: tables, repository count, domains and source freshness",
  description:
    "What this release holds: the night its data is from and its id, the tracked repositories, the public tables with their rows (columns: GET /api/v1/tables), every supported domain with its repositories (most first), and per data source its state, the latest night it delivered, how many rows, and how many nights it is behind. A source that failed keeps its last data (state behind: days_behind above 0 means that source's facts are older than the run date); a source with no row on record up to the run date was not collected for this release (state absent, rows null: its figures are unknown, not 0). stale_packages gives, per registry, the share of linked packages whose data is stale.",
  tag: "Orientation",
  query: noParams,
  cache: NIGHTLY_PRIVATE,
  file: STATUS_FILE,
  contentType: "application/json; charset=utf-8",
  envelope: true,
  schema: statusSchema,
  examples: {},
};
