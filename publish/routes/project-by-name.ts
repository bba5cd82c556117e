// GET /api/v1/projects/{owner}/{repo}: the project detail addressed as GitHub spells it, in two path segments (any
// case) — the same record as /api/v1/projects/{slug}, for callers that cannot encode the slash of owner/repo.
import { noParams, projectOwnerRepoPathParams } from "../../schemas/index.ts";
import { type CollectionRoute, NIGHTLY_PRIVATE } from "../route-spec.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup, projectNotFound } from "./project.ts";

export const projectByNameRoute: CollectionRoute = {
  name: "project-by-name",
  method: "GET",
  path: "/api/v1/projects/{owner}/{repo}",
  kind: "item",
  summary: "One project's detail by owner and repository name",
  description:
    "The detail of /api/v1/projects/{slug}, addressed by owner and repository name as two path segments, any case.",
  tag: "Projects",
  query: noParams,
  pathParams: projectOwnerRepoPathParams,
  cache: NIGHTLY_PRIVATE,
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => [projectLookup(`${p.owner}/${p.repo}`)],
  // a slug is owner--repo; GitHub owners never hold "--", so the first one splits it
  exampleParams: (key) => {
    const at = key.indexOf("--");
    return { owner: key.slice(0, at), repo: key.slice(at + 2) };
  },
  notFound: projectNotFound,
};
