// GitHub's REST phase as its own source, run once the github source (GraphQL) has finished, beside the
// registry sources. For tonight's full refresh, read back from the github source's details batches (chunks
// of 100, so a resumed run plans the same): first the star history of the repositories newly tracked tonight
// (stargazers.ts), then the activity of all of them (activity.ts). One REST budget per night and token
// (config github.restBudget × tokens): the star bootstrap is served first, then the weekly contributor rotation
// (contributors.ts) claims half of what is left — at least what keeps every count within 14 days
// (contributorFloor) — and the activity the rest, spent in waves until less than one repository's worst case is left.
// Every request is paced per token under GitHub's secondary limits (rest-client.ts).
import { AppError } from "../../../core/errors.ts";
import { contributorFloor, planContributors } from "../../schedule/contributors.ts";
import type { BatchItem, CollectContext, Row, RowMeta, Source } from "../types.ts";
import { BATCHES_IN_FLIGHT, chunk, inOrder } from "../window.ts";
import {
  ACTIVITY_TABLE,
  activityRow,
  collectActivity,
  type FullRepo,
  lastActivity,
  notedSpent,
  noteSpent,
  planActivity,
  REST_REQUESTS_PER_REPO_MAX,
  type RepoActivity,
  type RepoChunk,
  restSpent,
} from "./activity.ts";
import {
  CONTRIBUTOR_BUDGET_SHARE,
  collectContributors,
  lastCounted,
  rotationCandidates,
} from "./contributors.ts";
import { createRestClient, REST_SOURCE, type RestClient } from "./rest-client.ts";
import {
  fetchStarHistory,
  STARS_TABLE,
  type StarHistory,
  starListReachable,
  starRequestsFor,
  starRows,
} from "./stargazers.ts";

const REPOS_TABLE = "raw_github_repos";
/** The github source's batches of the full details refresh (light ones are `raw_github_repos.light.k`). */
const DETAILS_BATCH = /^raw_github_repos\.(\d{5})$/;

export const starsBatchId = (k: number) => `${STARS_TABLE}.${String(k).padStart(5, "0")}`;

/** What toRows maps: one repository's activity, or one repository's star history. */
export type RestPayload =
  | { table: typeof ACTIVITY_TABLE; activity: RepoActivity }
  | {
      table: typeof STARS_TABLE;
      repo: { node_id: string; full_name: string };
      history: Pick<StarHistory, "days">;
    };

function toRows(payload: RestPayload, meta: RowMeta): Row[] {
  return payload.table === ACTIVITY_TABLE
    ? [activityRow(payload.activity, meta)]
    : starRows(payload.repo, payload.history, meta);
}

/** Tonight's full refresh as the github source saved it: rows whose details are of the run date. */
async function fullRefresh(ctx: CollectContext): Promise<RepoChunk[]> {
  const chunks: RepoChunk[] = [];
  for (const id of await ctx.batches.list("github", `${REPOS_TABLE}.`)) {
    const k = DETAILS_BATCH.exec(id)?.[1];
    if (k === undefined) continue;
    const rows = await ctx.batches.read<FullRepo & { details_as_of: string | null }>("github", id);
    const repos = rows
      .filter((r) => r.details_as_of === ctx.runDate)
      .map(({ node_id, full_name, stars }) => ({ node_id, full_name, stars: Number(stars) }));
    chunks.push({ k: Number(k), repos });
  }
  return chunks;
}

/** Node ids looked up in history at a time (each is a query parameter). */
const HISTORY_KEYS_PER_QUERY = 1_000;

/** The node ids among `ids` without any row before the run date (all of them before the first run). */
async function newlyTracked(ctx: CollectContext, ids: readonly string[]): Promise<Set<string>> {
  const known = new Set<string>();
  for (const keys of chunk(ids, HISTORY_KEYS_PER_QUERY))
    for (const row of (await ctx.history?.latest(REPOS_TABLE, "node_id", [], keys)) ?? [])
      known.add(String(row.node_id));
  return new Set(ids.filter((id) => !known.has(id)));
}

/**
 * One star batch per chunk holding newly tracked repositories under the list cap, within `budget`: each
 * repository reserves starRequestsFor(stars) and reads no further; those past the budget get no history.
 */
