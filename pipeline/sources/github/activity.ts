// The REST activity of the repositories refreshed in full tonight: contributor count, 52 weeks of commits and
// issue responsiveness, into raw_github_activity. One batch per details batch of the github source (same
// chunk of 100), so a resumed run asks for the same. The budget it is given is spent in waves, each reserving
// REST_REQUESTS_PER_REPO_MAX per repository before asking, stalest first (never asked, then the oldest activity,
// then the most starred), the next wave planned with what the last did not spend; repositories past the budget get
// no row tonight, keep their last one and are counted as stale.
import { AppError } from "../../../core/errors.ts";
import type { Batch, BatchItem, CollectContext, Row, RowMeta } from "../types.ts";
import { chunk } from "../window.ts";
import { COMMENT_REQUESTS_PER_REPO, fetchIssueResponse, type IssueResponse } from "./issues.ts";
import {
  ACTIVITY_ROUNDS,
  type Activity,
  fetchCommitActivity,
  fetchContributorCount,
  STATS_PATH,
} from "./rest.ts";
import { REST_SOURCE, type RestClient, repoUrl } from "./rest-client.ts";
import { TRACKED_FOR_DAYS } from "./tracked.ts";

export const ACTIVITY_TABLE = "raw_github_activity";
/** Most REST requests one repository can cost: contributors, issues, comment lookups, activity rounds. */
export const REST_REQUESTS_PER_REPO_MAX = 1 + 1 + COMMENT_REQUESTS_PER_REPO + 1 + ACTIVITY_ROUNDS;

export const activityBatchId = (k: number) => `${ACTIVITY_TABLE}.${String(k).padStart(5, "0")}`;

/** What was learned of one repository over REST tonight. */
export interface RepoActivity {
  node_id: string;
  full_name: string;
  contributors: number | null;
  activity: Activity;
  issues: IssueResponse | null;
}

/** Pure: one repository's REST answers to its raw_github_activity row. */
export function activityRow(a: RepoActivity, meta: RowMeta): Row {
  const weeks = a.activity.status === "ok" ? a.activity.weeks.map((w) => w.total) : null;
  const empty = a.activity.status === "empty";
  return {
    run_date: meta.runDate,
    node_id: a.node_id,
    full_name: a.full_name,
    contributors: a.contributors,
    commits_52w: weeks ? weeks.reduce((s, n) => s + n, 0) : empty ? 0 : null,
    commit_weeks: weeks ?? (empty ? Array.from({ length: 52 }, () => 0) : null),
    issue_response_median_hours: a.issues?.median_hours ?? null,
    issues_sampled: a.issues?.sampled ?? null,
    activity_as_of: meta.runDate,
    fetched_at: meta.fetchedAt.toISOString(),
  };
}

/** REST requests spent so far in this client's life that were not free 304s. */
export function restSpent(ctx: CollectContext): number {
  const s = ctx.http.stats().bySource[REST_SOURCE];
  return (s?.requests ?? 0) - (s?.not_modified ?? 0);
}

/** A repository refreshed in full tonight, as the github source saved it. */
export interface FullRepo {
  node_id: string;
  full_name: string;
  stars: number;
}

/** The k-th chunk of tonight's full refresh (the github source's details batch k). */
export interface RepoChunk {
  k: number;
  repos: readonly FullRepo[];
}

/** Contributors, issue responsiveness and commit weeks of every repository due, asked concurrently. */
async function askAll(
  ctx: CollectContext,
  rest: RestClient,
  all: readonly { node_id: string; full_name: string }[],
) {
  const [per, activity] = await Promise.all([
    Promise.all(
      all.map(async (r) => ({
        contributors: await fetchContributorCount(ctx, rest, r.full_name),
        issues: await fetchIssueResponse(ctx, rest, repoUrl(ctx, r.full_name)),
      })),
    ),
    fetchCommitActivity(
      ctx,
      rest,
      all.map((r) => r.full_name),
      ACTIVITY_ROUNDS,
      ctx.config.github.statsRetryMs,
    ),
  ]);
  return { per, activity };
}

/** Node ids looked up in history at a time (each is a query parameter). */
const HISTORY_KEYS_PER_QUERY = 1_000;

/**
 * When each of `ids` last had its commit weeks or issues read (activity_as_of, YYYY-MM-DD), among the last
 * TRACKED_FOR_DAYS run dates; a repository absent from the map was never read in that time (or only counted by the
 * contributor rotation, whose rows carry no activity).
 */
