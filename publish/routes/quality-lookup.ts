// GET /api/v1/quality/{domain}/{repo}: one repository's quality record, by slug, owner/repo or bare repository
// name (the best-scored repository of that name in the domain).
import { noParams, qualityLookupPathParams } from "../../schemas/index.ts";
import { type CollectionRoute, NIGHTLY_PRIVATE, slugOf } from "../route-spec.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";
import { QUALITY_COLLECTION } from "./quality.ts";

export const qualityLookupRoute: CollectionRoute = {
  name: "quality-lookup",
  method: "GET",
  path: "/api/v1/quality/{domain}/{repo}",
  kind: "item",
  summary: "One repository's quality record",
  description:
    "The quality record of one repository of a domain, named by its slug, by owner/repo (URL-encoded as one path segment) or by its bare repository name — the best-scored repository of that name in the domain.",
  tag: "Quality",
  query: noParams,
  pathParams: qualityLookupPathParams,
  cache: NIGHTLY_PRIVATE,
  collection: QUALITY_COLLECTION,
  lookup: (p) => {
    const ref = String(p.repo).toLowerCase();
    const keys = ref.includes("/") ? [slugOf(ref)] : [ref, `=${ref}`];
    return [{ asked: p.repo, partition: p.domain, keys }];
  },
  // the first key of a quality record is its slug, the partition its domain
  exampleParams: (key, partition) => ({ domain: partition, repo: key }),
  // a project named by slug or owner/repo that is tracked in another domain: say which, and where its record is
  notFound: async (asked, p, find) => {
    const ref = String(p.repo);
    const project = /\/|--/.test(ref) ? await find(PROJECT_DETAIL_COLLECTION, projectLookup(ref)) : undefined;
    if (project && project.domain !== p.domain) {
      return `${project.full_name} is in the domain ${project.domain}, not ${p.domain}: its record is /api/v1/quality/${project.domain}/${project.slug}.`;
    }
    return `No repository ${JSON.stringify(asked)} in the domain ${p.domain}; list the domain with /api/v1/quality?domain=${p.domain} or search with /api/v1/projects?q=.`;
  },
};
