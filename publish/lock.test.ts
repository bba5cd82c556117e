// One publisher per prefix, on a real s3rver (which ignores If-None-Match, so the lock is verified by read-back after
// config.publish.lockSettleMs) and a local folder (where creating the lock is a real conditional write): two publishes
// at once with the default settle, one refused naming the other; a lock left by a killed publisher taken over after
// its expiry, or at once when its process is gone.
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Clock, fixedClock } from "../core/clock.ts";
import { loadConfig, PUBLISH_LOCK_SETTLE_MS } from "../core/config.ts";
import { silentLogger } from "../core/log.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { ONE_PUBLISHER_SETTLE_MS, type S3TestServer, startS3Server } from "../test/s3-server.ts";
import { readPointer } from "./layout.ts";
import { acquirePublishLock, LOCK_KEY, LOCK_TTL_MS, type LockRecord } from "./lock.ts";
import { publishRelease } from "./release.ts";
import { FIXTURE_ROWS, fixtureDb } from "./testing.ts";

const BUCKET = "lock-test";
const RUN_DATE = "2026-11-20";
let server: S3TestServer;
let dir: string;
let prefixes = 0;

beforeAll(async () => {
  server = await startS3Server();
  await server.bucket(BUCKET);
  dir = await mkdtemp(path.join(tmpdir(), "publish-lock-"));
});
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

const bucketPrefix = () => server.storage(BUCKET, `p${++prefixes}`);

/** A publish of the fixture; `lockSettleMs` left at its default (2 s) unless given. */
async function publish(storage: Storage, clock: Clock, lockSettleMs?: number) {
  const db = await fixtureDb(FIXTURE_ROWS, RUN_DATE);
  try {
    const publish = lockSettleMs === undefined ? {} : { lockSettleMs };
    const config = loadConfig({ overrides: { stateDir: path.join(dir, "state"), publish } });
    return await publishRelease({ db, storage, config, clock, force: true });
  } finally {
    db.close();
  }
}

/** The lock a publisher on another runner left when it was killed at `at`. */
function killedElsewhere(at: string): LockRecord {
  return {
    owner: "runner-7f3a (pid 4242)",
    host: "runner-7f3a",
    pid: 4242,
    token: "0123456789abcdef01234567",
    started_at: at,
    expires_at: new Date(Date.parse(at) + LOCK_TTL_MS).toISOString(),
  };
}

