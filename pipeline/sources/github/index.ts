// The GitHub connector: discover repositories by topic and keyword (discover.ts), plan today's refresh by tier
// (pipeline/schedule/tiers.ts), then fetch 100 repositories at a time with `nodes(ids:)`: the full details
// query for those due, the light one (1 point per 100) for the rest, whose other counts are carried forward
// from their last full row. Deleted repositories (null nodes) are skipped and counted, and those GitHub
// answers NOT_FOUND for are recorded in raw_github_gone (gone.ts); a malformed node is
// quarantined and carried forward; an answer that stays malformed defers its batch to the next invocation.
// GitHub REST (star history, activity) is the github_rest source (rest-source.ts), run after this one.
import { owns, shardPlan } from "../../schedule/shards.ts";
import { phaseOf, planRefresh, type RefreshHistory } from "../../schedule/tiers.ts";
import type { BatchItem, CollectContext, Row, Source } from "../types.ts";
import { BATCHES_IN_FLIGHT, chunk, inOrder } from "../window.ts";
import { createGithubClient, type GithubClient, githubTokens, MalformedPayloadError } from "./client.ts";
import { fetchDetails, fetchLight } from "./details.ts";
import { discover, termKey } from "./discover.ts";
import { GONE_TABLE, goneBatchId, goneRows } from "./gone.ts";
import { NODES_PER_QUERY } from "./queries.ts";
import { CARRIED_COLUMNS, type CarriedValues, type GithubRepoRow, lightRow, toRows } from "./rows.ts";
import type { DetailsResponse } from "./schemas.ts";
import { readLinkedSeeds, readSeedFile, resolveSeeds } from "./seeds.ts";
import { type SearchTerm, searchTerms } from "./topics.ts";
import { TRACKED_FOR_DAYS } from "./tracked.ts";

const TABLE = "raw_github_repos";
const DAY_MS = 86_400_000;
/** Nights of creation dates the daily incremental search covers (today and the day before). */
export const DISCOVERY_OVERLAP_DAYS = 1;

/** Batch id of the k-th chunk of 100 node ids due in full (ids sorted, so a resumed run finds the same). */
export const detailsBatchId = (k: number) => `${TABLE}.${String(k).padStart(5, "0")}`;
/** Batch id of the k-th chunk of the light refresh. */
export const lightBatchId = (k: number) => `${TABLE}.light.${String(k).padStart(5, "0")}`;

function client(ctx: CollectContext, phase: { discovery: boolean }): GithubClient {
  return createGithubClient({
    http: ctx.http,
    url: ctx.urls.githubGraphql,
    tokens: githubTokens(ctx.config.github.tokens, ctx.urls),
    clock: ctx.clock,
    sleep: ctx.sleep,
    maxRetryWaitMs: ctx.config.http.maxRetryWaitMs,
    logger: ctx.logger,
    onPoints: (points) => {
      ctx.count("graphql_points", points);
      if (phase.discovery) ctx.count("graphql_points_discovery", points);
    },
  });
}

/**
 * What the planner needs of each tracked repository: its stars and last full refresh. A repository whose
 * latest row is older than TRACKED_FOR_DAYS (deleted, or gone from search and failing since) is no longer
 * tracked, so the dead are not asked for every night forever.
 */
async function refreshHistory(
  ctx: CollectContext,
): Promise<{ history: Map<string, RefreshHistory>; names: Map<string, string> }> {
  const recent = { withinDays: TRACKED_FOR_DAYS };
  const columns = ["stars", "details_as_of", "full_name", "run_date"];
  const found = (await ctx.history?.latest(TABLE, "node_id", columns, undefined, recent)) ?? [];
  // A repository GitHub answered NOT_FOUND for after its latest row is not asked for again (a search that
  // finds it again, e.g. made public once more, brings it back).
  const gone = new Map(
    ((await ctx.history?.latest(GONE_TABLE, "node_id", ["run_date"], undefined, recent)) ?? []).map((r) => [
      String(r.node_id),
      String(r.run_date),
    ]),
  );
  const rows = found.filter((r) => (gone.get(String(r.node_id)) ?? "") <= String(r.run_date));
  const history = new Map(
    rows.map((r) => [
      String(r.node_id),
      { stars: Number(r.stars), details_as_of: (r.details_as_of as string | null) ?? null },
    ]),
  );
  return { history, names: new Map(rows.map((r) => [String(r.node_id), String(r.full_name)])) };
}

/** Logs and counts the ids of a batch that came back as nothing: deleted, not found or incomplete. */
function countGone(
  ctx: CollectContext,
  id: string,
  ids: readonly string[],
  rows: readonly Row[],
  kept: Set<string>,
) {
  const gone = ids.filter((nodeId) => !kept.has(nodeId) && !rows.some((r) => r.node_id === nodeId));
  if (gone.length === 0) return;
  ctx.logger.info("github: repositories skipped (deleted, not found or incomplete)", {
    batch: id,
    node_ids: gone,
  });
  ctx.count("skipped", gone.length);
}

/**
 * Runs one batch; a malformed answer is quarantined and the batch deferred, never stopping the run. The
 * ids answered NOT_FOUND go to a gone batch, saved before the refresh batch so a resumed run that finds the
 * refresh batch finds its gone batch too.
 */
