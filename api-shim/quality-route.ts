// GET /api/v1/quality: validate the query with schemas, slice the domain's published records, and write
// the envelope as chunks that are mostly views into the records file — records are never parsed,
// re-serialised or even copied here.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Clock } from "../pipeline/core/clock.ts";
import { formatTimestamp } from "../publish/envelope.ts";
import { type QualityDomainData, type QualityParams, renderQualityPage } from "../publish/quality-page.ts";
import { cacheControl, QUALITY_ROUTE } from "../publish/routes.ts";
import { type ParamErrorCode, parseParams, qualityParams, type RawParams } from "../schemas/index.ts";
import { ApiError } from "./errors.ts";
import type { ReleaseReader } from "./release-reader.ts";
import { sendChunks } from "./send.ts";

interface Valid {
  ok: true;
  params: QualityParams;
  /** JSON of the effective parameters, for meta.query. */
  queryJson: string;
}
type Parsed = Valid | { ok: false; code: ParamErrorCode; message: string };

/** Distinct query strings remembered; the cache is dropped whole when full (it refills from hot queries). */
const PARSE_CACHE_SIZE = 4096;
const MAX_CACHED_QUERY = 512;

export function registerQualityRoute(app: FastifyInstance, release: ReleaseReader, clock: Clock): void {
  const cache = cacheControl(QUALITY_ROUTE.cache);
  // Validation depends only on the query string, and most traffic repeats a few queries.
  const parsedByQuery = new Map<string, Parsed>();
  let stampMs = Number.NaN;
  let stamp = "";

  function parse(request: { url: string; query: unknown }): Parsed {
    const at = request.url.indexOf("?");
    const key = at === -1 ? "" : request.url.slice(at + 1);
    const known = parsedByQuery.get(key);
    if (known) return known;
    const result = parseParams(qualityParams, request.query as RawParams);
    const parsed: Parsed = result.ok
      ? { ok: true, params: result.value, queryJson: JSON.stringify(result.value) }
      : { ok: false, code: result.code, message: result.message };
    if (key.length <= MAX_CACHED_QUERY) {
      if (parsedByQuery.size >= PARSE_CACHE_SIZE) parsedByQuery.clear();
      parsedByQuery.set(key, parsed);
    }
    return parsed;
  }

  function respond(request: FastifyRequest, reply: FastifyReply, data: QualityDomainData, parsed: Valid) {
    const now = clock.now().getTime();
    if (now !== stampMs) {
      stampMs = now;
      stamp = formatTimestamp(new Date(now));
    }
    const page = renderQualityPage(data, parsed.params, stamp, parsed.queryJson);
    sendChunks(request, reply, page.chunks, page.byteLength, cache);
  }

  // Not an async function: when the domain is in memory (nearly always) the response is written at once.
  app.get(QUALITY_ROUTE.path, (request, reply) => {
    const parsed = parse(request);
    if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
    const valid = parsed;
    const data = release.peekQuality(valid.params.domain);
    if (data) return respond(request, reply, data, valid);
    return release.quality(valid.params.domain).then((loaded) => respond(request, reply, loaded, valid));
  });
}
