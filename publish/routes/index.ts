// The route table: every endpoint of the API, one spec per file in this folder, listed here in the order the
// docs show them. Publish renders from it, the shim serves from it, the OpenAPI document is generated from it.
// A test checks every file of the folder is listed (no directory scanning, no self-registration).
import type { RouteSpec } from "../route-spec.ts";
import { aiPluginRoute } from "./ai-plugin.ts";
import { qualityBadgeRoute } from "./badge.ts";
import { badgeJsonRoute } from "./badge-json.ts";
import { badgeTrendRoute } from "./badge-trend.ts";
import { briefingRoute } from "./briefing.ts";
import { briefingsRoute } from "./briefings.ts";
import { compareRoute } from "./compare.ts";
import { comparePageRoute } from "./compare-page.ts";
import { contributorsTrendingRoute } from "./contributors-trending.ts";
import { datasetFileRoute } from "./dataset-file.ts";
import { datasetsRoute } from "./datasets.ts";
import { datasetsQualityRoute } from "./datasets-quality.ts";
import { dependenciesTrendingRoute } from "./dependencies-trending.ts";
import { docsRoute } from "./docs.ts";
import { domainPageRoute } from "./domain-page.ts";
import { faviconRoute } from "./favicon.ts";
import { feedRoute } from "./feed.ts";
import { feedbackRoute } from "./feedback.ts";
import { hnRoute } from "./hn.ts";
import { homeRoute } from "./home.ts";
import { keysRoute } from "./keys.ts";
import { labRoute } from "./lab.ts";
import { logoRoute } from "./logo.ts";
import { mcpScoresRoute } from "./mcp-scores.ts";
import { methodologyRoute } from "./methodology.ts";
import { openapiRoute } from "./openapi.ts";
import { papersRoute } from "./papers.ts";
import { projectRoute } from "./project.ts";
import { projectByNameRoute } from "./project-by-name.ts";
import { projectPageRoute } from "./project-page.ts";
import { projectsRoute } from "./projects.ts";
import { projectsBulkRoute } from "./projects-bulk.ts";
import { qualityRoute } from "./quality.ts";
import { qualityLookupRoute } from "./quality-lookup.ts";
import { queryRoute } from "./query.ts";
import { statusRoute } from "./status.ts";
import { tablesRoute } from "./tables.ts";
import { transitionsRoute } from "./transitions.ts";
import { trendingRoute } from "./trending.ts";
import { velocityRoute } from "./velocity.ts";
import { whatsNewRoute } from "./whats-new.ts";
import { workflowsRoute } from "./workflows.ts";

export const ROUTES: readonly RouteSpec[] = [
  qualityRoute,
  qualityLookupRoute,
  mcpScoresRoute,
  datasetsQualityRoute,
  trendingRoute,
  velocityRoute,
  contributorsTrendingRoute,
  dependenciesTrendingRoute,
  transitionsRoute,
  projectsRoute,
  projectsBulkRoute,
  compareRoute,
  projectRoute,
  projectByNameRoute,
  labRoute,
  whatsNewRoute,
  briefingsRoute,
  briefingRoute,
  hnRoute,
  papersRoute,
  statusRoute,
  tablesRoute,
  workflowsRoute,
  queryRoute,
  methodologyRoute,
  keysRoute,
  feedbackRoute,
  datasetsRoute,
  datasetFileRoute,
  homeRoute,
  docsRoute,
  openapiRoute,
  aiPluginRoute,
  feedRoute,
  logoRoute,
  faviconRoute,
  // badges and pages for people (issue 24)
  qualityBadgeRoute,
  badgeTrendRoute,
  badgeJsonRoute,
  projectPageRoute,
  domainPageRoute,
  comparePageRoute,
];
