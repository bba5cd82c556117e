// Canonical pages: the pages of each list route's default query, per partition, as complete response files at a
// path made of their parameters (api/v1/quality/domain=rag/offset=50.json), so a CDN in front of the release can
// answer the common requests without the shim. They carry the run date as meta.timestamp, which keeps them
// byte-identical from one publish of the same data to the next.
import { parseParams } from "../schemas/index.ts";
import { effectiveQuery, listPage, type PartitionData } from "./answer.ts";
import { bodyBytes } from "./envelope.ts";
import type { RenderedFile } from "./render-collection.ts";
import type { CollectionRoute } from "./route-spec.ts";

const SAFE_VALUE = /^[A-Za-z0-9_][A-Za-z0-9._-]*$/;

/**
 * Canonical pages cover the first this many records of each default list: the pages people page through. Deeper
 * pages are rare, the shim slices them as fast, and rendering them all (every page of every list at 220,000
 * repositories: 47,000 files, 1.2 GB) took a fifth of a night's publish.
 */
export const CANONICAL_PAGE_RECORDS = 1000;

/** The release path of a canonical page: the route's path, then each given parameter as `name=value`. */
export function canonicalPagePath(route: CollectionRoute, given: Readonly<Record<string, string>>): string {
  const segments = Object.keys(given)
    .sort()
    .map((name) => `${name}=${given[name]}`);
  const base = route.path.slice(1);
  return segments.length === 0 ? `${base}.json` : `${base}/${segments.join("/")}.json`;
}

/** The pages of `route`'s default query that `partition` answers; none when another partition answers it. */
export function* canonicalPages(
  route: CollectionRoute,
  partition: string,
  data: PartitionData,
  timestamp: string,
): Generator<RenderedFile> {
  if (route.kind !== "list") return;
  const given: Record<string, string> = {};
  if (route.partitionParam) {
    if (!SAFE_VALUE.test(partition)) return;
    given[route.partitionParam] = partition;
  }
  const offsetParam = route.paging?.offset;
  for (let offset = 0; ; ) {
    const raw = offsetParam ? { ...given, [offsetParam]: String(offset) } : given;
    const parsed = parseParams(route.query, raw);
    if (!parsed.ok) return; // the default query needs more than the partition (a required parameter)
    if (route.partition && route.partition(parsed.value) !== partition) return;
    const params = parsed.value as Record<string, unknown>;
    const page = listPage(route, params, data, JSON.stringify(effectiveQuery(route, params)));
    yield { path: canonicalPagePath(route, raw), body: bodyBytes(page.body, timestamp) };
    if (!offsetParam || page.nextOffset === null || page.nextOffset >= CANONICAL_PAGE_RECORDS) return;
    offset = page.nextOffset;
  }
}
