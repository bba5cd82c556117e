// The GraphQL schema the simulator serves: GitHub's own names, read from schema.graphql beside this file.
import { readFileSync } from "node:fs";
import { buildSchema, type GraphQLSchema } from "graphql";

let cached: GraphQLSchema | undefined;

export function githubSchema(): GraphQLSchema {
  cached ??= buildSchema(readFileSync(new URL("./schema.graphql", import.meta.url), "utf8"));
  return cached;
}
