// GET /api/v1/quality: validate the query with schemas, slice the domain's published records, and send the
// envelope as bytes — records are never parsed or re-serialised here.
import type { FastifyInstance } from "fastify";
import type { Clock } from "../pipeline/core/clock.ts";
import { formatTimestamp } from "../publish/envelope.ts";
import { renderQualityPage } from "../publish/quality-page.ts";
import { cacheControl, QUALITY_ROUTE } from "../publish/routes.ts";
import { parseParams, qualityParams, type RawParams } from "../schemas/index.ts";
import { ApiError } from "./errors.ts";
import type { ReleaseReader } from "./release-reader.ts";

export const JSON_TYPE = "application/json; charset=utf-8";

export function registerQualityRoute(app: FastifyInstance, release: ReleaseReader, clock: Clock): void {
  const cache = cacheControl(QUALITY_ROUTE.cache);
  app.get(QUALITY_ROUTE.path, async (request, reply) => {
    const parsed = parseParams(qualityParams, request.query as RawParams);
    if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
    const data = await release.quality(parsed.value.domain);
    const page = renderQualityPage(data, parsed.value, formatTimestamp(clock.now()));
    reply.header("content-type", JSON_TYPE);
    reply.header("cache-control", cache);
    return page.body;
  });
}
