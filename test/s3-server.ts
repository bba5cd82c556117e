// Starts a real S3-compatible server for a test: s3rver (npm) on a free loopback port, storing its buckets in a temp
// folder, and stops it (closing the server, removing the folder). `env` is what a child process needs to reach it
// through the SDK's standard chain; `client` and `config` the same for in-process use (no process.env changes).

import { mkdtemp, rm } from "node:fs/promises";
import type { Server } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { CreateBucketCommand, S3Client } from "@aws-sdk/client-s3";
import type { Config } from "../core/config.ts";
import type { Storage } from "../core/storage.ts";
import { createS3Storage, type S3ClientOverrides } from "../core/storage-s3.ts";

/**
 * The publish lock's settle (config.publish.lockSettleMs) for a bucket prefix that one publisher writes at a time:
 * s3rver ignores conditional writes, so each publish to it would wait 2 s before reading its lock back, a wait for a
 * contender that a test with one publisher never has (the read-back then waits twice the publisher's own check and
 * write). The race the settle is for is tested at the default, in publish/lock.test.ts.
 */
export const ONE_PUBLISHER_SETTLE_MS = 0;
/** The same for a child process: its environment variable. */
export const ONE_PUBLISHER_ENV = { PROJINTEL_PUBLISH__LOCK_SETTLE_MS: String(ONE_PUBLISHER_SETTLE_MS) };

/** s3rver's built-in key pair (it checks signatures against it). */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } as const;
const REGION = "us-east-1";

export interface S3TestServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /**
   * Variables for a child process: the AWS chain's endpoint, region and keys, the SDK's own checksum settings
   * (WHEN_REQUIRED, which s3rver needs), and path-style URLs.
   */
  env: Record<string, string>;
  /** For in-process use: overrides of the SDK's chain, and the config.s3 s3rver needs. */
  client: Required<S3ClientOverrides>;
  config: { s3: Config["s3"] };
  /** Creates a bucket; returns its location, `s3://<name>`. */
  bucket(name: string): Promise<string>;
  /** Every object created (Put, Post, Copy) or deleted on the server so far, in order. */
  events: S3ObjectEvent[];
  /** Calls `listener` with each event as the server handles it. */
  onEvent(listener: (event: S3ObjectEvent) => void): () => boolean;
  /** A Storage on `s3://<bucket>/<prefix>` of this server. */
  storage(bucket: string, prefix?: string, s3?: Partial<Config["s3"]>): Storage;
  /** Stops answering (connections refused) but keeps the buckets; resume() serves them again on the same port. */
  halt(): Promise<void>;
  resume(): Promise<void>;
  stop(): Promise<void>;
}

export interface S3ObjectEvent {
  /** Put and Post (a multipart upload's completion) upload bytes; Copy is a server-side copy. */
  type: "Put" | "Post" | "Copy" | "Delete";
  bucket: string;
  key: string;
}

interface S3rverInstance {
  run(): Promise<{ port: number }>;
  close(): Promise<void>;
  httpServer?: Server;
  on(event: "event", listener: (event: S3rverEvent) => void): void;
}
interface S3rverEvent {
  Records: { eventName: string; s3: { bucket: { name: string }; object: { key: string } } }[];
}
type S3rverClass = new (options: Record<string, unknown>) => S3rverInstance;

export async function startS3Server(): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(tmpdir(), "s3rver-"));
  // s3rver is CommonJS without type declarations
  const S3rver = createRequire(import.meta.url)("s3rver") as S3rverClass;
  let server: S3rverInstance | undefined = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
  });
  const events: S3ObjectEvent[] = [];
  const listeners = new Set<(event: S3ObjectEvent) => void>();
  server.on("event", (event) => {
    for (const record of event.Records) {
      const type = record.eventName.split(":")[1] as S3ObjectEvent["type"];
      const one = { type, bucket: record.s3.bucket.name, key: record.s3.object.key };
      events.push(one);
      for (const listener of listeners) listener(one);
    }
  });
  const { port } = await server.run();
  const url = `http://127.0.0.1:${port}`;
  const client = { endpoint: url, region: REGION, credentials: { ...S3RVER_CREDENTIALS } };
  const config = {
    s3: {
      forcePathStyle: true,
      checksumMode: "when_required",
      concurrency: 16,
      partSizeMib: 5,
      // production's default: on a busy machine s3rver closes idle keep-alive connections as the client reuses them
      // (ECONNRESET, one after another when several went idle together), and two attempts were once not enough
      maxAttempts: 5,
    },
  } satisfies { s3: Config["s3"] };
  const admin = new S3Client({ ...client, forcePathStyle: true });
  return {
    url,
    env: {
      AWS_ENDPOINT_URL_S3: url,
      AWS_REGION: REGION,
      AWS_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      AWS_REQUEST_CHECKSUM_CALCULATION: "WHEN_REQUIRED",
      AWS_RESPONSE_CHECKSUM_VALIDATION: "WHEN_REQUIRED",
      PROJINTEL_S3__FORCE_PATH_STYLE: "true",
    },
    client,
    config,
    events,
    onEvent(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async bucket(name) {
      await admin.send(new CreateBucketCommand({ Bucket: name }));
      return `s3://${name}`;
    },
    storage(bucket, prefix = "", s3 = {}) {
      return createS3Storage({ bucket, prefix, options: { ...config.s3, ...s3 }, client });
    },
    async halt() {
      await closeNow(server);
      server = undefined;
    },
    async resume() {
      server ??= new S3rver({ address: "127.0.0.1", port, silent: true, directory });
      await server.run();
    },
    async stop() {
      admin.destroy();
      await closeNow(server);
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Closes s3rver and cuts every connection to it. close() alone waits for connections in use: a client that keeps
 * reusing its keep-alive connection (a shim checking its release pointer every 500 ms) would hold it open for ever.
 */
async function closeNow(server: S3rverInstance | undefined): Promise<void> {
  if (!server) return;
  const closing = server.close();
  server.httpServer?.closeAllConnections();
  await closing;
}
