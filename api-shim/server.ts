// Runs the shim: opens the release reader, the server secret, the key store and the quota store (embedded or
// Redis, per config.quota.store; production defaults under the state folder), listens on config.host:config.port,
// and closes gracefully — in-flight requests finish, quotas persist, the embedded store's lock is released.
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { type Clock, systemClock } from "../core/clock.ts";
import { type Config, statePaths } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { buildApp } from "./app.ts";
import type { KeyVerifier } from "./caller.ts";
import { type FeedbackStore, feedbackFile, openFeedbackStore } from "./feedback-store.ts";
import { type KeyStore, openKeyStore } from "./key-store.ts";
import { loadServerSecret } from "./keys-secret.ts";
import { createQueryPool, type QueryPool } from "./query/pool.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "./quota.ts";
import { openRedisQuotaStore } from "./quota-redis.ts";
import { openReleaseReader, type ReleaseReader } from "./release-reader.ts";

export interface ServerOptions {
  config: Config;
  /** Where releases are read from; defaults to the state folder. */
  storage?: Storage;
  release?: ReleaseReader;
  quotas?: QuotaStore;
  keys?: KeyVerifier;
  keyStore?: KeyStore;
  /** Query workers; by default a pool with the documented limits (core/query/limits.ts), started on first use. */
  queryPool?: QueryPool;
  /** Where feedback goes; by default <state>/feedback.jsonl. */
  feedback?: FeedbackStore;
  /** Start the query workers at once (a long-running server) rather than on the first query (tests). */
  warmQueryWorkers?: boolean;
  clock?: Clock;
  logger?: Logger;
}

export interface RunningServer {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const { config } = options;
  const logger = options.logger ?? silentLogger;
  const paths = statePaths(config);
  const release =
    options.release ??
    (await openReleaseReader({ storage: options.storage ?? createLocalStorage(paths.root), logger }));
  const clock = options.clock ?? systemClock;
  const secret = await loadServerSecret(config.serverSecret, paths.secret);
  const keyStore =
    options.keyStore ??
    (await openKeyStore({
      file: paths.keys,
      secret,
      limits: { free: config.quota.free, email: config.quota.email },
      clock,
      logger,
    }));
  let quotas: QuotaStore;
  try {
    quotas = options.quotas ?? (await openQuotaStore(config, secret, logger));
  } catch (error) {
    release.close();
    throw error;
  }
  const queryPool = options.queryPool ?? createQueryPool({ logger });
  const feedback = options.feedback ?? (await openFeedbackStore(feedbackFile(paths.root)));
  const app = buildApp({
    config,
    release,
    quotas,
    clock,
    logger,
    keyStore,
    query: { pool: queryPool, stateRoot: paths.root },
    feedback,
    ...(options.keys ? { keys: options.keys } : {}),
  });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    release.close();
    await quotas.close();
    await feedback.close();
    throw new AppError(
      `The API shim cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`,
      {
        hint: "Choose another port (PROJINTEL_PORT or --port) or stop the process holding it.",
        stage: "serve",
        cause: error,
      },
    );
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;
  if (options.warmQueryWorkers) {
    queryPool.start().catch((error: unknown) => {
      logger.error("query workers failed to start", { error: (error as Error).message });
    });
  }
  logger.info("api shim listening", { url, release_id: release.current()?.release_id ?? null });

  let closing: Promise<void> | undefined;
  return {
    url,
    app,
    close() {
      closing ??= (async () => {
        await app.close();
        release.close();
        await quotas.close();
        await queryPool.close();
        await feedback.close();
        logger.info("api shim stopped", { url });
      })();
      return closing;
    },
  };
}

/** The quota store config.quota.store names: embedded (owning the state folder) or Redis. */
function openQuotaStore(config: Config, secret: string, logger: Logger): Promise<QuotaStore> {
  if (config.quota.store === "redis") {
    return openRedisQuotaStore({
      url: config.redis.url,
      commandTimeoutMs: config.redis.commandTimeoutMs,
      secret,
      logger,
    });
  }
  const paths = statePaths(config);
  return openEmbeddedQuotaStore({ file: paths.quotas, lockFile: paths.quotaLock, secret, logger });
}
