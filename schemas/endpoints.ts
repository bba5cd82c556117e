// Every endpoint of the spec with the schemas of its query, path and body, keyed "METHOD /path".
// One table for the shim (which schema validates a route) and for the OpenAPI generator.
import type { z } from "zod";
import { createKeyBody, feedbackBody, queryBody } from "./bodies.ts";
import {
  briefingsParams,
  contributorsTrendingParams,
  datasetsQualityParams,
  dependenciesTrendingParams,
  hnParams,
  mcpScoresParams,
  noParams,
  papersParams,
  projectPathParams,
  projectsBulkParams,
  projectsParams,
  qualityLookupPathParams,
  qualityParams,
  slugPathParams,
  transitionsParams,
  trendingParams,
  velocityParams,
  whatsNewParams,
} from "./params.ts";

export interface EndpointSchemas {
  /** Query parameters; `noParams` when the endpoint takes none (unknown ones are still rejected). */
  query: z.ZodObject;
  path?: z.ZodObject;
  /** JSON body; bodyOptional says whether an empty request is valid. */
  body?: z.ZodObject;
  bodyOptional?: boolean;
}

export const ENDPOINTS = {
  "GET /api/v1/quality": { query: qualityParams },
  "GET /api/v1/quality/{domain}/{repo}": { query: noParams, path: qualityLookupPathParams },
  "GET /api/v1/datasets/quality": { query: datasetsQualityParams },
  "GET /api/v1/mcp/scores": { query: mcpScoresParams },
  "GET /api/v1/trending": { query: trendingParams },
  "GET /api/v1/projects": { query: projectsParams },
  "GET /api/v1/projects/bulk": { query: projectsBulkParams },
  "GET /api/v1/projects/{slug}": { query: noParams, path: projectPathParams },
  "GET /api/v1/whats-new": { query: whatsNewParams },
  "GET /api/v1/briefings": { query: briefingsParams },
  "GET /api/v1/briefings/{slug}": { query: noParams, path: slugPathParams },
  "POST /api/v1/keys": { query: noParams, body: createKeyBody, bodyOptional: true },
  "GET /api/v1/status": { query: noParams },
  "GET /api/v1/tables": { query: noParams },
  "GET /api/v1/workflows": { query: noParams },
  "POST /api/v1/query": { query: noParams, body: queryBody, bodyOptional: false },
  "POST /api/v1/feedback": { query: noParams, body: feedbackBody, bodyOptional: false },
  "GET /api/v1/velocity": { query: velocityParams },
  "GET /api/v1/contributors/trending": { query: contributorsTrendingParams },
  "GET /api/v1/transitions": { query: transitionsParams },
  "GET /api/v1/labs/{slug}": { query: noParams, path: slugPathParams },
  "GET /api/v1/hn": { query: hnParams },
  "GET /api/v1/dependencies/trending": { query: dependenciesTrendingParams },
  "GET /api/v1/papers": { query: papersParams },
  "GET /api/v1/methodology": { query: noParams },
} as const satisfies Record<string, EndpointSchemas>;

export type EndpointKey = keyof typeof ENDPOINTS;
