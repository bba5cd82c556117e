// Runs the shim: opens the release reader (on the state folder, or a remote: `serve --release s3://…`, whose nights'
// public databases it downloads for POST /query), the server secret, the key and quota stores (a file and the
// embedded store, or both in Redis for several shims, per config.quota.store), listens on config.host:config.port,
// and closes gracefully — in-flight requests finish, quotas persist, the embedded store's lock is released.
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { type Clock, systemClock } from "../core/clock.ts";
import { type Config, statePaths } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { openStorage } from "../core/storage-url.ts";
import { buildApp } from "./app.ts";
import type { KeyVerifier } from "./caller.ts";
import { type FeedbackStore, feedbackFile, openFeedbackStore } from "./feedback/store.ts";
import { openConfiguredKeyStore } from "./keys/open.ts";
import { loadServerSecret } from "./keys/secret.ts";
import type { KeyStore } from "./keys/store.ts";
import { createQueryPool, type QueryPool } from "./query/pool.ts";
import { createPublicDbMirror } from "./query/public-db-mirror.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "./quota/quota.ts";
import { openRedisQuotaStore } from "./quota/redis.ts";
import { openReleaseReader, type ReleaseReader } from "./release-reader.ts";

export interface ServerOptions {
  config: Config;
  /**
   * Where releases are read from: `s3://bucket/prefix` or a folder holding releases/ and public-db/ (what `publish
   * --target` writes); default config.remote, else the state folder (releases/, and public/ for POST /query).
   */
  releaseLocation?: string;
  /** The release storage itself (tests); wins over releaseLocation. */
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
  const release = options.release ?? (await openRelease(options, logger));
  const clock = options.clock ?? systemClock;
  const secret = await loadServerSecret(config.serverSecret, paths.secret);
  let keyStore: KeyStore;
  let quotas: QuotaStore;
  try {
    keyStore = options.keyStore ?? (await openConfiguredKeyStore(config, { secret, clock, logger }));
  } catch (error) {
    release.close();
    throw error;
  }
  try {
    quotas = options.quotas ?? (await openQuotaStore(config, secret, logger));
  } catch (error) {
    release.close();
    await keyStore.close();
    throw error;
  }
  const queryPool = options.queryPool ?? createQueryPool({ logger });
  const feedback = options.feedback ?? (await openFeedbackStore(feedbackFile(paths.root), { secret }));
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
    await keyStore.close();
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
        await keyStore.close();
        await queryPool.close();
        await feedback.close();
        logger.info("api shim stopped", { url });
      })();
      return closing;
    },
  };
}

/**
 * The release reader over the location to serve. A remote's pointer must be readable at start: a bucket that cannot
 * be read (endpoint, credentials, name) stops the shim with the reason, rather than a fleet of shims answering 503.
 * Once running, a failed re-check keeps the loaded release and an unreadable page is 503. (`projintel mcp` too.)
 */
export async function openRelease(options: ServerOptions, logger: Logger): Promise<ReleaseReader> {
  const { config } = options;
  const root = statePaths(config).root;
  const location = options.releaseLocation ?? config.remote;
  const remote = location !== undefined && path.resolve(location) !== root;
  const storage =
    options.storage ?? (remote ? await openStorage(location, config) : createLocalStorage(root));
  const mirror = remote ? await createPublicDbMirror({ storage, stateRoot: root, logger }) : undefined;
  try {
    return await openReleaseReader({
      storage,
      logger,
      cacheBytes: config.release.cacheBytes,
      checkEveryMs: config.release.checkEveryMs,
      streamAboveBytes: config.release.streamAboveBytes,
      ...(mirror ? { beforeSwitch: (_pointer, manifest) => mirror.prepare(manifest) } : {}),
    });
  } catch (error) {
    throw new AppError(
      `The API shim cannot read the release at ${storage.location}: ${(error as Error).message}`,
      {
        // the storage's own advice (create the bucket, set the credentials) first
        hint:
          (error instanceof AppError ? error.hint : undefined) ??
          (remote
            ? "Check the location (--release or PROJINTEL_REMOTE), the AWS_* variables (endpoint, region, credentials) and that the bucket answers; then start the shim again."
            : "Check the state folder (--state-dir); `projintel publish` writes a new release."),
        stage: "serve",
        cause: error,
      },
    );
  }
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