export async function lastActivity(
  ctx: CollectContext,
  ids: readonly string[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const keys of chunk(ids, HISTORY_KEYS_PER_QUERY)) {
    const rows =
      (await ctx.history?.latest(
        ACTIVITY_TABLE,
        "node_id",
        ["commits_52w", "issues_sampled", "activity_as_of"],
        keys,
        {
          withinDays: TRACKED_FOR_DAYS,
        },
      )) ?? [];
    for (const row of rows)
      if (row.commits_52w != null || row.issues_sampled != null)
        out.set(String(row.node_id), String(row.activity_as_of).slice(0, 10));
  }
  return out;
}

/**
 * The repositories of each chunk `budget` reserves activity for, and in all. A night's budget covers a few dozen of
 * the hundreds refreshed in full, so it goes to the stalest: never read (by `lastRead`) first, then the oldest
 * reading, then the most starred, then chunk order. Taken in chunk order alone, the same first repositories were
 * read every night and the rest never (in the demo world 29 of 642 a night, and 30 of 2,722 in all after 35 nights).
 */
export function planActivity(
  chunks: readonly RepoChunk[],
  budget: number,
  lastRead: ReadonlyMap<string, string> = new Map(),
): { fits: FullRepo[][]; covered: Set<string>; reserved: number } {
  const n = Math.max(0, Math.floor(budget / REST_REQUESTS_PER_REPO_MAX));
  const ranked = chunks
    .flatMap(({ repos }) => repos)
    .map((repo, order) => ({ repo, order, read: lastRead.get(repo.node_id) ?? "" }))
    .sort((a, b) =>
      a.read !== b.read ? (a.read < b.read ? -1 : 1) : b.repo.stars - a.repo.stars || a.order - b.order,
    );
  const covered = new Set(ranked.slice(0, n).map(({ repo }) => repo.node_id));
  const fits = chunks.map(({ repos }) => repos.filter((r) => covered.has(r.node_id)));
  return { fits, covered, reserved: covered.size * REST_REQUESTS_PER_REPO_MAX };
}

/** Bookkeeping beside a REST batch (activity or star history; never loaded): the REST requests it cost. */
const spentId = (batchId: string) => `spent.${batchId}`;

/** Notes what a REST batch cost, before the batch itself is saved, so a saved batch always has its cost beside it. */
export async function noteSpent(ctx: CollectContext, batchId: string, requests: number): Promise<void> {
  await ctx.batches.write(REST_SOURCE, spentId(batchId), [{ requests }]);
}

/** What a saved REST batch cost, as the invocation that saved it noted; undefined when it noted nothing. */
export async function notedSpent(ctx: CollectContext, batchId: string): Promise<number | undefined> {
  const [noted] = await ctx.batches
    .read<{ requests: number }>(REST_SOURCE, spentId(batchId))
    .catch(() => [undefined]);
  return noted?.requests;
}

/**
 * `rest` with what each repository's requests may cost tallied under its node id (by the repository part of the
 * URL): each distinct URL once, 304s included, and the commit statistics at their worst case (1 + ACTIVITY_ROUNDS,
 * asked again while GitHub computes them). That is what its data asks for (the pages its contributors and issues
 * take), the same on every runner, and never less than GitHub charges: whether GitHub had the statistics ready, or a
 * runner's cache held a page, must not change which repositories a night reads (a fresh runner and a kept folder
 * plan the same night, test/state-remote.test.ts).
 */
function tallied(
  ctx: CollectContext,
  rest: RestClient,
  repos: readonly FullRepo[],
  tally: Map<string, number>,
) {
  const keyOf = (url: string) => url.split("/").slice(0, 2).join("/");
  const base = `${ctx.urls.githubRest}/repos/`;
  const byKey = new Map(repos.map((r) => [keyOf(repoUrl(ctx, r.full_name).slice(base.length)), r.node_id]));
  const asked = new Set<string>();
  const client: RestClient = {
    tokens: rest.tokens,
    async get(url, options) {
      const id = url.startsWith(base) ? byKey.get(keyOf(url.slice(base.length))) : undefined;
      if (id !== undefined && !asked.has(url)) {
        asked.add(url);
        const worst = url.endsWith(STATS_PATH) ? 1 + ACTIVITY_ROUNDS : 1;
        tally.set(id, (tally.get(id) ?? 0) + worst);
      }
      return rest.get(url, options);
    },
  };
  return client;
}