async function* collectStars(
  ctx: CollectContext,
  rest: RestClient,
  chunks: readonly RepoChunk[],
  budget: number,
): AsyncGenerator<BatchItem, number> {
  // Returns what the star batches found already saved cost the invocation that fetched them.
  const reachable = chunks.flatMap((c) => c.repos).filter((r) => starListReachable(r.stars));
  if (reachable.length === 0) return 0;
  const fresh = await newlyTracked(
    ctx,
    reachable.map((r) => r.node_id),
  );
  let left = budget;
  let over = 0;
  let resumedSpent = 0;
  const due: { id: string; repos: FullRepo[] }[] = [];
  // The whole night is planned, saved batches included, so a resumed invocation gives each batch left the
  // same share of the budget as the first one did (and never spends the night's budget twice).
  for (const { k, repos } of chunks) {
    const wanted = repos.filter((r) => fresh.has(r.node_id));
    if (wanted.length === 0) continue;
    const fits: FullRepo[] = [];
    for (const r of wanted) {
      const need = starRequestsFor(r.stars);
      if (need > left) over++;
      else {
        left -= need;
        fits.push(r);
      }
    }
    const id = starsBatchId(k);
    if (await ctx.batches.has(REST_SOURCE, id)) {
      // What the batch cost, as the invocation that saved it noted; else its share, the most it could cost.
      resumedSpent +=
        (await notedSpent(ctx, id)) ?? fits.reduce((sum, r) => sum + starRequestsFor(r.stars), 0);
      yield { id, resumed: true };
    } else if (fits.length > 0) due.push({ id, repos: fits });
  }
  if (over > 0) ctx.logger.info("github: star history past the REST budget", { repositories: over });
  const meta = () => ({ runDate: ctx.runDate, fetchedAt: ctx.clock.now() });
  yield* inOrder(due, BATCHES_IN_FLIGHT, async ({ id, repos }): Promise<BatchItem> => {
    try {
      const tally = { requests: 0 };
      const histories = await Promise.all(
        repos.map((r) => fetchStarHistory(ctx, rest, r.full_name, starRequestsFor(r.stars), tally)),
      );
      await noteSpent(ctx, id, tally.requests);
      const rows = repos.flatMap((r, i) => {
        const history = histories[i];
        return history ? toRows({ table: STARS_TABLE, repo: r, history }, meta()) : [];
      });
      return { id, table: STARS_TABLE, rows };
    } catch (error) {
      // Optional like the activity: GitHub unavailable or rate-limited leaves this batch to the next
      // invocation for the run date instead of failing the source.
      if (!(error instanceof AppError) || error.kind !== "transient") throw error;
      return { id, deferred: true, reason: error.message };
    }
  });
  return resumedSpent;
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const rest = createRestClient(ctx);
  const budget = ctx.config.github.restBudget * rest.tokens;
  const chunks = await fullRefresh(ctx);
  const before = restSpent(ctx);
  // Activity gets what the star bootstrap left: its requests in this invocation and those of the star
  // batches an earlier invocation saved, so a night is never paid twice and plans the same when resumed.
  const resumedSpent = yield* collectStars(ctx, rest, chunks, budget);
  const spent = restSpent(ctx) - before + resumedSpent;
  ctx.logger.info("github: REST star history done", { requests: spent, budget });
  const left = Math.max(0, budget - spent);
  // The contributor rotation (one request a repository) claims its share before the activity (up to eleven),
  // which would otherwise take it all; it skips what the activity counts tonight and gets whatever is left.
  const candidates = await rotationCandidates(ctx);
  const counted = await lastCounted(
    ctx,
    candidates.map((r) => r.node_id),
  );
  const demand = planContributors(candidates, counted, ctx.runDate).length;
  const claim = Math.max(Math.floor(left * CONTRIBUTOR_BUDGET_SHARE), contributorFloor(candidates));
  const activityBudget = left - Math.min(demand, claim, left);
  const lastRead = await lastActivity(
    ctx,
    chunks.flatMap((c) => c.repos.map((r) => r.node_id)),
  );
  // The rotation skips the activity's first wave (which counts contributors too); later waves are planned with what
  // the earlier ones left, so the activity may spend its whole budget, at most every repository's worst case.
  const activity = planActivity(chunks, activityBudget, lastRead);
  const rotation = planContributors(candidates, counted, ctx.runDate, activity.covered);
  const repos = chunks.reduce((n, c) => n + c.repos.length, 0);
  const activityMost = Math.min(activityBudget, repos * REST_REQUESTS_PER_REPO_MAX);
  // The rotation's requests run while the activity waits out GitHub's statistics (202s): on a small night that
  // wait is most of the phase. Its batches are yielded (saved) after the activity's.
  const counts = drain(collectContributors(ctx, rest, rotation, left - activityMost));
  counts.catch(() => {}); // awaited below; a failure must not surface as unhandled while the activity runs
  // A repository a later wave read may be in the rotation too: its activity row has tonight's count already, so the
  // rotation's row of it is dropped (one row a repository and night).
  const read = new Set<string>();
  for await (const item of collectActivity(ctx, rest, chunks, activityBudget, lastRead)) {
    const rows =
      "table" in item
        ? item.rows
        : "resumed" in item
          ? await ctx.batches.read<{ node_id: string }>(REST_SOURCE, item.id)
          : [];
    for (const row of rows) read.add(String(row.node_id));
    yield item;
  }
  for (const item of await counts)
    yield "table" in item ? { ...item, rows: item.rows.filter((r) => !read.has(String(r.node_id))) } : item;
}

async function drain<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

export const githubRest: Source<RestPayload> = {
  name: REST_SOURCE,
  tables: [ACTIVITY_TABLE, STARS_TABLE],
  needs: ["github"],
  collect,
  toRows,
};
