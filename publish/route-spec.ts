// What a route spec is: one endpoint described once — path, parameter and record schemas, where its data comes
// from (a collection rendered from a .sql file, a static file, or a dynamic handler), how the shim picks records
// for a query, page sizes, cache policy and a summary. Publish renders from it; the shim serves every GET through
// one generic handler driven by it; the OpenAPI document, docs page, manifest, feed and contract tests read it.
// Pure data and pure functions only: the shim imports this, so nothing here may reach into the pipeline.
import { createHash } from "node:crypto";
import type { z } from "zod";
import type { PageLink } from "./error-page.ts";

/** How long responses may be cached. The shim's own responses are per caller (quota headers) unless public. */
export interface CachePolicy {
  /** `public` responses need no key and may be kept by shared caches (the CDN); `private` ones count a quota. */
  scope: "public" | "private";
  maxAgeSeconds: number;
}

/** A night's data: five minutes in the caller's cache (the release flips once a night). */
export const NIGHTLY_PRIVATE: CachePolicy = { scope: "private", maxAgeSeconds: 300 };
/** The bulk dataset endpoint and static documents: public, an hour (SPEC.md, /datasets/quality). */
export const HOURLY_PUBLIC: CachePolicy = { scope: "public", maxAgeSeconds: 3600 };
/** Answers made per request (keys, query results, feedback receipts): never kept by a cache. */
export const NOT_CACHED: CachePolicy = { scope: "private", maxAgeSeconds: 0 };

export function cacheControl(policy: CachePolicy): string {
  return `${policy.scope}, max-age=${policy.maxAgeSeconds}`;
}

/**
 * A set of records rendered from one .sql file (publish/sql/<sql>.sql) into one records file and one index per
 * partition. The SQL returns, in canonical order within each partition and partitions in any order:
 * - `record`: the record as JSON text (VARCHAR), matching `record`'s schema;
 * - `_partition` (VARCHAR) when `partitions` is set;
 * - `_f_<filter>` (VARCHAR, NULL for none) for each filter;
 * - `_rank` (INTEGER) when `rank` is set: monotone along the partition in `rank.order`;
 * - `_keys` (VARCHAR[]) when `keys` is set: lookup keys, lower case; the first record of a key wins;
 * - `_search` (VARCHAR) when `search` is set: the text name searches match, lower case, without newlines.
 */
export interface CollectionSpec {
  name: string;
  sql: string;
  record: z.ZodType;
  /** Every partition value; each gets its files even when it holds no record. Absent: one partition, "_all". */
  partitions?: readonly string[];
  filters?: readonly string[];
  rank?: { order: "desc" | "asc" };
  keys?: boolean;
  search?: boolean;
  /**
   * Render in this many passes over groups of partitions (in sorted order) at PASSES_AT_REPOSITORIES repositories, in
   * proportion to the night's repositories otherwise (one statement for a night within one pass's share), the SQL
   * reading the pass's partitions from getvariable('partitions') (NULL: all): for a collection whose one statement
   * would not fit in memory at scale.
   */
  passes?: number;
  /** Sample records for the docs' response examples come from the first partition holding any. */
}

export const ALL_PARTITION = "_all";

/** The night a collection's `passes` are counted for: the target scale, where the warehouse's memory was measured. */
export const PASSES_AT_REPOSITORIES = 220_000;

