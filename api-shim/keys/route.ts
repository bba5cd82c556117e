// POST /api/v1/keys: creates an API key (free plan, or the e-mail plan when an address is given), capped per client
// address a day. Its own JSON parser (in an encapsulated scope) reads an empty body as {} and caps the body's size.
// Not counted against the caller's quota: a key is the way out of a used-up one, so its own daily cap bounds it.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Clock } from "../../core/clock.ts";
import type { Config } from "../../core/config.ts";
import type { Logger } from "../../core/log.ts";
import { type ApiKeyRecord, createKeyBody, parseBody } from "../../schemas/index.ts";
import { rateLimitHeaders, type UncountedConfig } from "../caller.ts";
import { ApiError } from "../errors.ts";
import { addressKey } from "../http/client-address.ts";
import { acceptJsonBodies } from "../http/json-body.ts";
import { JSON_TYPE } from "../http/send.ts";
import { type QuotaHit, type QuotaStore, QuotaUnavailableError } from "../quota/quota.ts";
import type { KeyStore } from "./store.ts";

/** Largest request body accepted: an e-mail address and a company name fit many times over. */
export const MAX_KEY_BODY_BYTES = 4096;
const KEYS_PATH = "/api/v1/keys";

export interface KeyRouteOptions {
  keys: KeyStore;
  quotas: QuotaStore;
  config: Pick<Config, "quota">;
  clock: Clock;
  logger: Logger;
  timestamp: () => string;
}

export function registerKeyRoutes(app: FastifyInstance, options: KeyRouteOptions): void {
  const { keys, quotas, config, clock, logger, timestamp } = options;
  app.register(async (scope) => {
    acceptJsonBodies(scope, MAX_KEY_BODY_BYTES);
    const uncounted: UncountedConfig = { uncounted: true };
    scope.post(KEYS_PATH, { bodyLimit: MAX_KEY_BODY_BYTES, config: uncounted }, async (request, reply) => {
      const parsed = parseBody(createKeyBody, request.body);
      if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
      const now = clock.now();
      const cap = await capCreations(request, now).catch(storeUnavailable);
      if (cap.count > cap.limit) {
        const resetAt = `${cap.resetAt.toISOString().slice(0, 19)}+00:00`;
        const seconds = Math.max(1, Math.ceil((cap.resetAt.getTime() - now.getTime()) / 1000));
        throw new ApiError(
          "rate_limit_exceeded",
          `Key creation is capped at ${cap.limit} new keys per client address a day; it resets at ${resetAt}. Use a key you created already.`,
          { "retry-after": String(seconds) },
        );
      }
      const plan = parsed.value.email ? "email" : "free";
      const { key, record } = await keys.create(plan, parsed.value.email).catch(storeUnavailable);
      logger.info("api key created", { request_id: request.id, prefix: record.prefix, plan });
      const data: ApiKeyRecord = {
        key,
        prefix: record.prefix,
        tier: "free",
        daily_limit: plan === "email" ? config.quota.email : config.quota.free,
      };
      reply.code(200);
      if (request.quota) reply.headers(rateLimitHeaders(request.quota));
      reply.header("cache-control", "no-store");
      reply.header("content-type", JSON_TYPE);
      return JSON.stringify({ data, meta: { timestamp: timestamp(), count: 1, query: {} } });
    });
  });

  /** Counts one key creation against the client address's daily cap (in the same store as the quotas). */
  async function capCreations(request: FastifyRequest, now: Date): Promise<QuotaHit> {
    return quotas.hit(`keys-created:${addressKey(request.ip)}`, config.quota.keyCreations, now);
  }
}

/** The quota or key store cannot answer (Redis down): 503, the caller retries. */
function storeUnavailable(error: unknown): never {
  if (!(error instanceof QuotaUnavailableError)) throw error;
  throw new ApiError("unavailable", "Key creation is unavailable for a moment; retry in a few seconds.", {
    "retry-after": "5",
  });
}
