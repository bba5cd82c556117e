// GET /api/v1/compare?projects=a,b,owner/c: 2 to 5 projects side by side — each one's detail as
// /api/v1/projects/{slug} gives it (every quality field, the four components with their inputs, 90 nights of stars
// and downloads), in the order asked; the names not tracked are listed in meta.missing. The page for people is
// /compare (compare-page.ts).
import { COMPARE, compareParams } from "../../schemas/index.ts";
import { type CollectionRoute, NIGHTLY_PRIVATE } from "../route-spec.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "./project.ts";

export const compareRoute: CollectionRoute = {
  name: "compare",
  method: "GET",
  path: "/api/v1/compare",
  kind: "bulk",
  summary: `${COMPARE.min} to ${COMPARE.max} projects side by side`,
  description: `Compares ${COMPARE.min} to ${COMPARE.max} projects, named by slug or owner/repo (comma-separated in projects, each once), in the order asked. Each is the project's detail, as /api/v1/projects/{slug} gives it: every quality field (quality_score, quality_tier and the four component scores), score_explanation (each component's points and the inputs that earned them), alternatives, and history: the stars and monthly downloads of the same 90 nights for every project of the answer, history.from to history.to (the release's night), entry i being night from + i, null where a project has no snapshot that night (not yet tracked, or a night missed) and, for downloads, on the nights before the registries were first read (their snapshots count 0 because nothing was collected). Names that match no tracked project are listed in meta.missing as they were asked. The same comparison drawn for people: /compare?projects=….`,
  tag: "Projects",
  query: compareParams,
  cache: NIGHTLY_PRIVATE,
  collection: PROJECT_DETAIL_COLLECTION,
  lookup: (p) => (p.projects as string[]).map(projectLookup),
  // the release's first two projects (the first alone would be refused: at least two)
  exampleParams: (_key, _partition, keys) => ({ projects: keys.join(",") }),
  // filled from the release like a path parameter (routes-markdown keeps <projects> readable)
  examples: { projects: "<projects>" },
  mcp: {
    name: "compare_projects",
    description: `Compares ${COMPARE.min} to ${COMPARE.max} projects side by side: their scores, components with inputs, and 90 nights of stars and downloads aligned night by night. Use it when asked which of several projects to choose.`,
  },
};
