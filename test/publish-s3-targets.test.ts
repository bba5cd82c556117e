// What a bucket target does beside the upload, against s3rver on loopback: pruning keeps releases within keepReleases
// or younger than retentionDays (and the public databases they serve), and `projintel publish --target` refuses a
// bad target — a malformed bucket name, a missing bucket, wrong keys, an endpoint nobody listens on — with one line
// saying what to check and an exit code, never a stack trace.
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../core/config.ts";
import { gzippedKey, publicDbKey, publicDbManifestKey, publicDbPartKey } from "../core/public-db.ts";
import { CURRENT_KEY, MANIFEST_FILE, releaseKey } from "../publish/layout.ts";
import { pruneReleases, releaseIds } from "../publish/prune.ts";
import { freePort } from "./redis-server.ts";
import { type S3TestServer, startS3Server } from "./s3-server.ts";
import { type SimRelease, simRelease } from "./sim-release.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BUCKET = "targets-test";
let server: S3TestServer;
let sim: SimRelease;

beforeAll(async () => {
  [server, sim] = await Promise.all([startS3Server(), simRelease()]);
  await server.bucket(BUCKET);
}, 600_000);
afterAll(async () => {
  await server?.stop();
  await sim?.cleanup();
});

describe("pruning a bucket", () => {
  it("deletes a release only beyond keepReleases and older than retentionDays, with its public database", async () => {
    const bucket = server.storage(BUCKET, "prune");
    const complete = [
      "2026-11-10_20261111T030000Z", // 11 days old at "now"
      "2026-11-18_20261119T030000Z", // 3 days and 1 hour old
      "2026-11-19_20261120T030000Z", // 2 days old
      "2026-11-21_20261122T030000Z", // current
    ];
    const incomplete = "2026-11-20_20261121T030000Z"; // a publish that never got its manifest
    for (const id of complete) {
      await bucket.put(releaseKey(id, "api/v1/a.json"), id);
      await bucket.put(releaseKey(id, MANIFEST_FILE), "{}");
      await bucket.put(gzippedKey(publicDbKey(id.slice(0, 10))), id);
      await bucket.put(publicDbKey(id.slice(0, 10)), id);
    }
    await bucket.put(releaseKey(incomplete, "publishing.json"), "{}");
    await bucket.put(releaseKey(incomplete, "api/v1/a.json"), "partial");
    await bucket.put(publicDbKey(incomplete.slice(0, 10)), "partial");
    await bucket.put(CURRENT_KEY, "{}");
    const now = new Date("2026-11-22T04:00:00Z");
    const current = complete[3] as string;

    // keep 1, but anything younger than 4 days stays: only the 11-day-old release and the incomplete one go
    expect(await pruneReleases(bucket, current, { keep: 1, retentionDays: 4, now, publicDbs: true })).toEqual(
      {
        releases: [complete[0], incomplete],
        publicDbs: ["2026-11-10", "2026-11-20"],
      },
    );
    expect(await releaseIds(bucket)).toEqual(complete.slice(1));
    // with 2 days, the 3-day-old release is beyond keep and past retention
    expect(await pruneReleases(bucket, current, { keep: 1, retentionDays: 2, now, publicDbs: true })).toEqual(
      {
        releases: [complete[1]],
        publicDbs: ["2026-11-18"],
      },
    );
    expect(await releaseIds(bucket)).toEqual(complete.slice(2));
    expect(await bucket.list("public-db/")).toEqual([
      publicDbKey("2026-11-19"),
      gzippedKey(publicDbKey("2026-11-19")),
      publicDbKey("2026-11-21"),
      gzippedKey(publicDbKey("2026-11-21")),
    ]);
    // what is kept is whole
    expect(await bucket.get(releaseKey(complete[2] as string, "api/v1/a.json"))).toEqual(
      Buffer.from(complete[2] as string),
    );
    // by count alone (retentionDays 0), keep 0 leaves the current release only
    expect((await pruneReleases(bucket, current, { keep: 0, now, publicDbs: true })).releases).toEqual([
      complete[2],
    ]);
    expect(await bucket.list("", { children: true })).toEqual(["public-db/", "releases/"]);
    expect(await bucket.list("releases/", { children: true })).toEqual([`releases/${current}/`, CURRENT_KEY]);
  });

  it("keeps the history parts a kept night's public database names, and deletes the others", async () => {
    const bucket = server.storage(BUCKET, "prune-parts");
    const [old, current] = ["2026-11-10_20261111T030000Z", "2026-11-21_20261122T030000Z"];
    const part = (name: string) => `snapshots-2026-${name}-0123456789abcdef`;
    const named: Record<string, string[]> = { [old]: ["10-26", "11-02"], [current]: ["11-02", "11-09"] };
    for (const id of [old, current]) {
      const runDate = id.slice(0, 10);
      await bucket.put(releaseKey(id, MANIFEST_FILE), "{}");
      await bucket.put(publicDbKey(runDate), id);
      const parts = (named[id] ?? []).map((p) => ({
        name: part(p),
        table: "snapshots",
        alias: `snapshots_2026_${p.replace("-", "_")}`,
        from: `2026-${p}`,
        to: `2026-${p}`,
        rows: 1,
      }));
      await bucket.put(publicDbManifestKey(runDate), JSON.stringify({ run_date: runDate, parts }));
      for (const p of parts) {
        await bucket.put(gzippedKey(publicDbPartKey(p.name)), p.name);
        await bucket.put(publicDbPartKey(p.name), p.name);
      }
    }
    await bucket.put(publicDbPartKey(part("10-19")), "named by no night");
    await bucket.put(gzippedKey(publicDbPartKey(part("10-19"))), "named by no night");
    const now = new Date("2026-11-22T04:00:00Z");
    expect(await pruneReleases(bucket, current, { keep: 0, now, publicDbs: true })).toEqual({
      releases: [old],
      publicDbs: ["2026-11-10"],
    });
    expect(await bucket.list("public-db/")).toEqual([
      publicDbKey("2026-11-21"),
      publicDbManifestKey("2026-11-21"),
      publicDbPartKey(part("11-02")),
      gzippedKey(publicDbPartKey(part("11-02"))),
      publicDbPartKey(part("11-09")),
      gzippedKey(publicDbPartKey(part("11-09"))),
    ]);
  });

  it("reads publish.retentionDays from the environment", () => {
    const config = loadConfig({ env: { PROJINTEL_PUBLISH__RETENTION_DAYS: "2" } });
    expect(config.publish).toMatchObject({ keepReleases: 3, retentionDays: 2 });
    expect(loadConfig({ env: {} }).publish.retentionDays).toBe(0);
  });
});

