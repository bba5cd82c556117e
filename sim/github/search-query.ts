// Parses GitHub search syntax into filters: qualifiers (topic:, created:, stars:, forks:, fork:, archived:,
// is:, language:, license:, user:, org:, repo:, sort:, in:) and free words or "quoted phrases". pushed:,
// size:, mirror: and template: are accepted and ignored; unknown qualifiers count as words, as on GitHub.
import { parseInstant } from "../dates.ts";
import type { TextField } from "./search-text.ts";

export interface Range {
  min: number;
  max: number; // exclusive for instants, inclusive for counts
}

export interface SearchFilters {
  /** Free words and phrases (quotes removed), lower-cased. */
  words: string[];
  /** The fields the words are searched in (`in:name,description`); name, description and topics when absent. */
  in?: TextField[];
  topics: string[];
  created?: Range;
  stars?: Range;
  forks?: Range;
  /** GitHub leaves forks out unless fork:true (both) or fork:only. */
  fork: "exclude" | "include" | "only";
  archived?: boolean;
  language?: string;
  license?: string;
  owner?: string;
  repo?: string;
  state?: "open" | "closed" | "merged";
  kind?: "issue" | "pr";
  sort: { field: "best" | "stars" | "forks" | "created"; descending: boolean };
}

const TEXT_FIELDS: readonly TextField[] = ["name", "description", "topics", "readme"];
const QUALIFIER = /^(-?)([a-z_]+):(.+)$/i;

function tokenize(query: string): string[] {
  const tokens: string[] = [];
  for (const match of query.matchAll(/(?:[^\s"]+:)?"[^"]*"|\S+/g)) tokens.push(match[0].replace(/"/g, ""));
  return tokens;
}

/** A count range: N, >N, >=N, <N, <=N, N..M, N..*, *..M. */
export function parseCountRange(text: string): Range | undefined {
  const num = (s: string) => (s === "*" ? undefined : /^\d+$/.test(s) ? Number(s) : Number.NaN);
  const between = /^([^.]+)\.\.([^.]+)$/.exec(text);
  if (between) {
    const low = num(between[1] as string);
    const high = num(between[2] as string);
    if (Number.isNaN(low) || Number.isNaN(high)) return undefined;
    return { min: low ?? 0, max: high ?? Number.POSITIVE_INFINITY };
  }
  const op = /^(>=|<=|>|<)?(\d+)$/.exec(text);
  if (!op) return undefined;
  const n = Number(op[2]);
  if (op[1] === ">=") return { min: n, max: Number.POSITIVE_INFINITY };
  if (op[1] === ">") return { min: n + 1, max: Number.POSITIVE_INFINITY };
  if (op[1] === "<=") return { min: 0, max: n };
  if (op[1] === "<") return { min: 0, max: n - 1 };
  return { min: n, max: n };
}

/** A time range as instants [min, max): a bare date covers its whole day. */
export function parseTimeRange(text: string): Range | undefined {
  const start = (s: string) => parseInstant(s);
  const end = (s: string) => {
    const at = parseInstant(s);
    return at === undefined ? undefined : /^\d{4}-\d{2}-\d{2}$/.test(s) ? at + 1 : at;
  };
  const between = /^(.+?)\.\.(.+)$/.exec(text);
  if (between) {
    const [low, high] = [between[1] as string, between[2] as string];
    const min = low === "*" ? Number.NEGATIVE_INFINITY : start(low);
    const max = high === "*" ? Number.POSITIVE_INFINITY : end(high);
    return min === undefined || max === undefined ? undefined : { min, max };
  }
  const op = /^(>=|<=|>|<)?(.+)$/.exec(text) as RegExpExecArray;
  const value = op[2] as string;
  const [from, to] = [start(value), end(value)];
  if (from === undefined || to === undefined) return undefined;
  if (op[1] === ">=") return { min: from, max: Number.POSITIVE_INFINITY };
  if (op[1] === ">") return { min: to, max: Number.POSITIVE_INFINITY };
  if (op[1] === "<=") return { min: Number.NEGATIVE_INFINITY, max: to };
  if (op[1] === "<") return { min: Number.NEGATIVE_INFINITY, max: from };
  return { min: from, max: to };
}

const SORTS: Record<string, SearchFilters["sort"]> = {
  stars: { field: "stars", descending: true },
  "stars-desc": { field: "stars", descending: true },
  "stars-asc": { field: "stars", descending: false },
  forks: { field: "forks", descending: true },
  "forks-desc": { field: "forks", descending: true },
  "forks-asc": { field: "forks", descending: false },
  created: { field: "created", descending: true },
  "created-desc": { field: "created", descending: true },
  "created-asc": { field: "created", descending: false },
};

/** Repeated range qualifiers narrow each other (created:>=A created:<=B is the range A..B). */
export function parseSearchQuery(query: string): SearchFilters {
  const filters: SearchFilters = {
    words: [],
    topics: [],
    fork: "exclude",
    sort: { field: "best", descending: true },
  };
  for (const token of tokenize(query)) {
    const match = QUALIFIER.exec(token);
    if (
      !match ||
      match[1] === "-" ||
      !applyQualifier(filters, (match[2] as string).toLowerCase(), match[3] as string)
    ) {
      if (token.trim()) filters.words.push(token.toLowerCase());
    }
  }
  return filters;
}

/** Applies one qualifier; false when the key or value is not understood (GitHub then treats it as text). */
function applyQualifier(f: SearchFilters, key: string, raw: string): boolean {
  const value = raw.toLowerCase();
  switch (key) {
    case "topic":
      f.topics.push(value);
      return true;
    case "created":
    case "stars":
    case "forks": {
      const range = key === "created" ? parseTimeRange(raw) : parseCountRange(value);
      if (!range) return false;
      const previous = f[key];
      f[key] = previous
        ? { min: Math.max(previous.min, range.min), max: Math.min(previous.max, range.max) }
        : range;
      return true;
    }
    case "fork":
      if (value === "true") f.fork = "include";
      else if (value === "only") f.fork = "only";
      else if (value === "false") f.fork = "exclude";
      else return false;
      return true;
    case "archived":
      if (value !== "true" && value !== "false") return false;
      f.archived = value === "true";
      return true;
    case "is":
      if (value === "archived") f.archived = true;
      else if (value === "open" || value === "closed" || value === "merged") f.state = value;
      else if (value === "pr" || value === "issue") f.kind = value;
      return true;
    case "state":
      if (value === "open" || value === "closed") f.state = value;
      return true;
    case "type":
      if (value === "pr" || value === "issue") f.kind = value;
      return true;
    case "language":
      f.language = value;
      return true;
    case "license":
      f.license = value;
      return true;
    case "user":
    case "org":
      f.owner = value;
      return true;
    case "repo":
      f.repo = value;
      return true;
    case "sort":
      f.sort = SORTS[value] ?? f.sort;
      return true;
    case "in": {
      const fields = value.split(",").filter((v): v is TextField => TEXT_FIELDS.includes(v as TextField));
      if (fields.length === 0) return false;
      f.in = [...new Set([...(f.in ?? []), ...fields])];
      return true;
    }
    case "pushed":
    case "size":
    case "mirror":
    case "template":
      return true;
    default:
      return false;
  }
}
