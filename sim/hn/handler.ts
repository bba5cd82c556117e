// Hacker News search through Algolia under /hn: GET /api/v1/search_by_date (newest first) and
// /api/v1/search, with query, tags=story, numericFilters (created_at_i, points, num_comments with
// < <= = >= >), hitsPerPage (max 1,000) and page; like Algolia, only the first 1,000 hits can be paged.
import { type HttpReply, jsonReply, type SimRequest } from "../http/reply.ts";
import type { World } from "../world.ts";
import { lowerBound, type Story, storiesOf, storyAt, storyText } from "./stories.ts";

const PAGINATION_LIMIT = 1_000;
type Filter = { field: keyof Story; op: string; value: number };

function parseFilters(text: string): Filter[] | string {
  const out: Filter[] = [];
  for (const part of text.split(",").filter((p) => p.trim() !== "")) {
    const match = /^\s*(created_at_i|points|num_comments)\s*(<=|>=|<|>|=)\s*(-?\d+)\s*$/.exec(part);
    if (!match) return `Invalid numericFilters: ${part}`;
    out.push({ field: match[1] as keyof Story, op: match[2] as string, value: Number(match[3]) });
  }
  return out;
}

function passes(story: Story, filters: Filter[]): boolean {
  return filters.every(({ field, op, value }) => {
    const v = story[field] as number;
    return op === "<"
      ? v < value
      : op === "<="
        ? v <= value
        : op === ">"
          ? v > value
          : op === ">="
            ? v >= value
            : v === value;
  });
}

function hit(story: Story, words: string[]) {
  const highlight = (value: string) => {
    const matched = words.filter((w) => value.toLowerCase().includes(w));
    return {
      matchLevel: matched.length === 0 ? "none" : matched.length === words.length ? "full" : "partial",
      matchedWords: matched,
      value,
    };
  };
  const created = new Date(story.created_at_i * 1000).toISOString();
  return {
    _highlightResult: {
      author: highlight(story.author),
      title: highlight(story.title),
      url: highlight(story.url),
    },
    _tags: ["story", `author_${story.author}`, `story_${story.objectID}`],
    author: story.author,
    children: [],
    created_at: created,
    created_at_i: story.created_at_i,
    num_comments: story.num_comments,
    objectID: story.objectID,
    points: story.points,
    story_id: Number(story.objectID),
    title: story.title,
    updated_at: created,
    url: story.url,
  };
}

export function createHnHandler(world: World, now: () => number) {
  return (req: SimRequest): HttpReply => {
    if ((req.path !== "/api/v1/search_by_date" && req.path !== "/api/v1/search") || req.method !== "GET")
      return jsonReply(404, { error: "Not Found" });
    const filters = parseFilters(req.params.get("numericFilters") ?? "");
    if (typeof filters === "string") return jsonReply(400, { message: filters, status: 400 });
    const tags = (req.params.get("tags") ?? "").split(",").filter((t) => t !== "");
    const query = req.params.get("query") ?? "";
    const words = query
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w !== "");
    const hitsPerPage = Math.min(
      PAGINATION_LIMIT,
      Math.max(0, Number.parseInt(req.params.get("hitsPerPage") ?? "20", 10) || 20),
    );
    const page = Math.max(0, Number.parseInt(req.params.get("page") ?? "0", 10) || 0);
    const index = storiesOf(world);
    // The time window first (binary search), then the other filters over the stories inside it.
    let from = 0;
    let to = lowerBound(index.times, now() + 1e-9);
    for (const f of filters) {
      if (f.field !== "created_at_i") continue;
      const instant = f.value / 86_400;
      if (f.op === ">" || f.op === ">=") from = Math.max(from, lowerBound(index.times, instant));
      if (f.op === "<" || f.op === "<=") to = Math.min(to, lowerBound(index.times, instant + 1 / 86_400));
    }
    const onlyStories = tags.every((t) => t === "story" || t.startsWith("author_") || t.startsWith("story_"));
    const matched: Story[] = [];
    for (let p = to - 1; p >= from && onlyStories; p--) {
      if (words.length > 0) {
        const text = storyText(world, index, p);
        if (!words.every((w) => text.includes(w))) continue;
      }
      const story = storyAt(world, index, p, now());
      if (!passes(story, filters)) continue;
      if (tags.some((t) => t.startsWith("author_") && t !== `author_${story.author}`)) continue;
      matched.push(story);
    }
    if (req.path === "/api/v1/search") matched.sort((a, b) => b.points - a.points);
    const reachable = Math.min(matched.length, PAGINATION_LIMIT);
    const nbPages = hitsPerPage === 0 ? 0 : Math.ceil(reachable / hitsPerPage);
    const hits = matched
      .slice(page * hitsPerPage, Math.min(reachable, (page + 1) * hitsPerPage))
      .map((s) => hit(s, words));
    return jsonReply(200, {
      exhaustive: { nbHits: true, typo: true },
      exhaustiveNbHits: true,
      exhaustiveTypo: true,
      hits,
      hitsPerPage,
      nbHits: matched.length,
      nbPages,
      page,
      params: req.params.toString(),
      processingTimeMS: 1,
      query,
      serverTimeMS: 1,
    });
  };
}
