// A release of a small simulated world, built once and shared by every test that needs real data behind the
// API (route tests, the contract test, the browser test): 300 repositories replayed over 10 nights by the real
// pipeline, then published. Built once for the code and data that make it (test/shared-build.ts), copied per file,
// or once per test process for the files that only read it (sharedSimRelease, sharedSimApp).
import path from "node:path";
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
import { copyPerProcess, privateCopy, removeCopy, sharedBuild } from "./shared-build.ts";

/**
 * What the release is made of: a change to any of these files builds it again. The nightly's composition replays the
 * nights, and the methodology document quotes the reality check's and the backtest's stored results.
 */
const INPUTS = [
  "core",
  "nightly",
  "pipeline",
  "publish",
  "schemas",
  "sim",
  "data",
  "bench/results/reality-check.json",
  "bench/results/backtest.json",
];
export const SIM_RELEASE_DATE = "2026-11-20";
/** Nights replayed; the registries (and every source besides GitHub's) are read on the last only. */
export const SIM_RELEASE_NIGHTS = 10;
const REPOS = 300;

export interface SimRelease {
  /** A private copy of the state folder: warehouse.duckdb, releases/, public/, history/. */
  stateDir: string;
  config: Config;
  cleanup(): Promise<void>;
}

/** A fresh copy of the shared release's state folder, for one test file. */
export async function simRelease(): Promise<SimRelease> {
  const shared = await sharedBuild("sim-release", INPUTS, build);
  const stateDir = await privateCopy(shared, "sim-release-");
  const config = loadConfig({ overrides: { stateDir, port: 0, quota: { anonymous: 1_000_000 } } });
  return { stateDir, config, cleanup: () => removeCopy(stateDir) };
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

async function build(stateDir: string): Promise<void> {
  const first = new Date(Date.parse(SIM_RELEASE_DATE) - (SIM_RELEASE_NIGHTS - 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
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
      nights: SIM_RELEASE_NIGHTS,
      force: true,
    });
  } finally {
    db.close();
    await sim.close();
  }
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
  return openSimApp(await simRelease());
}

let processApp: Promise<SimApp> | undefined;

/**
 * One copy of the shared release per test process, for the test files that only read its state folder: each copied
 * the release's 2,900 files for itself before. Copied at the first call, removed when the process ends
 * (copyPerProcess); `cleanup` does nothing. A file that writes into the folder (a publish, a night moved on, a server
 * keeping its quotas and secret there) takes simRelease().
 */
export const sharedSimRelease: () => Promise<SimRelease> = copyPerProcess(simRelease, (r) => r.stateDir);

/**
 * The shim over the process's copy (sharedSimRelease), for a test file that only reads: GET requests under a quota
 * no file reaches (1,000,000), nothing that changes the app or the release. The file gets its own connection to the
 * warehouse, and `close` closes that connection only; the app serves the process's next file.
 */
export async function sharedSimApp(): Promise<SimApp> {
  processApp ??= sharedSimRelease()
    .then(openSimApp)
    .catch((error) => {
      processApp = undefined;
      throw error;
    });
  const app = await processApp;
  const db = await app.db.fork();
  return { ...app, db, close: async () => db.close() };
}

async function openSimApp(release: SimRelease): Promise<SimApp> {
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
