// The response to one query of a collection route, from the release's partition files: list pages, single items
// looked up by key, and bulk lookups. The shim answers every collection GET with this and publish renders the
// canonical pages with it, so both produce the same bytes.
import type { CollectionIndex } from "./collection-index.ts";
import { type Body, nextOffset, prepareItemBody, prepareListBody } from "./envelope.ts";
import { ALL_PARTITION, type CollectionRoute, type FindRecord } from "./route-spec.ts";
import { recordBytes, recordParts, selectRecords } from "./select.ts";

/** A partition of a collection as published: the records file's bytes and its decoded index. */
export interface PartitionData {
  records: Buffer;
  index: CollectionIndex;
}

export type LoadPartition = (collection: string, partition: string) => Promise<PartitionData>;

/** FindRecord over the partitions `load` reads. */
export function recordFinder(load: LoadPartition): FindRecord {
  return async (collection, key) => {
    const data = await load(collection.name, key.partition);
    const ordinal = firstKey(data.index, key.keys);
    if (ordinal === undefined) return undefined;
    return JSON.parse(recordBytes(data.records, data.index, ordinal).toString("utf8")) as Record<
      string,
      unknown
    >;
  };
}

/** What a query answers: a body, or nothing found for an item (the caller says 404). */
export type Answer = { found: true; body: Body } | { found: false; asked: string };

// biome-ignore lint/suspicious/noExplicitAny: validated by the route's schemas before it gets here.
type Params = Record<string, any>;

/** meta.query of a route's response: its echo of the parameters, or the parameters as parsed. */
export function effectiveQuery(route: CollectionRoute, params: Params): Record<string, unknown> {
  return route.echo ? route.echo(params) : params;
}

export function partitionOf(route: CollectionRoute, params: Params): string {
  return route.partition ? route.partition(params) : ALL_PARTITION;
}

export async function answer(
  route: CollectionRoute,
  params: Params,
  load: LoadPartition,
  queryJson: string = JSON.stringify(effectiveQuery(route, params)),
): Promise<Answer> {
  const name = route.collection.name;
  if (route.kind === "list") {
    const page = listPage(route, params, await load(name, partitionOf(route, params)), queryJson);
    return { found: true, body: page.body };
  }
  const wanted = route.lookup?.(params) ?? [];
  if (route.kind === "item") {
    const [item] = wanted;
    if (!item) return { found: false, asked: "" };
    const data = await load(name, item.partition);
    const ordinal = firstKey(data.index, item.keys);
    if (ordinal === undefined) return { found: false, asked: item.asked };
    return { found: true, body: prepareItemBody(recordBytes(data.records, data.index, ordinal), queryJson) };
  }
  const parts: Buffer[] = [];
  const missing: string[] = [];
  for (const item of wanted) {
    const data = await load(name, item.partition);
    const ordinal = firstKey(data.index, item.keys);
    if (ordinal === undefined) missing.push(item.asked);
    else parts.push(...(parts.length > 0 ? [COMMA] : []), recordBytes(data.records, data.index, ordinal));
  }
  const count = wanted.length - missing.length;
  const counts = { count, total: count, next_offset: null };
  return {
    found: true,
    body: prepareListBody(parts, counts, queryJson, `"missing":${JSON.stringify(missing)}`),
  };
}

const COMMA = Buffer.from(",", "utf8");

/** A page of a list route over one partition, and where the next page starts (null on the last). */
export function listPage(
  route: CollectionRoute,
  params: Params,
  data: PartitionData,
  queryJson: string,
): { body: Body; nextOffset: number | null } {
  const filters: [string, string][] = [];
  for (const [param, filter] of Object.entries(route.filters ?? {})) {
    const value = params[param];
    if (value !== undefined && value !== null) filters.push([filter, String(value)]);
  }
  const limit = Number(params[route.paging?.limit ?? "limit"] ?? data.index.count);
  const offset = route.paging?.offset ? Number(params[route.paging.offset] ?? 0) : 0;
  const selected = selectRecords(data.index, {
    filters,
    range: route.range?.(params),
    search: route.search ? (params[route.search] as string | undefined) : undefined,
    limit,
    offset,
  });
  const count = selected.ordinals.length;
  const parts = recordParts(data.records, data.index, selected.ordinals);
  const next = nextOffset(offset, count, selected.total);
  return {
    body: prepareListBody(parts, { count, total: selected.total, next_offset: next }, queryJson),
    nextOffset: next,
  };
}

function firstKey(index: CollectionIndex, keys: readonly string[]): number | undefined {
  for (const key of keys) {
    const ordinal = index.keys?.get(key);
    if (ordinal !== undefined) return ordinal;
  }
  return undefined;
}
