// GET /api/v1/workflows: the ready-made SQL recipes of data/workflows/ — name, title, description, parameters, the
// SQL and a POST /api/v1/query body that runs it. A document written by the orientation artifact.
import { noParams, workflowsSchema } from "../../schemas/index.ts";
import { type FileRoute, HOURLY_PUBLIC } from "../route-spec.ts";

export const WORKFLOWS_FILE = "api/v1/workflows.json";

export const workflowsRoute: FileRoute = {
  name: "workflows",
  method: "GET",
  path: "/api/v1/workflows",
  kind: "file",
  summary: "Ready-made SQL recipe templates for POST /api/v1/query",
  description:
    "Recipes over the public tables (GET /api/v1/tables): rising projects in a domain, hype without adoption, the most depended-on packages, star history and more. Send a recipe's example_request as the body of POST /api/v1/query to run it as it is; a recipe with parameters holds them as plain literals in its SQL, to edit in a copy.",
  tag: "Orientation",
  query: noParams,
  cache: HOURLY_PUBLIC,
  file: WORKFLOWS_FILE,
  contentType: "application/json; charset=utf-8",
  envelope: true,
  schema: workflowsSchema,
  examples: {},
};