describe("projintel publish --target refuses a bad target", () => {
  /** Runs the CLI; its exit code and stderr. */
  function publish(
    target: string,
    env: Record<string, string>,
  ): Promise<{ code: number | null; stderr: string }> {
    const child = spawn(
      process.execPath,
      ["bin/projintel.js", "publish", "--target", target, "--state-dir", sim.stateDir],
      {
        cwd: ROOT,
        env: { ...process.env, ...server.env, PROJINTEL_LOG_LEVEL: "error", ...env },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stderr })));
  }

  /** The line projintel printed, without the SDK's Node-version notice or log lines. */
  const message = (stderr: string) => stderr.split("\n").find((l) => l.startsWith("projintel: ")) ?? stderr;

  it("names what is wrong and what to do, with exit code 2 for a malformed location and 1 otherwise", async () => {
    const port = await freePort();
    // one at a time: each opens the same warehouse
    const malformed = await publish("s3://Bad_Bucket/api", {});
    const missing = await publish("s3://no-such-bucket/api", {});
    const wrongKeys = await publish(`s3://${BUCKET}/api`, {
      AWS_SECRET_ACCESS_KEY: "WRONG",
      AWS_ACCESS_KEY_ID: "WRONG",
    });
    const unreachable = await publish(`s3://${BUCKET}/api`, {
      AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
      PROJINTEL_S3__MAX_ATTEMPTS: "2",
    });
    expect([malformed.code, missing.code, wrongKeys.code, unreachable.code]).toEqual([2, 1, 1, 1]);
    expect(message(malformed.stderr)).toBe(
      'projintel: Invalid bucket location "s3://Bad_Bucket/api". Write it as s3://<bucket>/<prefix>, the bucket 3-63 lower-case letters, digits, dots or hyphens.',
    );
    expect(message(missing.stderr)).toBe(
      `projintel: Bucket "no-such-bucket" does not exist at ${server.url} (get s3://no-such-bucket/api/releases/publish.lock.json). Create the bucket (aws s3 mb s3://no-such-bucket), or fix the location and AWS_ENDPOINT_URL_S3.`,
    );
    expect(message(wrongKeys.stderr)).toBe(
      `projintel: ${server.url} refused the credentials for get s3://${BUCKET}/api/releases/publish.lock.json: InvalidAccessKeyId. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) to a key that may read and write s3://${BUCKET}.`,
    );
    expect(message(unreachable.stderr)).toBe(
      `projintel: Cannot reach the S3 endpoint http://127.0.0.1:${port} (get s3://${BUCKET}/api/releases/publish.lock.json): ECONNREFUSED. Check AWS_ENDPOINT_URL_S3, and set PROJINTEL_S3__FORCE_PATH_STYLE=true for servers without virtual-host buckets.`,
    );
    for (const run of [malformed, missing, wrongKeys, unreachable])
      expect(run.stderr).not.toMatch(/^\s+at /m);
    // nothing was written to the bucket by the refused runs
    expect(await server.storage(BUCKET, "api").list("")).toEqual([]);
  }, 120_000);
});
