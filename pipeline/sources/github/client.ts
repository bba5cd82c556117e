// GitHub GraphQL over the shared HTTP client, with tokens in rotation: each call uses the token with the most
// points left; when every token is spent it waits for the earliest reset if that is soon enough, else stops
// with a transient error saying when the budget resets. Counts the points spent.
import type { ZodError, z } from "zod";
import type { Clock } from "../../../core/clock.ts";
import { AppError } from "../../../core/errors.ts";
import type { Logger } from "../../../core/log.ts";
import { type Headers, type HttpClient, header, RetryLaterError } from "../../collect/http.ts";
import type { SourceUrls } from "../urls.ts";
import type { RateLimit } from "./schemas.ts";

/** The token used against the simulator when none is configured; the simulator accepts any. */
export const SIM_TOKEN = "sim";

export interface GithubClientOptions {
  http: HttpClient;
  url: string;
  tokens: readonly string[];
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  maxRetryWaitMs: number;
  logger: Logger;
  /** Called with the points each call cost. */
  onPoints?: (points: number) => void;
  /** Answers that do not fit the schema are asked again this many times (default 2) before giving up. */
  malformedRetries?: number;
}

/** An answer that did not fit the schema, even when asked again: the caller quarantines it. */
export class MalformedPayloadError extends AppError {
  readonly url: string;
  readonly payload: unknown;
  readonly zodError: ZodError;

  constructor(url: string, payload: unknown, zodError: ZodError) {
    const issue = zodError.issues[0];
    super(
      `GitHub GraphQL answered with an unexpected shape at ${issue?.path.join(".") || "the top"}: ${issue?.message}.`,
      {
        kind: "transient",
        hint: "The API changed or the query is wrong; compare with sim/github/schema.graphql.",
      },
    );
    this.name = "MalformedPayloadError";
    this.url = url;
    this.payload = payload;
    this.zodError = zodError;
  }
}

interface TokenState {
  token: string;
  /** Points left, unknown until the first answer. */
  remaining: number | undefined;
  /** Epoch ms when the budget refills. */
  resetAt: number | undefined;
}

export interface GithubClient {
  query<T extends z.ZodType>(
    document: string,
    variables: Record<string, unknown>,
    schema: T,
  ): Promise<z.infer<T>>;
}

/** The tokens to use: the configured ones, "sim" against a simulator, or a clear error against GitHub. */
export function githubTokens(configured: readonly string[], urls: SourceUrls): readonly string[] {
  if (configured.length > 0) return configured;
  if (urls.simulated) return [SIM_TOKEN];
  throw new AppError("No GitHub token is configured, and GitHub's GraphQL API requires one.", {
    hint: "Set PROJINTEL_GITHUB__TOKENS=<token>[,<token>...] (a token with public read access is enough).",
    kind: "terminal",
  });
}

export function createGithubClient(options: GithubClientOptions): GithubClient {
  const states: TokenState[] = options.tokens.map((token) => ({
    token,
    remaining: undefined,
    resetAt: undefined,
  }));
  // Points a call needs; a token with fewer left would be refused, so it is passed over.
  let lastCost = 1;

  /** A usable token, after waiting for a reset when all are spent and the wait is acceptable. */
  async function pick(): Promise<TokenState> {
    const now = options.clock.now().getTime();
    for (const s of states) {
      if (s.resetAt !== undefined && s.resetAt <= now)
        Object.assign(s, { remaining: undefined, resetAt: undefined });
    }
    const usable = states.filter((s) => s.remaining === undefined || s.remaining >= lastCost);
    if (usable.length > 0) {
      return usable.reduce((best, s) =>
        (s.remaining ?? Infinity) > (best.remaining ?? Infinity) ? s : best,
      );
    }
    const earliest = Math.min(...states.map((s) => s.resetAt ?? now));
    const wait = earliest - now;
    if (wait > options.maxRetryWaitMs) {
      throw new RetryLaterError(
        `GitHub GraphQL (all ${states.length} token${states.length === 1 ? "" : "s"})`,
        "the hourly point budget is spent",
        new Date(earliest),
      );
    }
    options.logger.warn("github: every token is spent, waiting for the reset", { wait_ms: wait });
    await options.sleep(wait);
    for (const s of states)
      if ((s.resetAt ?? now) <= earliest) Object.assign(s, { remaining: undefined, resetAt: undefined });
    return pick();
  }

  function update(state: TokenState, rateLimit: RateLimit | null | undefined, headers: Headers): void {
    const remaining = rateLimit?.remaining ?? Number(header(headers, "x-ratelimit-remaining"));
    const resetAt = rateLimit?.resetAt
      ? Date.parse(rateLimit.resetAt)
      : Number(header(headers, "x-ratelimit-reset")) * 1000;
    if (Number.isFinite(remaining)) state.remaining = remaining;
    if (Number.isFinite(resetAt)) state.resetAt = resetAt;
  }

  return {
    async query(document, variables, schema) {
      let malformed = 0;
      for (;;) {
        const state = await pick();
        const authorization = `bearer ${state.token}`;
        let result: Awaited<ReturnType<HttpClient["request"]>>;
        try {
          result = await options.http.request(options.url, {
            source: "github",
            method: "POST",
            headers: { authorization },
            json: { query: document, variables },
          });
        } catch (error) {
          // This token is rate limited for longer than we wait: park it and try another.
          if (error instanceof RetryLaterError && error.key?.endsWith(authorization)) {
            Object.assign(state, { remaining: 0, resetAt: error.retryAt.getTime() });
            continue;
          }
          throw error;
        }
        if (result.decision === "skip") {
          throw new AppError(`GitHub GraphQL at ${options.url} answered ${result.status}.`, {
            hint: "Check PROJINTEL_GITHUB__GRAPHQL_URL (or the simulator URL).",
          });
        }
        const parsed = schema.safeParse(result.body);
        if (!parsed.success) {
          // A damaged answer is usually a one-off: ask again before setting it aside.
          if (malformed++ < (options.malformedRetries ?? 2)) {
            options.logger.warn("github: malformed answer, asking again", {
              issue: parsed.error.issues[0]?.message,
            });
            continue;
          }
          throw new MalformedPayloadError(options.url, result.body, parsed.error);
        }
        const data = parsed.data as { data?: { rateLimit?: RateLimit | null } | null };
        const rateLimit = data.data?.rateLimit;
        update(state, rateLimit, result.headers);
        const cost = rateLimit?.cost ?? 1;
        lastCost = Math.max(1, cost);
        options.onPoints?.(cost);
        return parsed.data;
      }
    },
  };
}
