// The GitHub connector: discover repositories by topic (discover.ts), then fetch their details 100 at a time
// with `nodes(ids:)` into raw_github_repos. Deleted repositories (null nodes) are skipped and counted.
import { AppError } from "../../core/errors.ts";
import type { BatchItem, CollectContext, Source } from "../types.ts";
import { BATCHES_IN_FLIGHT, chunk, inOrder } from "../window.ts";
import { createGithubClient, type GithubClient, githubTokens } from "./client.ts";
import { discover } from "./discover.ts";
import { DETAILS_QUERY, detailsWindows, NODES_PER_QUERY } from "./queries.ts";
import { toRows } from "./rows.ts";
import { type DetailsResponse, detailsResponseSchema } from "./schemas.ts";
import { searchTopics } from "./topics.ts";

const TABLE = "raw_github_repos";

/** Batch id of the k-th chunk of 100 node ids (ids sorted, so the chunks are the same on a resumed run). */
export const detailsBatchId = (k: number) => `${TABLE}.${String(k).padStart(5, "0")}`;

async function fetchDetails(
  client: GithubClient,
  ids: readonly string[],
  runDate: string,
): Promise<DetailsResponse> {
  const answer = await client.query(
    DETAILS_QUERY,
    { ids, ...detailsWindows(runDate) },
    detailsResponseSchema,
  );
  const unexplained = (answer.errors ?? []).filter((e) => e.path?.[0] !== "nodes");
  if (!answer.data || unexplained.length > 0) {
    throw new AppError(
      `GitHub details for ${ids.length} repositories failed: ${unexplained[0]?.message ?? "no data"}.`,
      {
        kind: "transient",
        hint: "Run again later; finished batches are kept.",
      },
    );
  }
  return answer;
}

function client(ctx: CollectContext): GithubClient {
  return createGithubClient({
    http: ctx.http,
    url: ctx.urls.githubGraphql,
    tokens: githubTokens(ctx.config.github.tokens, ctx.urls),
    clock: ctx.clock,
    sleep: ctx.sleep,
    maxRetryWaitMs: ctx.config.http.maxRetryWaitMs,
    logger: ctx.logger,
    onPoints: (points) => ctx.count("graphql_points", points),
  });
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const github = client(ctx);
  const found = new Map<string, string>();
  yield* discover(ctx, github, searchTopics(ctx.config.github.topics), found);
  const ids = [...found.keys()].sort();
  ctx.logger.info("github: discovery done", { repositories: ids.length });
  const chunks = chunk(ids, NODES_PER_QUERY);
  yield* inOrder(chunks, BATCHES_IN_FLIGHT, async (chunk, k): Promise<BatchItem> => {
    const id = detailsBatchId(k);
    if (await ctx.batches.has("github", id)) return { id, resumed: true };
    const answer = await fetchDetails(github, chunk, ctx.runDate);
    const rows = toRows(answer, { runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
    if (rows.length < chunk.length) {
      const gone = chunk.filter((nodeId) => !rows.some((r) => r.node_id === nodeId));
      ctx.logger.info("github: repositories skipped (deleted, not found or incomplete)", {
        batch: id,
        node_ids: gone,
      });
      ctx.count("skipped", gone.length);
    }
    return { id, table: TABLE, rows };
  });
}

export const github: Source<DetailsResponse> = {
  name: "github",
  tables: [TABLE],
  needs: [],
  collect,
  toRows,
};