async function batch(
  ctx: CollectContext,
  id: string,
  ids: readonly string[],
  lastNames: ReadonlyMap<string, string>,
  fetch: () => Promise<{ rows: GithubRepoRow[]; quarantined: Set<string>; notFound: Set<string> }>,
): Promise<BatchItem[]> {
  if (await ctx.batches.has("github", id)) return [{ id, resumed: true }];
  try {
    const { rows, quarantined, notFound } = await fetch();
    // Quarantined repositories are not gone: they stay tracked and are carried forward as stale.
    countGone(ctx, id, ids, rows, quarantined);
    const gone = goneRows(notFound, lastNames, { runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
    return [
      ...(gone.length > 0 ? [{ id: goneBatchId(id), table: GONE_TABLE, rows: gone }] : []),
      { id, table: TABLE, rows },
    ];
  } catch (error) {
    if (!(error instanceof MalformedPayloadError)) throw error;
    await ctx.quarantine(`${error.url}#batch:${id}`, error.payload, error.zodError);
    return [{ id, deferred: true, reason: error.message }];
  }
}

/**
 * Where a term's discovery search starts today. Without history: the whole past. Otherwise each term is
 * searched in full once every `coldDays` (on its own phase day, so the sweeps spread over the week) and on
 * other nights only over repositories created in the last DISCOVERY_OVERLAP_DAYS days; tracked repositories
 * are refreshed by node id whether or not today's search returned them.
 */
function discoverySince(ctx: CollectContext, tracked: number): (term: SearchTerm) => string | undefined {
  if (tracked === 0 || ctx.config.github.discovery === "full") return () => undefined;
  const day = Math.floor(Date.parse(`${ctx.runDate}T00:00:00Z`) / DAY_MS);
  const period = ctx.config.github.refresh.coldDays;
  const recent = new Date((day - DISCOVERY_OVERLAP_DAYS) * DAY_MS).toISOString().slice(0, 10);
  return (term) => ((day + phaseOf(termKey(term))) % period === 0 ? undefined : recent);
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const phase = { discovery: true };
  const github = client(ctx, phase);
  const { history, names } = await refreshHistory(ctx);
  const found = new Map<string, string>();
  // "off" still searches on a first night: with nothing tracked there would be nothing to refresh
  if (ctx.config.github.discovery !== "off" || history.size === 0) {
    const terms = searchTerms(ctx.config.github).filter((term) => owns(ctx.shard, termKey(term)));
    yield* discover(ctx, github, terms, found, discoverySince(ctx, history.size));
    const seeds = new Set([
      ...(await readSeedFile(ctx.config.github.seedFile)),
      ...(await readLinkedSeeds(ctx)),
    ]);
    yield* resolveSeeds(ctx, github, [...seeds].filter((name) => owns(ctx.shard, name)).sort(), found);
  }
  phase.discovery = false;
  const lastNames = new Map([...names, ...found]);
  const ids = [...new Set([...found.keys(), ...history.keys()])].sort();
  const plan = shardPlan(planRefresh(ids, history, ctx.runDate, ctx.config.github.refresh), names, ctx.shard);
  ctx.count("repos_total", plan.full.length + plan.light.length);
  ctx.logger.info("github: refresh planned", {
    repositories: plan.full.length + plan.light.length,
    full: plan.full.length,
    light: plan.light.length,
    ...plan.tiers,
  });
  const meta = () => ({ runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
  const full = inOrder(chunk(plan.full, NODES_PER_QUERY), BATCHES_IN_FLIGHT, (ids, k) =>
    batch(ctx, detailsBatchId(k), ids, lastNames, async () => {
      const { answer, quarantined, notFound } = await fetchDetails(ctx, github, ids);
      return { rows: toRows(answer, meta()), quarantined, notFound };
    }),
  );
  for await (const items of full) yield* items;
  // The carried-forward counts of every light repository, read once (one scan of the last two weeks).
  const carried = new Map(
    plan.light.length === 0
      ? []
      : (
          (await ctx.history?.latest(TABLE, "node_id", CARRIED_COLUMNS, undefined, {
            withinDays: TRACKED_FOR_DAYS,
          })) ?? []
        )
          .filter((r) => r.details_as_of !== null)
          .map((r) => [String(r.node_id), r as unknown as CarriedValues]),
  );
  const light = inOrder(chunk(plan.light, NODES_PER_QUERY), BATCHES_IN_FLIGHT, (ids, k) =>
    batch(ctx, lightBatchId(k), ids, lastNames, async () => {
      const { repos, quarantined, notFound } = await fetchLight(ctx, github, ids);
      const rows: GithubRepoRow[] = [];
      for (const repo of repos) {
        const previous = carried.get(repo.id);
        if (previous) rows.push(lightRow(repo, previous, meta()));
      }
      return { rows, quarantined, notFound };
    }),
  );
  for await (const items of light) yield* items;
}

export const github: Source<DetailsResponse> = {
  name: "github",
  tables: [TABLE, GONE_TABLE],
  needs: [],
  collect,
  toRows,
};
