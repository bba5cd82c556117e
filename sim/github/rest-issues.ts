// Issues and pull requests as GitHub's REST issues list shows them (one numbered sequence, PRs carrying a
// `pull_request` key) plus each issue's comments, so a client can measure time to first response.
import { formatInstant } from "../dates.ts";
import * as m from "../metrics.ts";
import { stargazerLogin } from "../names.ts";
import { between, hash32, SALT, unit } from "../random.ts";
import { firstInstantReaching } from "../trajectory.ts";
import type { World } from "../world.ts";
import { API, userJson } from "./rest-json.ts";

/** Nothing about an item changes later than this many days after it was opened. */
export const ITEM_MAX_LAG = 31;
const MAX_COMMENTS = 12;

export interface Item {
  number: number;
  isPr: boolean;
  created: number;
  /** Instant closed or merged (Infinity when it stays open). */
  closed: number;
  merged: boolean;
  /** Instants of its comments, ascending; the first is the first response. */
  comments: number[];
}

/** Issues and pull requests opened up to an instant (the length of the numbered sequence). */
export const itemsOpened = m.itemsOpened;

/** Item number n of repository i, as it stands at `now`. */
export function itemAt(world: World, i: number, n: number, now: number, total: number): Item {
  const u = (k: number) => unit(world.seed, i, SALT.issues, n * 8 + k);
  const near = n * 2 > total ? "high" : "low";
  const created = firstInstantReaching(
    (x) => itemsOpened(world, i, x),
    n,
    world.params.created[i] as number,
    now,
    near,
  );
  const r = m.ratios(world, i);
  const prs = m.pullRequestCounts(world, i, now);
  const prShare = (prs.open + prs.merged + prs.closed) / Math.max(1, total);
  const isPr = u(0) < prShare;
  const roll = u(1);
  const merged = isPr && roll < r.prsMerged;
  const closes = isPr ? roll < r.prsMerged + r.prsClosed : roll < r.issuesClosed;
  const stop = world.params.actStop[i] as number;
  const closeAt = created + between(u(2), 0.02, isPr ? 12 : 28);
  const closed = closes && closeAt < stop ? closeAt : Infinity;
  // Responsiveness is a property of the repository: typical first response in hours.
  const typical = between(unit(world.seed, i, SALT.issues), 0.05, 9);
  const count = u(3) < 0.2 ? 0 : Math.min(MAX_COMMENTS, 1 + Math.floor(-Math.log(Math.max(u(4), 1e-9)) * 2));
  const comments: number[] = [];
  let at = created + typical * (0.2 + 1.6 * u(5));
  for (let c = 0; c < count && at < created + ITEM_MAX_LAG && at < stop; c++) {
    comments.push(at);
    at += between(unit(world.seed, i, SALT.issues, n * 64 + c), 0.01, 3);
  }
  return { number: n, isPr, created, closed, merged, comments };
}

export function visibleComments(item: Item, now: number): number[] {
  return item.comments.filter((at) => at <= now);
}

export function updatedAt(item: Item, now: number): number {
  const comments = visibleComments(item, now);
  const closed = item.closed <= now ? item.closed : 0;
  return Math.max(item.created, closed, comments[comments.length - 1] ?? 0);
}

function authorOf(world: World, i: number, n: number) {
  const id = 40_000_000 + (hash32(world.seed, i, n, SALT.issues) % 2_000_000_000);
  return userJson(stargazerLogin(world.seed, i, 1_000_000 + n), id);
}

export function issueJson(world: World, i: number, item: Item, now: number) {
  const repoUrl = `${API}/repos/${world.fullNameAt(i, now)}`;
  const url = `${repoUrl}/issues/${item.number}`;
  const html = `https://github.com/${world.fullNameAt(i, now)}/${item.isPr ? "pull" : "issues"}/${item.number}`;
  const closed = item.closed <= now;
  const id = 900_000_000 + ((world.databaseId(i) * 131 + item.number) % 1e9);
  const out: Record<string, unknown> = {
    url,
    repository_url: repoUrl,
    comments_url: `${url}/comments`,
    html_url: html,
    id,
    node_id: `${item.isPr ? "PR" : "I"}_kwDO${Buffer.from(`${world.databaseId(i)}:${item.number}`).toString("base64url")}`,
    number: item.number,
    title: `${item.isPr ? "Add" : "Problem with"} ${world.repoNameAt(i, now)} item ${item.number}`,
    user: authorOf(world, i, item.number),
    labels: [],
    state: closed ? "closed" : "open",
    locked: false,
    assignee: null,
    assignees: [],
    milestone: null,
    comments: visibleComments(item, now).length,
    created_at: formatInstant(item.created),
    updated_at: formatInstant(updatedAt(item, now)),
    closed_at: closed ? formatInstant(item.closed) : null,
    author_association: "NONE",
    active_lock_reason: null,
  };
  if (item.isPr) {
    out.draft = false;
    out.pull_request = {
      url: `${repoUrl}/pulls/${item.number}`,
      html_url: html,
      diff_url: `${html}.diff`,
      patch_url: `${html}.patch`,
      merged_at: closed && item.merged ? formatInstant(item.closed) : null,
    };
  }
  out.body = null;
  out.state_reason = closed ? (item.isPr || item.merged ? null : "completed") : null;
  return out;
}

/** GET /repos/{o}/{r}/issues/{n}/comments: the comments so far, oldest first (maintainers answer). */
export function commentsJson(world: World, i: number, item: Item, now: number) {
  const repoUrl = `${API}/repos/${world.fullNameAt(i, now)}`;
  return visibleComments(item, now).map((at, c) => {
    const id = 1_000_000_000 + ((world.databaseId(i) * 977 + item.number * 31 + c) % 1e9);
    return {
      url: `${repoUrl}/issues/comments/${id}`,
      html_url: `https://github.com/${world.fullNameAt(i, now)}/issues/${item.number}#issuecomment-${id}`,
      issue_url: `${repoUrl}/issues/${item.number}`,
      id,
      node_id: `IC_kwDO${Buffer.from(String(id)).toString("base64url")}`,
      user:
        c % 2 === 0
          ? userJson(world.ownerLogin(world.ownerOf(i)), 5_000_000 + world.ownerOf(i))
          : authorOf(world, i, item.number),
      created_at: formatInstant(at),
      updated_at: formatInstant(at),
      author_association: c % 2 === 0 ? "OWNER" : "NONE",
      body: c % 2 === 0 ? "Thanks for the report, looking into it." : "Thanks!",
    };
  });
}
