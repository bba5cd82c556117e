// POST /api/v1/query: validates the body, finds the public database of the release being served (a release switch
// moves queries to the file it names), runs the query in the worker pool, and answers in the envelope with the
// columns, the rows and meta.truncated. Refusals keep their own codes; nothing echoes the SQL.
import type { FastifyInstance } from "fastify";
import { resolvePublicDb } from "../../core/public-db.ts";
import { QueryError } from "../../core/query/index.ts";
import { parseBody, type QueryResultData, queryBody } from "../../schemas/index.ts";
import { rateLimitHeaders } from "../caller.ts";
import { ApiError } from "../errors.ts";
import { acceptJsonBodies, queryCaller } from "../http/json-body.ts";
import { JSON_TYPE } from "../http/send.ts";
import type { ReleaseReader } from "../release-reader.ts";
import { QueryBusyError, type QueryCaller, type QueryPool } from "./pool.ts";
import { type WorkerJob, WorkerUnavailableError } from "./worker-process.ts";

const QUERY_PATH = "/api/v1/query";
/** Largest request body: the longest SQL text allowed with its parameters fits several times. */
export const MAX_QUERY_BODY_BYTES = 64 * 1024;
/** Seconds a caller over its in-flight cap, or facing a full queue, is told to wait. */
const RETRY_AFTER_SECONDS = { caller: "1", address: "1", queue: "2" } as const;

/** What the shim needs to answer queries: the pool and the state folder holding the public databases. */
export interface QueryService {
  pool: QueryPool;
  stateRoot: string;
}

export function registerQueryRoute(
  app: FastifyInstance,
  options: QueryService & { release: ReleaseReader; timestamp: () => string },
): void {
  app.register(async (scope) => {
    acceptJsonBodies(scope, MAX_QUERY_BODY_BYTES);
    scope.post(QUERY_PATH, { bodyLimit: MAX_QUERY_BODY_BYTES }, async (request, reply) => {
      // a client gone before its turn (its connection closed) has its query dropped, not run
      const caller = { ...queryCaller(request), gone: () => request.raw.socket.destroyed };
      const answer = await runQuery(options, caller, request.body);
      reply.code(200);
      if (request.quota) reply.headers(rateLimitHeaders(request.quota));
      reply.header("cache-control", "no-store");
      reply.header("content-type", JSON_TYPE);
      return JSON.stringify(answer);
    });
  });
}

/**
 * One query as POST /api/v1/query answers it (also the MCP run_query tool): the body validated, run in the pool for
 * `caller` over the served night's public database; refusals are ApiErrors with the endpoint's codes. `bytesAs` is how
 * the answer will be sent (WorkerJob): the worker stops at the rows that fit the byte cap that way.
 */
export async function runQuery(
  options: QueryService & { release: ReleaseReader; timestamp: () => string },
  caller: QueryCaller,
  body: unknown,
  bytesAs: WorkerJob["bytesAs"] = "json",
): Promise<{ data: QueryResultData; meta: Record<string, unknown> }> {
  const started = performance.now();
  const parsed = parseBody(queryBody, body);
  if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
  // the build the live release names (a night published twice has two), so SQL answers what the API serves
  const served = options.release.manifest();
  const database = served && (await resolvePublicDb(options.stateRoot, served));
  if (!database) {
    throw new ApiError("unavailable", "No public database is published yet; retry after the nightly run.", {
      "retry-after": "60",
    });
  }
  const job = { file: database.path, sql: parsed.value.sql, params: parsed.value.params ?? [], bytesAs };
  const result = await options.pool.run(caller, job).catch(refusal);
  const data: QueryResultData = { run_date: database.run_date, columns: result.columns, rows: result.rows };
  const meta = {
    timestamp: options.timestamp(),
    count: result.row_count,
    query: {},
    truncated: result.truncated,
    elapsed_ms: Math.round(performance.now() - started),
  };
  return { data, meta };
}

/** The pool's refusals as API errors; anything else is the shim's own failure (500, logged). */
function refusal(error: unknown): never {
  if (error instanceof QueryError) throw new ApiError(error.code, error.message);
  if (error instanceof QueryBusyError) {
    const code = error.reason === "queue" ? "unavailable" : "rate_limit_exceeded";
    throw new ApiError(code, error.message, { "retry-after": RETRY_AFTER_SECONDS[error.reason] });
  }
  if (error instanceof WorkerUnavailableError) {
    throw new ApiError("unavailable", "The query service cannot run queries right now; retry in a minute.", {
      "retry-after": "60",
    });
  }
  throw error;
}
