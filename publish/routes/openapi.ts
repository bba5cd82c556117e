// GET /api/v1/openapi.json: the OpenAPI 3.1 document of this API, generated from the route table at publish time
// (its path examples name items of the release it was published with).
import { noParams } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const openapiRoute: FileRoute = {
  name: "openapi",
  method: "GET",
  path: "/api/v1/openapi.json",
  kind: "file",
  summary: "The OpenAPI 3.1 document of this API",
  description:
    "Every endpoint with its parameters (each with an example that works against this release), responses, the error envelope and its codes, the bearer scheme and the rate-limit headers.",
  tag: "Documents",
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: "api/v1/openapi.json",
  contentType: "application/json; charset=utf-8",
};
