// POST /github/graphql: authentication, parsing and validation (cached per query text), GitHub's static
// limits and point cost, the hourly budget per token, then execution against the world at the sim date.
import {
  type DocumentNode,
  executeSync,
  type FragmentDefinitionNode,
  type GraphQLError,
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  parse,
  validate,
} from "graphql";
import type { HttpReply } from "../http/reply.ts";
import { mix32 } from "../random.ts";
import type { World } from "../world.ts";
import { analyzeQuery, type StaticError } from "./cost.ts";
import { TypedGraphQLError } from "./paginate.ts";
import type { Budget, RateLimiter } from "./rate-limit.ts";
import { rootValue } from "./resolvers.ts";
import { githubSchema } from "./schema.ts";

export type { HttpReply };

export interface GraphqlHandlerOptions {
  world: World;
  /** The sim clock's current instant. */
  now(): number;
  limiter: RateLimiter;
  /** Called with the points charged by each executed query. */
  onCharge?(points: number): void;
}

const JSON_TYPE = "application/json; charset=utf-8";
const DOCS = "https://docs.github.com/graphql";
const AUTHORIZATION = /^(?:bearer|token)\s+(\S+)\s*$/i;
const DOCUMENT_CACHE_SIZE = 256;

type Parsed = { document: DocumentNode } | { errors: readonly GraphQLError[] };

function reply(status: number, body: unknown, headers: Record<string, string> = {}): HttpReply {
  return { status, headers: { "content-type": JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

function rateHeaders(budget: Budget): Record<string, string> {
  return {
    "x-ratelimit-limit": String(budget.limit),
    "x-ratelimit-remaining": String(budget.remaining),
    "x-ratelimit-used": String(budget.used),
    "x-ratelimit-reset": String(budget.reset),
    "x-ratelimit-resource": "graphql",
  };
}

/** GitHub's error layout: type first when there is one, then path, locations and message. */
function formatError(error: GraphQLError | StaticError): Record<string, unknown> {
  const original = "originalError" in error ? error.originalError : undefined;
  const type =
    "type" in error ? error.type : original instanceof TypedGraphQLError ? original.type : undefined;
  const out: Record<string, unknown> = {};
  if (type) out.type = type;
  if (error.path && error.path.length > 0) out.path = error.path;
  if (error.locations && error.locations.length > 0) out.locations = error.locations;
  out.message = error.message;
  return out;
}

export function createGraphqlHandler(
  options: GraphqlHandlerOptions,
): (authorization: string | undefined, body: string) => HttpReply {
  const schema = githubSchema();
  const documents = new Map<string, Parsed>();

  const parseCached = (query: string): Parsed => {
    const hit = documents.get(query);
    if (hit) return hit;
    let parsed: Parsed;
    try {
      const document = parse(query);
      const errors = validate(schema, document);
      parsed = errors.length > 0 ? { errors } : { document };
    } catch (error) {
      parsed = { errors: [error as GraphQLError] };
    }
    if (documents.size >= DOCUMENT_CACHE_SIZE) documents.delete(documents.keys().next().value as string);
    documents.set(query, parsed);
    return parsed;
  };

  return (authorization, body) => {
    const token = AUTHORIZATION.exec(authorization ?? "")?.[1];
    if (!token) return reply(401, { message: "Bad credentials", documentation_url: DOCS });
    let request: { query?: unknown; variables?: unknown; operationName?: unknown };
    try {
      request = JSON.parse(body);
      if (typeof request !== "object" || request === null) throw new Error("not an object");
    } catch {
      return reply(400, { message: "Problems parsing JSON", documentation_url: DOCS });
    }
    const budget = options.limiter.peek(token);
    if (typeof request.query !== "string") {
      return reply(
        200,
        { errors: [{ message: "A query attribute must be specified and must be a string." }] },
        rateHeaders(budget),
      );
    }
    const parsed = parseCached(request.query);
    if ("errors" in parsed)
      return reply(200, { errors: parsed.errors.map(formatError) }, rateHeaders(budget));
    const operationName = typeof request.operationName === "string" ? request.operationName : undefined;
    const operation = getOperationAST(parsed.document, operationName);
    if (!operation) {
      const message = operationName
        ? `No operation named "${operationName}"`
        : "An operation name is required";
      return reply(200, { errors: [{ message }] }, rateHeaders(budget));
    }
    const inputs =
      typeof request.variables === "object" && request.variables !== null
        ? (request.variables as Record<string, unknown>)
        : {};
    const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], inputs);
    if (coerced.errors) return reply(200, { errors: coerced.errors.map(formatError) }, rateHeaders(budget));

    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of parsed.document.definitions) {
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    }
    const analysis = analyzeQuery(schema, operation, fragments, coerced.coerced);
    if (analysis.errors.length > 0)
      return reply(200, { data: null, errors: analysis.errors.map(formatError) }, rateHeaders(budget));
    const userId = userIdOf(token);
    if (budget.remaining <= 0) {
      const refusal = {
        errors: [{ type: "RATE_LIMITED", message: `API rate limit exceeded for user ID ${userId}.` }],
      };
      return reply(200, refusal, rateHeaders(budget));
    }
    const dryRun = isDryRun(operation, coerced.coerced);
    const after = dryRun ? budget : options.limiter.charge(token, analysis.cost);
    if (!dryRun) options.onCharge?.(analysis.cost);
    const context = {
      world: options.world,
      now: options.now(),
      rate: {
        cost: analysis.cost,
        limit: after.limit,
        nodeCount: analysis.nodeCount,
        remaining: after.remaining,
        resetAt: new Date(after.reset * 1000).toISOString().replace(".000Z", "Z"),
        used: after.used,
      },
    };
    const result = executeSync({
      schema,
      document: parsed.document,
      rootValue: rootValue(context, `sim-user-${userId}`, userId),
      contextValue: context,
      variableValues: inputs,
      operationName,
    });
    const out: Record<string, unknown> = { data: result.data ?? null };
    if (result.errors && result.errors.length > 0) out.errors = result.errors.map(formatError);
    return reply(200, out, rateHeaders(after));
  };
}

/** A stable invented user id per token, for messages and the viewer. */
export function userIdOf(token: string): number {
  let h = 0;
  for (let n = 0; n < token.length; n++) h = mix32(h + token.charCodeAt(n));
  return 1_000_000 + (h % 90_000_000);
}

/** rateLimit(dryRun: true) asks for the cost without spending it. */
function isDryRun(operation: OperationDefinitionNode, variables: Record<string, unknown>): boolean {
  const queryType = githubSchema().getQueryType();
  const field = queryType?.getFields().rateLimit;
  return operation.selectionSet.selections.some(
    (selection) =>
      selection.kind === Kind.FIELD &&
      selection.name.value === "rateLimit" &&
      field !== undefined &&
      getArgumentValues(field, selection, variables).dryRun === true,
  );
}
