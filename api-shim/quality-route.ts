// GET /api/v1/quality: validate the query with schemas, slice the domain's published records, and write
// the envelope — records are never parsed, re-serialised or even copied here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Clock } from "../core/clock.ts";
import { compactListBody, formatTimestamp } from "../publish/envelope.ts";
import {
  prepareQualityPage,
  type QualityDomainData,
  type QualityPage,
  type QualityParams,
} from "../publish/quality-page.ts";
import { QUALITY_ROUTE, shimCacheControl } from "../publish/routes.ts";
import { type ParamErrorCode, parseParams, qualityParams, type RawParams } from "../schemas/index.ts";
import { ApiError } from "./errors.ts";
import type { ReleaseReader } from "./release-reader.ts";
import { sendList } from "./send.ts";

/** A query string already seen: its validated parameters and, per release data, its prepared page. */
interface Valid {
  ok: true;
  params: QualityParams;
  queryJson: string;
  preparedFor?: QualityDomainData;
  page?: QualityPage;
}
type Parsed = Valid | { ok: false; code: ParamErrorCode; message: string };

/**
 * Distinct query strings remembered. A response depends only on the query string and the release, and
 * most traffic repeats a few queries, so validation and slicing run once per query and release. The
 * cache is dropped whole when full; hot queries refill it at once.
 */
const CACHE_SIZE = 4096;
const MAX_CACHED_QUERY = 512;
/**
 * A filtered page is many small slices of the records file; writing 50 chunks per response costs a third
 * of the throughput, so a prepared page is copied into one buffer once. These copies are what the cache
 * may hold at most, in bytes.
 */
const COPIED_BYTES = 64 * 1024 * 1024;

export function registerQualityRoute(app: FastifyInstance, release: ReleaseReader, clock: Clock): void {
  const cacheHeader = shimCacheControl(QUALITY_ROUTE.cache);
  const byQuery = new Map<string, Parsed>();
  let cachedFor = release.current();
  let copied = 0;
  let stampMs = Number.NaN;
  let stamp = "";

  function parse(request: FastifyRequest): Parsed {
    // A new release: drop the prepared pages, which hold views into the old release's records.
    if (release.current() !== cachedFor) {
      cachedFor = release.current();
      byQuery.clear();
      copied = 0;
    }
    const at = request.url.indexOf("?");
    const key = at === -1 ? "" : request.url.slice(at + 1);
    const known = byQuery.get(key);
    if (known) return known;
    const result = parseParams(qualityParams, request.query as RawParams);
    const parsed: Parsed = result.ok
      ? { ok: true, params: result.value, queryJson: JSON.stringify(result.value) }
      : { ok: false, code: result.code, message: result.message };
    if (key.length <= MAX_CACHED_QUERY) {
      if (byQuery.size >= CACHE_SIZE) {
        byQuery.clear();
        copied = 0;
      }
      byQuery.set(key, parsed);
    }
    return parsed;
  }

  function respond(
    request: FastifyRequest,
    reply: FastifyReply,
    data: QualityDomainData,
    query: Valid,
  ): void {
    if (query.preparedFor !== data || !query.page) {
      const page = prepareQualityPage(data, query.params, query.queryJson);
      const body = compactListBody(page.body);
      if (body !== page.body) copied += body.chunkBytes;
      if (copied > COPIED_BYTES) {
        byQuery.clear();
        copied = 0;
      }
      query.page = { ...page, body };
      query.preparedFor = data;
    }
    const now = clock.now().getTime();
    if (now !== stampMs) {
      stampMs = now;
      stamp = formatTimestamp(new Date(now));
    }
    sendList(request, reply, query.page.body, stamp, cacheHeader);
  }

  // Not an async function: when the domain is in memory (nearly always) the response is written at once.
  app.get(QUALITY_ROUTE.path, (request, reply) => {
    const parsed = parse(request);
    if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
    const query = parsed;
    const data = release.peekQuality(query.params.domain);
    if (data) return respond(request, reply, data, query);
    return release.quality(query.params.domain).then((loaded) => respond(request, reply, loaded, query));
  });
}