describe("the publish lock", () => {
  it("s3rver ignores If-None-Match, so the lock is verified by read-back after the settle; a local folder creates it conditionally", async () => {
    const clock = fixedClock("2026-11-21T03:00:00Z");
    // a settle of its own, so that the wait seen is the one configured (a lower bound: a busy machine only adds)
    const settleMs = 300;
    const started = performance.now();
    const onBucket = await acquirePublishLock({
      storage: bucketPrefix(),
      clock,
      logger: silentLogger,
      settleMs,
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(settleMs);
    expect(onBucket.mode).toBe("read-back");
    await onBucket.release();
    const local = createLocalStorage(path.join(dir, "local"));
    const onFolder = await acquirePublishLock({ storage: local, clock, logger: silentLogger, settleMs });
    expect(onFolder.mode).toBe("conditional");
    expect(await local.putIfAbsent(LOCK_KEY, "{}")).toBe(false);
    await onFolder.release();
    expect(await local.exists(LOCK_KEY)).toBe(false);
  });

  it("two publishes to one bucket prefix at once, with the default settle: one goes live, the other refuses naming it", async () => {
    expect(loadConfig({ env: {} }).publish.lockSettleMs).toBe(PUBLISH_LOCK_SETTLE_MS);
    const storage = bucketPrefix();
    const clocks = [fixedClock("2026-11-21T03:00:00Z"), fixedClock("2026-11-21T03:00:01Z")];
    const results = await Promise.allSettled(clocks.map((clock) => publish(storage, clock)));
    const won = results.findIndex((r) => r.status === "fulfilled");
    const lost = results.find((r) => r.status === "rejected");
    expect(results.map((r) => r.status).sort()).toEqual(["fulfilled", "rejected"]);
    const winner = (results[won] as PromiseFulfilledResult<{ releaseId: string }>).value;
    const startedAt = clocks[won]?.now().toISOString();
    expect((lost as PromiseRejectedResult).reason.message).toBe(
      `Another publish to s3://${BUCKET}/p${prefixes} is under way: ${hostname()} (pid ${process.pid}), publishing since ${startedAt} (its lock expires at ${new Date(Date.parse(startedAt as string) + LOCK_TTL_MS).toISOString()}).`,
    );
    expect((await readPointer(storage))?.release_id).toBe(winner.releaseId);
    // the winner removed its lock when it was done: the next publisher takes the lock (a whole publish more would
    // only upload the same release again)
    expect(await storage.exists(LOCK_KEY)).toBe(false);
    const next = await acquirePublishLock({
      storage,
      clock: fixedClock("2026-11-21T04:00:00Z"),
      logger: silentLogger,
      settleMs: ONE_PUBLISHER_SETTLE_MS,
    });
    await next.release();
  });

  it("a lock left by a publisher killed on another runner is refused until it expires, then taken over", async () => {
    const storage = bucketPrefix();
    const left = killedElsewhere("2026-11-21T03:00:00Z");
    await storage.put(LOCK_KEY, JSON.stringify(left));
    const before = publish(storage, fixedClock("2026-11-21T03:59:59Z"), ONE_PUBLISHER_SETTLE_MS);
    await expect(before).rejects.toThrow(
      `Another publish to s3://${BUCKET}/p${prefixes} is under way: runner-7f3a (pid 4242), publishing since 2026-11-21T03:00:00Z (its lock expires at 2026-11-21T04:00:00.000Z).`,
    );
    expect(await readPointer(storage)).toBeUndefined();
    const report = await publish(storage, fixedClock("2026-11-21T04:00:00Z"), ONE_PUBLISHER_SETTLE_MS);
    expect((await readPointer(storage))?.release_id).toBe(report.releaseId);
    expect(await storage.exists(LOCK_KEY)).toBe(false);
  });

  it("a lock left by a killed process of this machine is taken over at once", async () => {
    const storage = createLocalStorage(path.join(dir, "killed"));
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => child.once("exit", resolve));
    const left = { ...killedElsewhere("2026-11-21T03:00:00Z"), host: hostname(), pid: child.pid as number };
    await storage.put(LOCK_KEY, JSON.stringify(left));
    const report = await publish(storage, fixedClock("2026-11-21T03:05:00Z"), ONE_PUBLISHER_SETTLE_MS);
    expect((await readPointer(storage))?.release_id).toBe(report.releaseId);
  });

  it("a publisher whose lock was taken over does not make its release live", async () => {
    const storage = createLocalStorage(path.join(dir, "taken"));
    const clock = fixedClock("2026-11-21T03:00:00Z");
    const lock = await acquirePublishLock({
      storage,
      clock,
      logger: silentLogger,
      settleMs: ONE_PUBLISHER_SETTLE_MS,
    });
    await storage.put(LOCK_KEY, JSON.stringify(killedElsewhere("2026-11-21T04:00:00Z")));
    await expect(lock.confirm()).rejects.toThrow(
      `The publish lock of ${storage.location} is no longer this publisher's (${hostname()} (pid ${process.pid})): runner-7f3a (pid 4242) took it at 2026-11-21T04:00:00Z; the release is not made live.`,
    );
    await lock.release();
    // not its lock any more: left for its holder
    expect(await storage.exists(LOCK_KEY)).toBe(true);
  });

  it("reads publish.lockSettleMs from the environment and refuses a value it cannot wait", () => {
    expect(loadConfig({ env: { PROJINTEL_PUBLISH__LOCK_SETTLE_MS: "250" } }).publish.lockSettleMs).toBe(250);
    for (const bad of ["-1", "1.5", "soon", "60001"])
      expect(() => loadConfig({ env: { PROJINTEL_PUBLISH__LOCK_SETTLE_MS: bad } }), bad).toThrow(
        "Invalid setting PROJINTEL_PUBLISH__LOCK_SETTLE_MS",
      );
  });
});
