// GET /api/v1/projects/{slug}: one project's detail by slug or owner/repo (any case; owner/repo URL-encoded as one
// segment). Its collection, 256 shards by md5 of the slug, also answers /projects/{owner}/{repo} and /projects/bulk.
import { noParams, projectDetailSchema, projectPathParams } from "../../schemas/index.ts";
import {
  type CollectionRoute,
  type CollectionSpec,
  type LookupKey,
  NIGHTLY_PRIVATE,
  SHARDS,
  shardOf,
  slugOf,
} from "../route-spec.ts";

export const PROJECT_DETAIL_COLLECTION: CollectionSpec = {
  name: "project-detail",
  sql: "project_detail",
  record: projectDetailSchema,
  partitions: SHARDS,
  keys: true,
  // 90 nights of history per project: at 220,000 repositories one statement outgrows the warehouse's 512 MB, and
  // 8 passes of 27,500 repositories needed 440 MB of it; 10 keep a margin
  passes: 10,
};

/** Where a slug or owner/repo is found: its slug (owner/repo maps to it) in the slug's shard. */
export function projectLookup(ref: string): LookupKey {
  const slug = slugOf(ref);
  return { asked: ref, partition: shardOf(slug), keys: [slug] };
}

/** The 404 message of a project that is not tracked, pointing to the search. */
export function projectNotFound(asked: string): string {
  return `No tracked project ${JSON.stringify(asked)}; find its slug with /api/v1/projects?q=<name>.`;
}

export const projectRoute: CollectionRoute = {
  name: "project",
  method: "GET",
  path: "/api/v1/projects/{slug}",
  kind: "item",
  summary: "One project's detail",
  description:
    "Everything known about one project: the quality record's fields, repository metrics, downloads by registry and every linked package, the score explained input by input, lifecycle stage and since when, momentum, hype ratio, releases, 90 nights of stars and downloads and the same by month over every night the warehouse holds (years for a release built from a list's history), links (repository, homepage, registry pages, arXiv papers) and how fresh each source's facts are. The slug is owner--repo in lower case; owner/repo (URL-encoded as one segment, any case) resolves too, as does /api/v1/projects/{owner}/{repo}.",
  tag: "Projects",
  mcp: { name: "get_project" },
  query: noParams,
  pathParams: projectPathParams,
  cache: NIGHTLY_PRIVATE,
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => [projectLookup(String(p.slug))],
  exampleParams: (key) => ({ slug: key }),
  notFound: projectNotFound,
};
