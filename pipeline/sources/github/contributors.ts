// The weekly contributor rotation over REST (planned by pipeline/schedule/contributors.ts): one `contributors`
// request per repository due, written to raw_github_activity as a row holding the count only (the commit weeks
// and issue figures stay those of the repository's last full activity row; feat_repos reads each apart).
// Batches of 100 in plan order, so a resumed invocation with the same plan asks only for what is missing.
import { AppError } from "../../../core/errors.ts";
import { CONTRIBUTOR_MIN_STARS, type ContributorCandidate } from "../../schedule/contributors.ts";
import type { BatchItem, CollectContext, Row } from "../types.ts";
import { BATCHES_IN_FLIGHT, chunk, inOrder } from "../window.ts";
import { ACTIVITY_TABLE, activityRow } from "./activity.ts";
import { fetchContributorCount } from "./rest.ts";
import { REST_SOURCE, type RestClient } from "./rest-client.ts";
import { TRACKED_FOR_DAYS } from "./tracked.ts";

const REPOS_TABLE = "raw_github_repos";
/** Repositories per rotation batch (one file each). */
const ROTATION_BATCH = 100;
/** Node ids looked up in history at a time (each is a query parameter). */
const HISTORY_KEYS_PER_QUERY = 1_000;
/** Share of the REST budget left after the star bootstrap that the rotation may claim before the activity. */
export const CONTRIBUTOR_BUDGET_SHARE = 0.5;

export const contributorsBatchId = (k: number) =>
  `${ACTIVITY_TABLE}.contributors.${String(k).padStart(5, "0")}`;

/** The night each repository's contributor count was last fetched, among the rows feat_repos still reads. */
export async function lastCounted(ctx: CollectContext, ids: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const keys of chunk(ids, HISTORY_KEYS_PER_QUERY)) {
    const rows =
      (await ctx.history?.latest(ACTIVITY_TABLE, "node_id", ["contributors", "activity_as_of"], keys, {
        withinDays: TRACKED_FOR_DAYS,
      })) ?? [];
    // A latest row without a count (gone, quarantined) leaves the repository uncounted: asked again first.
    for (const row of rows)
      if (row.contributors !== null && row.contributors !== undefined)
        out.set(String(row.node_id), String(row.activity_as_of).slice(0, 10));
  }
  return out;
}

/** Every repository the github source saved tonight (full and light refresh) with enough stars to rotate. */
export async function rotationCandidates(ctx: CollectContext): Promise<ContributorCandidate[]> {
  const out: ContributorCandidate[] = [];
  for (const id of await ctx.batches.list("github", `${REPOS_TABLE}.`)) {
    for (const r of await ctx.batches.read<ContributorCandidate>("github", id)) {
      const stars = Number(r.stars);
      if (stars >= CONTRIBUTOR_MIN_STARS) out.push({ node_id: r.node_id, full_name: r.full_name, stars });
    }
  }
  return out;
}

/** Counts of the first `budget` repositories of the rotation, one batch per 100; past the budget they wait. */
export async function* collectContributors(
  ctx: CollectContext,
  rest: RestClient,
  due: readonly ContributorCandidate[],
  budget: number,
): AsyncGenerator<BatchItem> {
  const asked = due.slice(0, Math.max(0, budget));
  if (due.length > asked.length)
    ctx.logger.info("github: contributor counts past the REST budget", {
      repositories: due.length - asked.length,
    });
  const batches = chunk(asked, ROTATION_BATCH).map((repos, k) => ({ id: contributorsBatchId(k), repos }));
  const todo: typeof batches = [];
  for (const b of batches) {
    if (await ctx.batches.has(REST_SOURCE, b.id)) yield { id: b.id, resumed: true };
    else todo.push(b);
  }
  yield* inOrder(todo, BATCHES_IN_FLIGHT, async ({ id, repos }): Promise<BatchItem> => {
    try {
      const counts = await Promise.all(repos.map((r) => fetchContributorCount(ctx, rest, r.full_name)));
      const meta = { runDate: ctx.runDate, fetchedAt: ctx.clock.now() };
      const rows: Row[] = [];
      for (const [i, r] of repos.entries()) {
        const contributors = counts[i] ?? null;
        // gone or quarantined: no row, so the repository stays uncounted and comes first again
        if (contributors === null) continue;
        // commit weeks were not asked: "pending" maps them to NULL, which feat_repos skips
        const activity = { status: "pending" } as const;
        rows.push(
          activityRow(
            { node_id: r.node_id, full_name: r.full_name, contributors, activity, issues: null },
            meta,
          ),
        );
      }
      return { id, table: ACTIVITY_TABLE, rows };
    } catch (error) {
      // Optional like the rest of REST: GitHub unavailable or rate-limited leaves the batch to a later invocation.
      if (!(error instanceof AppError) || error.kind !== "transient") throw error;
      return { id, deferred: true, reason: error.message };
    }
  });
}
