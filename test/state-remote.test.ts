// Durable state in a real bucket (s3rver on loopback) over the simulator (real HTTP): night 1 runs on state folder A
// and night 2 on an EMPTY folder B, both `projintel nightly --remote` the same bucket; B's night 2 must continue A's
// history exactly as A continuing on its own folder does (the control). Then a pull killed midway completes when run
// again, and a push of a folder the bucket already holds uploads nothing.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { silentLogger } from "../core/log.ts";
import { resolvePublicDb } from "../core/public-db.ts";
import { openQueryRunner, type QueryRunner } from "../core/query/index.ts";
import type { Storage } from "../core/storage.ts";
import { compareKeys, sha256File } from "../core/storage.ts";
import { historyNights } from "../pipeline/history.ts";
import { PUBLIC_TABLES } from "../pipeline/public-db.ts";
import { listStateFiles } from "../pipeline/state/files.ts";
import { packOf } from "../pipeline/state/packs.ts";
import { STATE_INDEX_KEY } from "../pipeline/state/sync.ts";
import { type SimServer, startSimServer } from "../sim/index.ts";
import { type ChildOutput, childOutput } from "./child-output.ts";
import { ONE_PUBLISHER_ENV, type S3TestServer, startS3Server } from "./s3-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "projintel.js");
const module = (file: string) => JSON.stringify(pathToFileURL(path.join(ROOT, file)).href);
const DAY1 = "2026-11-15";
const DAY2 = "2026-11-16";
const BUCKET = "projintel-state";
const PREFIX = "nightly";
const REMOTE = `s3://${BUCKET}/${PREFIX}`;

let s3: S3TestServer;
let sim: SimServer;
let work: string;
let bucket: Storage;
const folder = (name: string) => path.join(work, name);

/** The child's environment: the S3 server's AWS variables and nothing of this process's PROJINTEL_* or AWS_*. */
function childEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("PROJINTEL_") && !k.startsWith("AWS_")),
  );
  // commit statistics asked again at once: the simulator computes them at once (GitHub's 5-s pause would only wait);
  // one publisher at a time to the bucket's prefix, so no lock settle
  return {
    ...env,
    ...s3.env,
    ...ONE_PUBLISHER_ENV,
    PROJINTEL_GITHUB__REST_BUDGET: "150",
    PROJINTEL_GITHUB__STATS_RETRY_MS: "0",
    PROJINTEL_LOG_LEVEL: "warn",
  };
}

function run(command: string, args: string[]): Promise<ChildOutput> {
  return childOutput(spawn(command, args, { cwd: ROOT, env: childEnv() }));
}

async function projintel(...args: string[]): Promise<ChildOutput> {
  const result = await run(process.execPath, [BIN, ...args]);
  expect(result.code, `projintel ${args.join(" ")}\n${result.stderr}`).toBe(0);
  return result;
}

/** A number from printSummary's output: `  <label>   <n>`. */
function summaryNumber(stdout: string, label: string): number {
  const match = new RegExp(`^\\s+${label}\\s+(\\d+)$`, "m").exec(stdout);
  if (!match) throw new Error(`no "${label}" line in:\n${stdout}`);
  return Number(match[1]);
}

/** The remote objects a folder's state files travel in (the ETag cache's files in packs), sorted. */
function objectsOf(files: readonly { rel: string }[]): string[] {
  return [...new Set(files.map((f) => packOf(f.rel) ?? f.rel))].sort(compareKeys);
}

async function remoteIndex(): Promise<{ objects: Record<string, { bytes: number; sha256: string }> }> {
  return JSON.parse(String(await bucket.get(STATE_INDEX_KEY)));
}

beforeAll(async () => {
  s3 = await startS3Server();
  await s3.bucket(BUCKET);
  bucket = s3.storage(BUCKET, PREFIX);
  sim = await startSimServer({
    repos: 120,
    seed: 5,
    date: DAY1,
    anchor: DAY1,
    port: 0,
    logger: silentLogger,
  });
  work = await mkdtemp(path.join(tmpdir(), "projintel-state-remote-"));
}, 240_000);

