// GET /api/v1/labs/{slug}: one lab (a curated organisation, or a GitHub owner of several tracked projects) with its
// projects, its projects by domain and its newest releases. Sharded by md5 of the slug like project details.
import { labDetailSchema, noParams, slugPathParams } from "../../schemas/index.ts";
import {
  type CollectionRoute,
  type CollectionSpec,
  NIGHTLY_PRIVATE,
  SHARDS,
  shardOf,
} from "../route-spec.ts";

export const LAB_DETAIL_COLLECTION: CollectionSpec = {
  name: "lab-detail",
  sql: "lab_detail",
  record: labDetailSchema,
  partitions: SHARDS,
  keys: true,
  // the releases of every lab at once outgrow the warehouse's 512 MB at 220,000 repositories
  passes: 16,
};

/** The 404 message of an unknown lab, saying where lab slugs are found. */
export function labNotFound(asked: string): string {
  return `No lab ${JSON.stringify(asked)}; lab slugs are in the public table labs (POST /api/v1/query with SELECT slug, name FROM labs), and a project's owner is a lab only with a curated entry or enough tracked projects.`;
}

export const labRoute: CollectionRoute = {
  name: "lab",
  method: "GET",
  path: "/api/v1/labs/{slug}",
  kind: "item",
  summary: "One lab's detail: its projects and releases",
  description:
    "A lab is an organisation of the curated list, with the GitHub owners publishing its work, or any other GitHub owner of at least lab_min_projects tracked projects (methodology; its slug is the owner in lower case). Its detail: totals (projects, stars, mean quality score, top domain and project), its projects by domain, every tracked project (most stars first) and the newest releases of its projects on GitHub, PyPI and npm. The slug is matched in any case.",
  tag: "Projects",
  query: noParams,
  pathParams: slugPathParams,
  cache: NIGHTLY_PRIVATE,
  collection: LAB_DETAIL_COLLECTION,
  lookup: (p) => {
    const slug = String(p.slug).toLowerCase();
    return [{ asked: String(p.slug), partition: shardOf(slug), keys: [slug] }];
  },
  exampleParams: (key) => ({ slug: key }),
  notFound: labNotFound,
};
