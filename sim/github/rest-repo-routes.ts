// The per-repository REST endpoints under /repos/{owner}/{repo} (or /repositories/{id}): the repository,
// contributors and stargazers with `Link` pages, commit activity (202 until computed, 204 when empty),
// issues with `since`, and an issue's comments.
import { type HttpReply, jsonReply, linkHeader, pageParams } from "../http/reply.ts";
import * as m from "../metrics.ts";
import type { World } from "../world.ts";
import {
  commentsJson,
  ITEM_MAX_LAG,
  type Item,
  issueJson,
  itemAt,
  itemsOpened,
  updatedAt,
} from "./rest-issues.ts";
import { repoJson } from "./rest-json.ts";
import {
  commitActivity,
  contributorCount,
  contributorsPage,
  STARGAZER_LIST_CAP,
  stargazersPage,
} from "./rest-lists.ts";
import { releaseJson, releasesNewestFirst } from "./rest-releases.ts";

export const DOCS = "https://docs.github.com/rest";
const EMPTY: HttpReply = { status: 204, headers: {}, body: "" };

export interface RepoRequest {
  world: World;
  index: number;
  now: number;
  /** What follows the repository in the path ("" for the repository itself). */
  sub: string;
  params: URLSearchParams;
  accept: string;
  /** Absolute base of the REST API (e.g. http://127.0.0.1:1234/github). */
  base: string;
}

export interface RepoRouteState {
  /** Repositories whose statistics are computed today ("index:day"). */
  computed: Set<string>;
  computedDay: number;
  itemLists: Map<string, Item[]>;
}

export function createRepoRouteState(): RepoRouteState {
  return { computed: new Set(), computedDay: -1, itemLists: new Map() };
}

function paged(
  items: unknown[] | ((first: number, count: number) => unknown[]),
  total: number,
  req: RepoRequest,
  path: string,
  cap = Number.POSITIVE_INFINITY,
): HttpReply {
  const { perPage, page } = pageParams(req.params);
  const reachable = Math.min(total, cap);
  if ((page - 1) * perPage >= cap) {
    return jsonReply(422, {
      message:
        "In order to keep the API fast for everyone, pagination is limited for this resource. Check the rel=last link relation in the Link response header to see how far back you can traverse.",
      documentation_url: `${DOCS}/overview/resources-in-the-rest-api#pagination`,
    });
  }
  const first = (page - 1) * perPage + 1;
  const count = Math.max(0, Math.min(perPage, reachable - first + 1));
  const body = typeof items === "function" ? items(first, count) : items.slice(first - 1, first - 1 + count);
  const lastPage = Math.max(1, Math.ceil(reachable / perPage));
  const url = `${req.base}/repositories/${req.world.databaseId(req.index)}${path}`;
  const link = linkHeader(url, req.params, page, lastPage);
  return jsonReply(200, body, link ? { link } : {});
}