type Answer = { contributors: number | null; issues: IssueResponse | null; weeks: Activity };

/**
 * One activity batch per chunk not already saved, within `budget` REST requests, in waves: each wave reserves the
 * worst case (REST_REQUESTS_PER_REPO_MAX) for the stalest repositories it fits (planActivity) and asks them all at
 * once, so the pause before asking again for statistics still computing (202) is taken once a wave; what the wave
 * did not spend of its reservation (the demo world's most starred cost 7.5 requests on average against 11 reserved)
 * plans the next wave, until less than one repository's worst case is left. Reserving the worst case once and
 * stopping there left about a third of the activity's budget unspent every night. A saved batch keeps what it cost
 * (noted beside it before it is saved), so a resumed invocation plans the rest within the night's budget.
 */
export async function* collectActivity(
  ctx: CollectContext,
  rest: RestClient,
  chunks: readonly RepoChunk[],
  budget: number,
  lastRead: ReadonlyMap<string, string> = new Map(),
): AsyncGenerator<BatchItem> {
  let left = budget;
  const open: RepoChunk[] = [];
  for (const c of chunks) {
    const id = activityBatchId(c.k);
    if (!(await ctx.batches.has(REST_SOURCE, id))) {
      open.push(c);
      continue;
    }
    // What the batch cost, as the invocation that saved it noted; else the most it could cost.
    left -= (await notedSpent(ctx, id)) ?? c.repos.length * REST_REQUESTS_PER_REPO_MAX;
    yield { id, resumed: true };
  }
  const answers = new Map<string, Answer>();
  const tally = new Map<string, number>();
  const spentBefore = restSpent(ctx);
  let waves = 0;
  for (;;) {
    const plan = planActivity(
      open.map(({ k, repos }) => ({ k, repos: repos.filter((r) => !answers.has(r.node_id)) })),
      left,
      lastRead,
    );
    if (plan.covered.size === 0) break;
    const wave = plan.fits.flat();
    const before = wave.reduce((sum, r) => sum + (tally.get(r.node_id) ?? 0), 0);
    let answered: Awaited<ReturnType<typeof askAll>>;
    try {
      answered = await askAll(ctx, tallied(ctx, rest, wave, tally), wave);
    } catch (error) {
      // REST is the optional half of the refresh: when GitHub stays unavailable or rate-limited, tonight's
      // GraphQL rows stand and the repositories of this wave keep their last activity (stale), rather than failing.
      if (!(error instanceof AppError) || error.kind !== "transient") throw error;
      ctx.logger.warn("github: REST activity left for a later night", {
        repositories: wave.length,
        error: error.message,
      });
      break;
    }
    waves++;
    for (const [i, r] of wave.entries()) {
      const { contributors, issues } = answered.per[i] as (typeof answered.per)[number];
      answers.set(r.node_id, {
        contributors,
        issues,
        weeks: answered.activity.get(r.full_name) ?? { status: "pending" },
      });
    }
    left -= wave.reduce((sum, r) => sum + (tally.get(r.node_id) ?? 0), 0) - before;
  }
  const stale = open.reduce((n, c) => n + c.repos.filter((r) => !answers.has(r.node_id)).length, 0);
  if (stale > 0) ctx.count("activity_stale", stale);
  if (answers.size === 0) return;
  const meta = { runDate: ctx.runDate, fetchedAt: ctx.clock.now() };
  for (const { k, repos } of open) {
    const asked = repos.filter((r) => answers.has(r.node_id));
    if (asked.length === 0) continue;
    const rows: Row[] = [];
    for (const r of asked) {
      const { contributors, issues, weeks } = answers.get(r.node_id) as Answer;
      // Gone since the details query (404 on every call): no row.
      if (contributors === null && issues === null && weeks.status === "gone") continue;
      rows.push(activityRow({ ...r, contributors, activity: weeks, issues }, meta));
    }
    const id = activityBatchId(k);
    await noteSpent(
      ctx,
      id,
      asked.reduce((sum, r) => sum + (tally.get(r.node_id) ?? 0), 0),
    );
    yield { id, table: ACTIVITY_TABLE, rows } satisfies Batch;
  }
  ctx.logger.info("github: REST activity fetched", {
    repositories: answers.size,
    waves,
    stale,
    requests: [...tally.values()].reduce((a, b) => a + b, 0),
    // every REST request meanwhile, the contributor rotation's that run beside the activity included
    all_rest_requests: restSpent(ctx) - spentBefore,
  });
}
