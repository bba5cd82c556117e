// GET /api/v1/projects/bulk?slugs=a,b,owner/c: up to 20 project details in one call, in the order asked, each
// resolved like /api/v1/projects/{slug}; the ones not tracked are named in meta.missing.
import { BULK_MAX, projectsBulkParams } from "../../schemas/index.ts";
import { type CollectionRoute, NIGHTLY_PRIVATE } from "../route-spec.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";

export const projectsBulkRoute: CollectionRoute = {
  name: "projects-bulk",
  method: "GET",
  path: "/api/v1/projects/bulk",
  kind: "bulk",
  summary: `Up to ${BULK_MAX} project details in one call`,
  description: `The details of up to ${BULK_MAX} projects, named by slug or owner/repo (comma-separated in slugs, each once), in the order asked — the same records as /api/v1/projects/{slug}. Names that match no tracked project are listed in meta.missing as they were asked; meta.count and meta.total count the details returned.`,
  tag: "Projects",
  query: projectsBulkParams,
  cache: NIGHTLY_PRIVATE,
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => (p.slugs as string[]).map(projectLookup),
  exampleParams: (key) => ({ slugs: key }),
  // filled from the release's first project, like a path parameter (routes-markdown keeps <slugs> readable)
  examples: { slugs: "<slugs>" },
};