afterAll(async () => {
  await sim?.close();
  await s3?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("durable state in a bucket", () => {
  it("night 2 on an empty state folder continues night 1's history, equal to one persistent folder", async () => {
    await projintel("nightly", "--sim", sim.url, "--state-dir", folder("A"), "--remote", REMOTE);
    await fetch(`${sim.url}/_sim/advance?days=1`, { method: "POST" });
    // B starts empty from the bucket; the control is A going on with its own folder (no remote)
    await Promise.all([
      projintel("nightly", "--sim", sim.url, "--state-dir", folder("B"), "--remote", REMOTE),
      projintel("nightly", "--sim", sim.url, "--state-dir", folder("A")),
    ]);

    const listed = JSON.parse(
      (await projintel("history", "list", "--json", "--state-dir", folder("B"))).stdout,
    );
    // the --recent pull left the snapshot's night on the remote, every table of it (a publish takes that night, and
    // the month packed, from the previous release)
    expect(listed).toMatchObject({ nights: 1, first: DAY2, last: DAY2 });

    const manifest = JSON.parse(
      await readFile(path.join(folder("B"), "runs", DAY2, "manifest.json"), "utf8"),
    );
    const named = Object.keys((await remoteIndex()).objects).sort(compareKeys);
    expect(manifest.status).toBe("ok");
    expect(manifest.state_pull).toMatchObject({
      present: 0,
      warehouse: "restored",
      snapshot: DAY1,
      // the snapshot's night is the only one before night 2: the pull left it on the remote
      nights: 0,
    });
    expect(manifest.state_pull.downloaded).toBe(manifest.state_pull.objects);
    expect(manifest.state_push.objects).toBeGreaterThan(manifest.state_pull.objects);
    // the run report is in the bucket too, and the index names every state file of B (its report included) and the
    // files its --recent pull left on the remote: the history of the snapshot's night, every table of it
    expect(JSON.parse(String(await bucket.get(`state/runs/${DAY2}/manifest.json`)))).toEqual(manifest);
    const local = objectsOf(await listStateFiles(folder("B")));
    expect(local.filter((rel) => !named.includes(rel))).toEqual([]);
    const left = named.filter((rel) => !local.includes(rel));
    expect(left.length).toBeGreaterThan(0);
    expect(
      left.filter((rel) => !/^history\/.*=(\d{4}-\d{2}-\d{2})\//.test(rel) || !rel.includes(`=${DAY1}/`)),
    ).toEqual([]);
    // each folder's public database is the one its current.json names (named by its content: <night>-<hash>)
    const publicDb = async (f: string) => {
      const db = await resolvePublicDb(folder(f));
      expect(db?.run_date).toBe(DAY2);
      return db?.path as string;
    };
    expect(await bucket.exists(`public-db/${path.basename(await publicDb("B"))}`)).toBe(true);

    // each night's public database is read as the SQL endpoint reads it: the nightly part with the parts it names
    const open = async (f: string) => openQueryRunner({ file: await publicDb(f) });
    const a = await open("A");
    const b = await open("B");
    const rows = async (runner: QueryRunner, sql: string) => (await runner.run(sql)).rows;
    try {
      for (const table of PUBLIC_TABLES) {
        // every row of the table, as a count and an order-free sum of row hashes
        const digest = `SELECT count(*)::BIGINT AS n, sum(hash(t))::VARCHAR AS h FROM ${table} t`;
        expect({ table, rows: await rows(b, digest) }).toEqual({ table, rows: await rows(a, digest) });
      }
      // what only a continued history gives: night 1's snapshots, first seen on night 1, star deltas over it
      const snapshots = (await rows(
        b,
        "SELECT strftime(date, '%Y-%m-%d') AS date, count(*)::INT AS n FROM snapshots GROUP BY ALL ORDER BY 1",
      )) as [string, number][];
      expect(snapshots.map(([date]) => date)).toEqual([DAY1, DAY2]);
      const [[night1, moved, all] = []] = (await rows(
        b,
        `SELECT count(*) FILTER (WHERE first_seen = DATE '${DAY1}')::INT AS night1,
           count(*) FILTER (WHERE stars_7d_delta <> 0)::INT AS moved, count(*)::INT AS all FROM projects`,
      )) as [number, number, number][];
      expect(night1).toBe(snapshots[0]?.[1]);
      expect(moved).toBeGreaterThan(0);
      expect(all).toBe(snapshots[1]?.[1]);
    } finally {
      a.close();
      b.close();
    }
    // three nightly processes, two at once: a limit that stops a hung run, generous enough for a busy machine
    // (150 s was reached at load 15-20)
  }, 600_000);

  it("a pull killed midway leaves a folder the next pull completes", async () => {
    const index = await remoteIndex();
    const total = Object.keys(index.objects).length;
    const killAt = Math.floor(total / 2);
    const killed = await run(process.execPath, [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `import { writeFileSync } from "node:fs";
       import { silentLogger } from ${module("core/log.ts")};
       import { createS3Storage } from ${module("core/storage-s3.ts")};
       import { pullState } from ${module("pipeline/state/sync.ts")};
       const storage = createS3Storage(${JSON.stringify({ bucket: BUCKET, prefix: PREFIX, options: s3.config.s3, client: s3.client })});
       let gets = 0;
       const dying = { ...storage, async getFile(key, file) {
         if (++gets === ${killAt}) {
           writeFileSync(file, "half"); // a download cut off midway
           process.kill(process.pid, "SIGKILL");
         }
         return storage.getFile(key, file);
       } };
       await pullState({ storage: dying, stateRoot: ${JSON.stringify(folder("C"))}, logger: silentLogger, concurrency: 1 });`,
    ]);
    expect(killed.signal).toBe("SIGKILL");
    expect(objectsOf(await listStateFiles(folder("C"))).length).toBe(killAt - 1);
    const temps = async () =>
      (await readdir(folder("C"), { recursive: true })).filter((name) => name.endsWith(".tmp"));
    expect(await temps()).toHaveLength(1);
    expect(existsSync(path.join(folder("C"), "warehouse.duckdb"))).toBe(false);

    const again = await projintel("state", "pull", "--remote", REMOTE, "--state-dir", folder("C"));
    expect(summaryNumber(again.stdout, "downloaded")).toBe(total - (killAt - 1));
    expect(summaryNumber(again.stdout, "present")).toBe(killAt - 1);
    expect(await temps()).toEqual([]);
    const files = await listStateFiles(folder("C"));
    expect(objectsOf(files)).toEqual(Object.keys(index.objects));
    for (const file of files.filter((f) => packOf(f.rel) === undefined))
      expect(await sha256File(file.file)).toBe(index.objects[file.rel]?.sha256);
    expect(await historyNights(path.join(folder("C"), "history"))).toEqual([DAY1, DAY2]);
    expect(existsSync(path.join(folder("C"), "warehouse.duckdb"))).toBe(true);
  }, 240_000);

  it("a push of a folder the bucket already holds uploads nothing and leaves the index as it was", async () => {
    const before = String(await bucket.get(STATE_INDEX_KEY));
    const fromB = await projintel("state", "push", "--remote", REMOTE, "--state-dir", folder("B"));
    expect(summaryNumber(fromB.stdout, "uploaded")).toBe(0);
    // C pulled everything; without its hash cache every file is hashed again, and still nothing differs
    await rm(path.join(folder("C"), "state-sync.json"));
    const fromC = await projintel("state", "push", "--remote", REMOTE, "--state-dir", folder("C"));
    expect(summaryNumber(fromC.stdout, "uploaded")).toBe(0);
    expect(summaryNumber(fromC.stdout, "unchanged")).toBe(Object.keys((await remoteIndex()).objects).length);
    expect(String(await bucket.get(STATE_INDEX_KEY))).toBe(before);
  }, 240_000);

  it("refuses to pull without a remote, naming what to set", async () => {
    const result = await run(process.execPath, [BIN, "state", "pull", "--state-dir", folder("D")]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      "No remote to pull the state from: --remote is not given and PROJINTEL_REMOTE is not set.",
    );
    expect(result.stderr).toContain(
      "Pass --remote s3://<bucket>/<prefix> (or a folder), or set PROJINTEL_REMOTE.",
    );
  }, 30_000);
});
