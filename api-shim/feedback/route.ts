// POST /api/v1/feedback: validates the body, counts it against the caller's daily feedback allowance (in the quota
// store, so the count survives restarts and is shared by shim instances), appends it durably and answers 202 with
// its receipt, which says so when the project named is not one this release tracks (a typo, or a wish to track it).
// The message and contact are never logged; the log line names only the id and kind.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Clock } from "../../core/clock.ts";
import type { Logger } from "../../core/log.ts";
import { recordFinder } from "../../publish/answer.ts";
import { PROJECT_DETAIL_COLLECTION, projectLookup } from "../../publish/routes/project.ts";
import { FEEDBACK_PER_DAY, type FeedbackReceipt, feedbackBody, parseBody } from "../../schemas/index.ts";
import { rateLimitHeaders } from "../caller.ts";
import { ApiError } from "../errors.ts";
import { acceptJsonBodies, callerKey } from "../http/json-body.ts";
import { JSON_TYPE } from "../http/send.ts";
import { type QuotaHit, type QuotaStore, QuotaUnavailableError } from "../quota/quota.ts";
import type { ReleaseReader } from "../release-reader.ts";
import { type FeedbackStore, newFeedbackId } from "./store.ts";

const FEEDBACK_PATH = "/api/v1/feedback";
/** Largest request body: a message of the longest length in multi-byte characters, with the other fields. */
export const MAX_FEEDBACK_BODY_BYTES = 32 * 1024;

export interface FeedbackRouteOptions {
  store: FeedbackStore;
  quotas: QuotaStore;
  clock: Clock;
  logger: Logger;
  timestamp: () => string;
  /** The live release, to tell whether the project named is tracked; without it the receipt never says. */
  release?: ReleaseReader;
}

export function registerFeedbackRoute(app: FastifyInstance, options: FeedbackRouteOptions): void {
  const { store, quotas, clock, logger, timestamp, release } = options;
  const find = release && recordFinder((collection, partition) => release.partition(collection, partition));
  app.register(async (scope) => {
    acceptJsonBodies(scope, MAX_FEEDBACK_BODY_BYTES);
    scope.post(FEEDBACK_PATH, { bodyLimit: MAX_FEEDBACK_BODY_BYTES }, async (request, reply) => {
      const parsed = parseBody(feedbackBody, request.body);
      if (!parsed.ok) throw new ApiError(parsed.code, parsed.message);
      const now = clock.now();
      const caller = callerKey(request);
      const allowance = await countFeedback(request, caller, now);
      if (allowance.count > allowance.limit) {
        const resetAt = `${allowance.resetAt.toISOString().slice(0, 19)}+00:00`;
        const seconds = Math.max(1, Math.ceil((allowance.resetAt.getTime() - now.getTime()) / 1000));
        throw new ApiError(
          "rate_limit_exceeded",
          `Feedback is limited to ${allowance.limit} messages per caller a day; it resets at ${resetAt}. Thank you for the ones sent.`,
          { "retry-after": String(seconds) },
        );
      }
      const receipt: FeedbackReceipt = {
        id: newFeedbackId(now),
        received_at: `${now.toISOString().slice(0, 19)}+00:00`,
      };
      await store.append({ ...receipt, ...parsed.value, caller: store.callerId(caller) });
      const project = parsed.value.project;
      if (project !== undefined && find && release?.current()) {
        const tracked = await find(PROJECT_DETAIL_COLLECTION, projectLookup(project));
        if (!tracked)
          receipt.note = `${project} is not a project this service tracks; the feedback is stored all the same (check the name with /api/v1/projects?q=<name>; a wish to track it is read as one).`;
      }
      logger.info("feedback received", { request_id: request.id, id: receipt.id, kind: parsed.value.kind });
      reply.code(202);
      if (request.quota) reply.headers(rateLimitHeaders(request.quota));
      reply.header("cache-control", "no-store");
      reply.header("content-type", JSON_TYPE);
      return JSON.stringify({ data: receipt, meta: { timestamp: timestamp(), count: 1, query: {} } });
    });
  });

  async function countFeedback(request: FastifyRequest, caller: string, now: Date): Promise<QuotaHit> {
    try {
      return await quotas.hit(`feedback:${caller}`, FEEDBACK_PER_DAY, now);
    } catch (error) {
      if (!(error instanceof QuotaUnavailableError)) throw error;
      logger.warn("feedback refused: quota store unavailable", { request_id: request.id });
      throw new ApiError("unavailable", "Feedback cannot be taken for a moment; retry in a few seconds.", {
        "retry-after": "5",
      });
    }
  }
}
