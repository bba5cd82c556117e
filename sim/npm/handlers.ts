// The npm registry (GET /npm/<name>, scoped as @scope%2fname or @scope/name, with ETag and 304) and the
// npm downloads API (GET /npm-downloads/downloads/point|range/<period>/<pkg>[,<pkg>…], bulk up to 128
// unscoped packages, as on api.npmjs.org).
import { formatDay, parseDay } from "../dates.ts";
import { type HttpReply, jsonReply, type SimRequest, withEtag } from "../http/reply.ts";
import { linksOf } from "../links.ts";
import type { World } from "../world.ts";
import { npmDailyDownloads, npmDownloadsBetween } from "./downloads.ts";
import { npmFirstPublish, packument } from "./packument.ts";

export const NPM_BULK_LIMIT = 128;
const MAX_RANGE_DAYS = 549; // "at most 18 months of data"
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** First and last whole day of a period ending yesterday, or a YYYY-MM-DD:YYYY-MM-DD range. */
function periodDays(period: string, today: number): [number, number] | undefined {
  const named: Record<string, number> = { "last-day": 1, "last-week": 7, "last-month": 30, "last-year": 365 };
  const length = named[period];
  if (length !== undefined) return [today - length, today - 1];
  const [from, to] = period.split(":");
  const first = parseDay(from ?? "");
  const last = to === undefined ? first : parseDay(to);
  if (first === undefined || last === undefined || last < first) return undefined;
  return [first, Math.min(last, today - 1)];
}

export function createNpmHandlers(world: World, now: () => number) {
  const published = (name: string) => {
    const index = linksOf(world).findNpm(name);
    return index !== undefined && npmFirstPublish(world, index) <= now() ? index : undefined;
  };

  const registry = (req: SimRequest): HttpReply => {
    const name = decodeURIComponent(req.path.slice(1)).toLowerCase();
    const index = req.method === "GET" || req.method === "HEAD" ? published(name) : undefined;
    if (index === undefined) return jsonReply(404, { error: "Not found" });
    const reply = jsonReply(200, packument(world, index, now()), { "cache-control": "public, max-age=300" });
    return withEtag(reply, header(req.headers["if-none-match"]));
  };

  const downloads = (req: SimRequest): HttpReply => {
    const match = /^\/downloads\/(point|range)\/([^/]+)\/(.+)$/.exec(req.path);
    if (!match || req.method !== "GET") return jsonReply(404, { error: "not found" });
    const [, kind, period, list] = match as unknown as [string, "point" | "range", string, string];
    const today = Math.floor(now());
    const days = periodDays(period, today);
    if (!days) return jsonReply(400, { error: "Invalid date range" });
    const [first, last] = days;
    if (last - first + 1 > MAX_RANGE_DAYS) return jsonReply(400, { error: "range cannot exceed 18 months" });
    const names = decodeURIComponent(list).split(",");
    const answer = (index: number, name: string) => {
      const span = { start: formatDay(first), end: formatDay(last), package: name };
      if (kind === "point") return { downloads: npmDownloadsBetween(world, index, first, last), ...span };
      const series = [];
      for (let day = first; day <= last; day++)
        series.push({ downloads: npmDailyDownloads(world, index, day), day: formatDay(day) });
      return { start: span.start, end: span.end, package: name, downloads: series };
    };
    if (names.length === 1) {
      const name = names[0] as string;
      const index = published(name);
      if (index === undefined) return jsonReply(404, { error: `package ${name} not found` });
      return jsonReply(200, answer(index, name));
    }
    if (names.length > NPM_BULK_LIMIT)
      return jsonReply(400, { error: `bulk queries are limited to at most ${NPM_BULK_LIMIT} packages` });
    if (names.some((name) => name.startsWith("@")))
      return jsonReply(400, { error: "scoped packages are not currently supported in bulk lookups" });
    if (kind === "range" && last - first + 1 > 365)
      return jsonReply(400, { error: "bulk queries are limited to at most 365 days of data" });
    const body: Record<string, unknown> = {};
    for (const name of names) {
      const index = published(name);
      body[name] = index === undefined ? null : answer(index, name);
    }
    return jsonReply(200, body);
  };

  return { registry, downloads };
}
