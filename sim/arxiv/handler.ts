// GET /arxiv/api/query?id_list=a,b&max_results=N: the papers the world's model cards cite. The feed format
// follows the sim date (the new backend from NEW_FEED_FROM on) unless the server is told which to use.
import { parseDay } from "../dates.ts";
import type { HttpReply, SimRequest } from "../http/reply.ts";
import { linksOf } from "../links.ts";
import type { World } from "../world.ts";
import { errorFeed, type FeedFormat, feed, isArxivId, paperPublished } from "./feed.ts";

/** arXiv switched its API to the new backend in early 2026 (the recorded 2026-04 bodies). */
export const NEW_FEED_FROM = parseDay("2026-03-01") as number;
const ATOM = "application/atom+xml; charset=utf-8";

export function createArxivHandler(world: World, now: () => number, format?: FeedFormat) {
  return (req: SimRequest): HttpReply => {
    if (req.path !== "/api/query" || req.method !== "GET")
      return { status: 404, headers: { "content-type": "text/plain" }, body: "Not Found" };
    const idList = req.params.get("id_list") ?? "";
    const max = Math.min(2000, Math.max(1, Number.parseInt(req.params.get("max_results") ?? "10", 10) || 10));
    const ids = idList === "" ? [] : idList.split(",");
    const bad = ids.find((id) => !isArxivId(id));
    if (bad !== undefined)
      return { status: 400, headers: { "content-type": ATOM }, body: errorFeed(bad, now()) };
    const links = linksOf(world);
    const found: { i: number; id: string }[] = [];
    for (const raw of ids.slice(0, max)) {
      const id = raw.replace(/v\d+$/, "");
      const i = links.findArxiv(id);
      if (i !== undefined && paperPublished(world, i, id) <= now()) found.push({ i, id });
    }
    const chosen = format ?? (now() >= NEW_FEED_FROM ? "new" : "old");
    return {
      status: 200,
      headers: { "content-type": ATOM },
      body: feed(world, found, { idList, max }, now(), chosen),
    };
  };
}