/** A page range on a collection's rank: inclusive bounds, either may be absent. */
export interface RankRange {
  min?: number | undefined;
  max?: number | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: parameters are validated by `query`/`path` before these run.
type Params = any;

/** One record of a collection by its lookup key, parsed, or undefined when the collection has none. */
export type FindRecord = (
  collection: CollectionSpec,
  key: LookupKey,
) => Promise<Record<string, unknown> | undefined>;

interface RouteBase {
  /** Unique, kebab-case; also the route's file name under publish/routes/. */
  name: string;
  method: "GET" | "POST";
  /** OpenAPI path template, e.g. "/api/v1/projects/{slug}". */
  path: string;
  /** One line for the docs and the OpenAPI operation summary. */
  summary: string;
  /** What the endpoint returns and how to use it, for the OpenAPI description and the docs page. */
  description: string;
  /** OpenAPI tag: the group the docs page lists it under. */
  tag: string;
  /** Query parameters (strict: unknown ones are refused, unless `unknownParams` is "ignore"). */
  query: z.ZodObject;
  /**
   * What a query parameter the route does not name gets: "refuse" (422 naming it, the default: on the JSON API a
   * mistyped name should be told) or "ignore", for the badges and pages for people, whose URLs the web decorates (a
   * README's cache-buster ?v=2, a shared link's ?utm_source=…): a 422 there is a broken image or an error page.
   */
  unknownParams?: "refuse" | "ignore";
  /** Path parameters, in path order. */
  pathParams?: z.ZodObject;
  cache: CachePolicy;
  /** Examples of query parameters for the docs; path examples are read from the release itself. */
  examples?: Readonly<Record<string, string>>;
  /** Also an MCP tool (api-shim/mcp/tools.ts lists them in this table's order). */
  mcp?: McpToolSpec;
  /**
   * A page for people: a browser (Accept naming text/html more highly than JSON) gets its errors as an HTML page with these
   * links onward, from the raw path parameters (publish/error-page.ts); other clients get the error envelope.
   */
  errorPage?: (params: Readonly<Record<string, string>>) => readonly PageLink[];
}

/** A route served as an MCP tool: its name, and what an agent reads about it (by default the route's description). */
export interface McpToolSpec {
  /** snake_case, a verb first: search_projects, get_project, run_query. */
  name: string;
  description?: string;
}

/** An endpoint answered from a rendered collection. */
export interface CollectionRoute extends RouteBase {
  method: "GET";
  /**
   * list: records matching the query, paged; item: one record found by key (404 otherwise); bulk: the records
   * of several keys, in the order asked, the ones not found named in meta.missing.
   */
  kind: "list" | "item" | "bulk";
  collection: CollectionSpec;
  /** The partition answering the query (required when the collection has partitions). */
  partition?: (params: Params) => string;
  /**
   * The query parameter whose value is the partition (quality's domain), so publish can render the canonical
   * pages of every partition: the default query with just that parameter set.
   */
  partitionParam?: string;
  /** Query parameter → collection filter it selects on (equality). */
  filters?: Readonly<Record<string, string>>;
  /** Bounds on the collection's rank the query asks for (score ranges, look-back windows). */
  range?: (params: Params) => RankRange;
  /** Query parameter holding name search text (exact, then prefix, then substring). */
  search?: string;
  /** item: the keys to try, in order; bulk: one entry per requested item, each with its keys. */
  lookup?: (params: Params) => readonly LookupKey[];
  /** Page size and offset parameters of a list (a list without an offset parameter starts at 0). */
  paging?: { limit: string; offset?: string };
  /** meta.query: the effective parameters, defaults filled in (by default the parsed parameters). */
  echo?: (params: Params) => Record<string, unknown>;
  /**
   * item: the 404 message when nothing matches, naming what was asked and where to look instead; it may look the
   * item up in another collection (`find`) to say where it is.
   */
  notFound?: (asked: string, params: Params, find: FindRecord) => string | Promise<string>;
  /**
   * item and bulk: the path and query parameters of a request that finds the collection's first record, from its
   * first lookup key and partition — the documented examples then name items of the release they were published with.
   */
  exampleParams?: (key: string, partition: string, keys: readonly string[]) => Record<string, string>;
}

/** One item to look up: what the caller asked (for meta.missing), the partition, and keys to try. */
export interface LookupKey {
  asked: string;
  partition: string;
  keys: readonly string[];
}

/** A file of the release served as it is (OpenAPI document, feed, docs, datasets). */
export interface FileRoute extends RouteBase {
  method: "GET";
  kind: "file";
  /** The file's path inside the release; for a path parameter, a function of the parsed parameters. */
  file: string | ((params: Params) => string);
  contentType: string;
  /** The file is JSON served as `data` in the item envelope (a document made by publish, e.g. the dataset index). */
  envelope?: boolean;
  /** The last path parameter takes the rest of the path, slashes included (dataset files in folders). */
  wildcard?: boolean;
  /** Schema of the file's JSON (of `data` when enveloped), for the OpenAPI document. */
  schema?: z.ZodType;
}

/** An endpoint the shim answers itself (keys, query, feedback): documented here, handled in api-shim/. */
export interface DynamicRoute extends RouteBase {
  kind: "dynamic";
  /** JSON request body. */
  body?: z.ZodObject;
  bodyOptional?: boolean;
  /** Schema of `data` in a 200 response. */
  response: z.ZodType;
  /** Schema of `meta` in a 200 response when it is not the item envelope's (the query's count and truncated). */
  meta?: z.ZodObject;
  /** A request body to document and try, e.g. a query that runs on every release. */
  bodyExample?: Readonly<Record<string, unknown>>;
  /** Status of a success when not 200, e.g. 202 for feedback stored to be read later. */
  successStatus?: 201 | 202;
  /** Error statuses of this route's own beside those of every dynamic route: the query's 504 at its deadline. */
  errorStatuses?: readonly 504[];
}

/**
 * A document drawn per request from one record of a collection — a badge, a page for people — served as it is (no
 * envelope). Drawn by the shim rather than rendered at publish: one file per project and kind would add a million
 * objects to every release (docs/badges-and-pages.md has the figures).
 */
interface ViewBase extends RouteBase {
  method: "GET";
  kind: "view";
  contentType: string;
  collection: CollectionSpec;
  /** The 404 message when `render` draws nothing for a record not found, or when a view of several finds none. */
  notFound?: (asked: string) => string;
  /**
   * Served without counting a request against the caller's quota (its X-RateLimit-* show the standing, uncounted):
   * badges, which image proxies fetch for every reader of a README from a few shared addresses, and the pages for
   * people, so browsing is never walled off by the API's quota (the domain pages, release files, are paid once a day).
   */
  uncounted?: boolean;
  /** The parameters of a request drawing the collection's first record(s) (see CollectionRoute). */
  exampleParams?: (key: string, partition: string, keys: readonly string[]) => Record<string, string>;
  /** Schema of a JSON document, for the OpenAPI document (the shields.io endpoint badge). */
  schema?: z.ZodType;
}

/** A view drawn from one record (a badge, a project's page). */
export interface RecordView extends ViewBase {
  /** The record to draw from. */
  lookup: (params: Params) => LookupKey;
  /** The document for the record found (undefined: none found); undefined answers 404 with `notFound`. */
  render: (record: Record<string, unknown> | undefined, params: Params) => string | undefined;
}

/** One item a view of several records asked for, and its record when the collection has one. */
export interface FoundRecord {
  asked: string;
  record: Record<string, unknown> | undefined;
}

/** A view drawn from several records, in the order asked (the comparison page); it draws even when some are missing. */
export interface RecordsView extends ViewBase {
  lookupAll: (params: Params) => readonly LookupKey[];
  renderAll: (found: readonly FoundRecord[], params: Params) => string;
}

/** A document the shim draws from the release's records (SVG, HTML, JSON in another schema than the envelope). */
export type ViewRoute = RecordView | RecordsView;

export type RouteSpec = CollectionRoute | FileRoute | DynamicRoute | ViewRoute;

/** The shard of a key in a sharded collection: the first two hex digits of its md5 (DuckDB: left(md5(k), 2)). */
export function shardOf(key: string): string {
  return createHash("md5").update(key).digest("hex").slice(0, 2);
}

/** Every shard name, "00" to "ff". */
export const SHARDS: readonly string[] = Array.from({ length: 256 }, (_, i) =>
  i.toString(16).padStart(2, "0"),
);

/** A project's slug from owner/repo (defined beside the reference pattern, whose list parameters need it too). */
export { slugOf } from "../schemas/fields.ts";

/** Collections a route table uses, each once, in first-use order. */
export function collectionsOf(routes: readonly RouteSpec[]): CollectionSpec[] {
  const seen = new Map<string, CollectionSpec>();
  for (const route of routes) {
    if (route.kind === "file" || route.kind === "dynamic") continue;
    const known = seen.get(route.collection.name);
    if (known && known !== route.collection) {
      throw new Error(`Two different collections are named ${route.collection.name}.`);
    }
    seen.set(route.collection.name, route.collection);
  }
  return [...seen.values()];
}
