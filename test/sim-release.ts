// A release of a small simulated world, built once and shared by every test that needs real data behind the
// API (route tests, the contract test, the browser test): 300 repositories replayed over 10 nights by the real
// pipeline, then published. Built into a folder under the OS temp dir named after a hash of the code and data
// that make it, under a lock, so parallel test files build it once and a changed pipeline builds it afresh.
import { createHash } from "node:crypto";
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { buildApp } from "../api-shim/app.ts";
import { openEmbeddedQuotaStore } from "../api-shim/quota/quota.ts";
import { openReleaseReader } from "../api-shim/release-reader.ts";
import { type Config, loadConfig } from "../core/config.ts";
import { type Db, openDb } from "../core/db.ts";
import { silentLogger } from "../core/log.ts";
import { createLocalStorage } from "../core/storage.ts";
import { replayNights } from "../nightly/replay.ts";
import { publishPublicDb } from "../pipeline/public-db.ts";
import { SOURCES } from "../pipeline/sources/index.ts";
import { startSimServer } from "../sim/index.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What the release is made of: a change to any of these files builds it again. */
const INPUTS = ["core", "pipeline", "publish", "schemas", "sim", "data"];
export const SIM_RELEASE_DATE = "2026-11-20";
const NIGHTS = 10;
const REPOS = 300;

export interface SimRelease {
  /** A private copy of the state folder: warehouse.duckdb, releases/, public/, history/. */
  stateDir: string;
  config: Config;
  cleanup(): Promise<void>;
}

/** A fresh copy of the shared release's state folder, for one test file. */
export async function simRelease(): Promise<SimRelease> {
  const shared = await sharedState();
  const stateDir = await mkdtemp(path.join(os.tmpdir(), "sim-release-"));
  await cp(shared, stateDir, { recursive: true });
  const config = loadConfig({ overrides: { stateDir, port: 0, quota: { anonymous: 1_000_000 } } });
  return { stateDir, config, cleanup: () => rm(stateDir, { recursive: true, force: true }) };
}

/**
 * Moves a copied state folder's scores one night on (run_date + 1 in score_quality and projects) and builds that
 * night's public database, keeping `served`'s: what the next night's publish reads. Returns the new run date.
 */
export async function advanceNight(stateDir: string, served: string): Promise<string> {
  const next = new Date(Date.parse(served) + 86_400_000).toISOString().slice(0, 10);
  const db = await openDb(path.join(stateDir, "warehouse.duckdb"));
  try {
    await db.run("UPDATE score_quality SET run_date = run_date + 1");
    await db.run("UPDATE projects SET run_date = run_date + 1");
    await publishPublicDb({ db, stateRoot: stateDir, runDate: next, keepRunDates: [served] });
  } finally {
    db.close();
  }
  return next;
}

async function sharedState(): Promise<string> {
  const dir = path.join(os.tmpdir(), `projintel-sim-release-${await inputsHash()}`);
  const done = path.join(dir, "state");
  if (await exists(done)) return done;
  const lock = `${dir}.lock`;
  // mkdir is atomic: whoever makes the lock builds; the others wait for the result
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      if (await exists(done)) return done;
      await new Promise((resolve) => setTimeout(resolve, 500));
      const age = Date.now() - (await stat(lock).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs;
      if (age > 10 * 60_000) await rm(lock, { recursive: true, force: true }); // a builder that died
    }
  }
  try {
    if (await exists(done)) return done;
    const building = path.join(dir, `building-${process.pid}`);
    await rm(building, { recursive: true, force: true });
    await mkdir(building, { recursive: true });
    await build(building);
    await rename(building, done);
    return done;
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

async function build(stateDir: string): Promise<void> {
  const first = new Date(Date.parse(SIM_RELEASE_DATE) - (NIGHTS - 1) * 86_400_000).toISOString().slice(0, 10);
  const sim = await startSimServer({ repos: REPOS, seed: 7, date: first, anchor: first, port: 0 });
  const overrides = (discovery: "off" | "full", restBudget: number) => ({
    stateDir,
    simUrl: sim.url,
    github: { restBudget, statsRetryMs: 200, discovery },
    publish: { canonicalPages: true },
  });
  const db = await openDb(path.join(stateDir, "warehouse.duckdb"));
  try {
    await replayNights({
      config: loadConfig({ overrides: overrides("full", 800) }),
      earlierConfig: loadConfig({ overrides: overrides("off", 100) }),
      earlierSources: SOURCES.filter((s) => s.name === "github" || s.name === "github_rest"),
      db,
      logger: silentLogger,
      nights: NIGHTS,
      force: true,
    });
  } finally {
    db.close();
    await sim.close();
  }
}

async function inputsHash(): Promise<string> {
  const hash = createHash("sha256");
  const walk = async (dir: string): Promise<void> => {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (!entry.name.endsWith(".test.ts")) hash.update(entry.name).update(await readFile(full));
    }
  };
  for (const input of INPUTS) await walk(path.join(ROOT, input));
  return hash.digest("hex").slice(0, 16);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

export interface SimApp {
  app: FastifyInstance;
  /** The warehouse the release was rendered from, read-only: the independent path to expected values. */
  db: Db;
  runDate: string;
  /** The private state folder the app serves (for the CLI). */
  stateDir: string;
  /** GET through app.inject(): the status, the body parsed as JSON and as text. */
  // biome-ignore lint/suspicious/noExplicitAny: a test reads whatever JSON it asked for, as light-my-request's json() does
  get(url: string): Promise<{ status: number; body: any; text: string }>;
  /** Asserts a GET is refused with 422 and `code`, its message containing `message`. */
  expectRefused(url: string, code: string, message: string): Promise<void>;
  close(): Promise<void>;
}

/** The shim over a private copy of the shared release, answering through app.inject(). */
export async function simApp(): Promise<SimApp> {
  const release = await simRelease();
  const storage = createLocalStorage(release.stateDir, { syncObjects: false });
  const reader = await openReleaseReader({ storage, checkEveryMs: 0 });
  const quotas = await openEmbeddedQuotaStore();
  const app = buildApp({ config: release.config, release: reader, quotas });
  const db = await openDb(path.join(release.stateDir, "warehouse.duckdb"), { readOnly: true });
  return {
    app,
    db,
    runDate: reader.current()?.run_date ?? "",
    stateDir: release.stateDir,
    async get(url) {
      const res = await app.inject({ url });
      return { status: res.statusCode, body: res.json(), text: res.body };
    },
    async expectRefused(url, code, message) {
      const res = await app.inject({ url });
      const error = (res.json() as { detail?: { error?: { code: string; message: string } } }).detail?.error;
      expect([res.statusCode, error?.code], url).toEqual([422, code]);
      expect(error?.message, url).toContain(message);
    },
    async close() {
      await app.close();
      reader.close();
      await quotas.close();
      db.close();
      await release.cleanup();
    },
  };
}