/** Items for /issues: every filter needs the items themselves; cached per (repo, date, filters). */
function filteredItems(req: RepoRequest, state: RepoRouteState): Item[] | HttpReply {
  const { world, index, now, params } = req;
  const wanted = params.get("state") ?? "open";
  if (!["open", "closed", "all"].includes(wanted))
    return jsonReply(422, {
      message: "Validation Failed",
      errors: [{ resource: "Issue", field: "state", code: "invalid" }],
      documentation_url: `${DOCS}/issues/issues#list-repository-issues`,
    });
  const sinceText = params.get("since");
  const since = sinceText ? Date.parse(sinceText) / 86_400_000 : Number.NEGATIVE_INFINITY;
  if (Number.isNaN(since))
    return jsonReply(422, {
      message: "Validation Failed",
      errors: [{ resource: "Issue", field: "since", code: "invalid" }],
      documentation_url: `${DOCS}/issues/issues#list-repository-issues`,
    });
  const sort = params.get("sort") ?? "created";
  const ascending = params.get("direction") === "asc";
  const key = `${index}|${now}|${wanted}|${since}|${sort}|${ascending}`;
  const hit = state.itemLists.get(key);
  if (hit) return hit;
  const total = itemsOpened(world, index, now);
  const from = since === Number.NEGATIVE_INFINITY ? 1 : itemsOpened(world, index, since - ITEM_MAX_LAG) + 1;
  const out: Item[] = [];
  for (let n = total; n >= from; n--) {
    const item = itemAt(world, index, n, now, total);
    const closed = item.closed <= now;
    if ((wanted === "open" && closed) || (wanted === "closed" && !closed)) continue;
    if (updatedAt(item, now) < since) continue;
    out.push(item);
  }
  if (sort === "updated") out.sort((a, b) => updatedAt(b, now) - updatedAt(a, now));
  if (ascending) out.reverse();
  if (state.itemLists.size >= 64) state.itemLists.delete(state.itemLists.keys().next().value as string);
  state.itemLists.set(key, out);
  return out;
}

export function routeRepo(req: RepoRequest, state: RepoRouteState): HttpReply | undefined {
  const { world, index, now, sub } = req;
  if (sub === "" || sub === "/") return jsonReply(200, repoJson(world, index, now));
  if (sub === "/contributors") {
    const total = contributorCount(world, index, now);
    if (total === 0) return EMPTY;
    return paged((first, count) => contributorsPage(world, index, now, first, count), total, req, sub);
  }
  if (sub === "/stargazers") {
    const withTimes = req.accept.includes("application/vnd.github.star+json");
    // As many as stargazers_count says: on a day someone unstarred, the newest stargazer is off the list.
    const total = m.stars(world, index, now);
    const page = (first: number, count: number) => stargazersPage(world, index, now, first, count, withTimes);
    return paged(page, total, req, sub, STARGAZER_LIST_CAP);
  }
  if (sub === "/stats/commit_activity") {
    if (m.commits(world, index, now) === 0) return EMPTY;
    const day = Math.floor(now);
    if (state.computedDay !== day) {
      state.computed.clear();
      state.computedDay = day;
    }
    const key = `${index}:${day}`;
    if (!state.computed.has(key)) {
      state.computed.add(key);
      return jsonReply(202, {});
    }
    return jsonReply(200, commitActivity(world, index, now));
  }
  if (sub === "/releases") {
    const releases = releasesNewestFirst(world, index, now);
    const page = (first: number, count: number) =>
      releases
        .slice(first - 1, first - 1 + count)
        .map((r) => releaseJson(world, index, r, releases.length, now));
    return paged(page, releases.length, req, sub);
  }
  if (sub === "/issues") {
    const p = req.params;
    const plain = p.get("state") === "all" && !p.get("since") && (p.get("sort") ?? "created") === "created";
    if (plain && p.get("direction") !== "asc") {
      // Newest first with no filter: item numbers map straight to pages, nothing to materialise.
      const total = itemsOpened(world, index, now);
      const page = (first: number, count: number) =>
        Array.from({ length: count }, (_, n) =>
          issueJson(world, index, itemAt(world, index, total - first + 1 - n, now, total), now),
        );
      return paged(page, total, req, sub);
    }
    const items = filteredItems(req, state);
    if (!Array.isArray(items)) return items;
    const page = (first: number, count: number) =>
      items.slice(first - 1, first - 1 + count).map((item) => issueJson(world, index, item, now));
    return paged(page, items.length, req, sub);
  }
  const comments = /^\/issues\/(\d{1,9})\/comments$/.exec(sub);
  if (comments) {
    const n = Number(comments[1]);
    const total = itemsOpened(world, index, now);
    if (n < 1 || n > total) return undefined;
    const all = commentsJson(world, index, itemAt(world, index, n, now, total), now);
    return paged(all, all.length, req, sub);
  }
  return undefined;
}
