// GET /api/v1/projects: search projects by name (exact, then prefix, then substring, case-insensitive), filtered by
// category (subcategory), stack layer and domain, paged; without q, every project in canonical order.
import { projectSummarySchema, projectsParams } from "../../schemas/index.ts";
import { type CollectionRoute, type CollectionSpec, NIGHTLY_PRIVATE } from "../route-spec.ts";

export const PROJECTS_COLLECTION: CollectionSpec = {
  name: "projects",
  sql: "projects",
  record: projectSummarySchema,
  filters: ["domain", "stack_layer", "subcategory"],
  search: true,
};

export const projectsRoute: CollectionRoute = {
  name: "projects",
  method: "GET",
  path: "/api/v1/projects",
  kind: "list",
  summary: "Search projects by name",
  description:
    "Projects whose owner/name contains q, case-insensitive: exact matches of the whole name or of the repository name first, then names starting with q (either part), then names containing it; each group in canonical order (quality_score, then stars, then full_name). Without q, every project in canonical order. category (the subcategory), stack_layer and domain narrow the list; each item's slug leads to /api/v1/projects/{slug}.",
  tag: "Projects",
  mcp: { name: "search_projects" },
  query: projectsParams,
  cache: NIGHTLY_PRIVATE,
  collection: PROJECTS_COLLECTION,
  filters: { domain: "domain", stack_layer: "stack_layer", category: "subcategory" },
  search: "q",
  paging: { limit: "limit", offset: "offset" },
  examples: { q: "rag", limit: "5" },
};
