// Test helpers for the shim: the fixture warehouse's release in a temp folder of the test's own (published once for
// every file) and an app over it, with a clock the test can move.
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import type { Clock } from "../core/clock.ts";
import { type ConfigInput, loadConfig } from "../core/config.ts";
import { createLocalStorage, type Storage } from "../core/storage.ts";
import { publishRelease } from "../publish/release.ts";
import { FIXTURE_ROWS, type FixtureRow, fixtureDb } from "../publish/testing.ts";
import { copyPerProcess, privateCopy, removeCopy, sharedBuild } from "../test/shared-build.ts";
import { buildApp } from "./app.ts";
import type { KeyVerifier } from "./caller.ts";
import { openEmbeddedQuotaStore, type QuotaStore } from "./quota/quota.ts";
import { openReleaseReader, type ReleaseReader } from "./release-reader.ts";

/** A clock the test sets: `clock.set("2026-03-03T00:00:00Z")`. */
export function movableClock(start: string): Clock & { set(at: string): void } {
  let now = new Date(start);
  return { now: () => new Date(now.getTime()), set: (at) => (now = new Date(at)) };
}

export interface Fixture {
  root: string;
  storage: Storage;
  /** Publishes `rows` as a new release created at `createdAt`. */
  publish(rows?: readonly FixtureRow[], createdAt?: string): Promise<string>;
  cleanup(): Promise<void>;
}

/** What the fixture's first release is made of: a change to any of these folders publishes it again. */
// the methodology document it publishes quotes the reality check's and the backtest's stored results
const FIXTURE_INPUTS = [
  "core",
  "pipeline",
  "publish",
  "schemas",
  "data",
  "bench/results/reality-check.json",
  "bench/results/backtest.json",
];
const FIXTURE_CREATED_AT = "2026-03-02T03:15:00Z";

/**
 * A state folder of its own holding the fixture's release (FIXTURE_ROWS published at FIXTURE_CREATED_AT): a copy of
 * one real publish shared by every test file (test/shared-build.ts), instead of a publish per file.
 */
export async function publishedFixture(): Promise<Fixture> {
  const shared = await sharedBuild("shim-fixture", FIXTURE_INPUTS, async (dir) => {
    await fixtureIn(dir).publish();
  });
  return fixtureIn(await privateCopy(shared, "shim-"));
}

/**
 * The fixture's release in one folder per test process, for the files that only read it (an app, reader and quotas
 * of their own over it; no publish, no server keeping its quotas or keys there): copied at the first call, removed
 * when the process ends (copyPerProcess); `cleanup` does nothing and `publish` must not be called. A file that
 * publishes or starts a server takes publishedFixture().
 */
export const sharedPublishedFixture: () => Promise<Fixture> = copyPerProcess(publishedFixture, (f) => f.root);

function fixtureIn(root: string): Fixture {
  const storage = createLocalStorage(root, { syncObjects: false });
  const config = loadConfig({ overrides: { stateDir: root } });
  return {
    root,
    storage,
    async publish(rows = FIXTURE_ROWS, createdAt = FIXTURE_CREATED_AT) {
      const db = await fixtureDb(rows);
      try {
        const created = new Date(createdAt);
        const report = await publishRelease({
          db,
          storage,
          config,
          clock: { now: () => created },
          force: true,
        });
        return report.releaseId;
      } finally {
        db.close();
      }
    },
    cleanup: () => removeCopy(root),
  };
}

export interface TestApp {
  app: FastifyInstance;
  release: ReleaseReader;
  quotas: QuotaStore;
  close(): Promise<void>;
}

export async function testApp(
  fixture: Fixture,
  options: { clock: Clock; config?: ConfigInput; quotas?: QuotaStore; keys?: KeyVerifier },
): Promise<TestApp> {
  const release = await openReleaseReader({ storage: fixture.storage, checkEveryMs: 0 });
  const quotas = options.quotas ?? (await openEmbeddedQuotaStore());
  const config = loadConfig({ overrides: { stateDir: fixture.root, ...options.config } });
  const app = buildApp({
    config,
    release,
    quotas,
    clock: options.clock,
    ...(options.keys ? { keys: options.keys } : {}),
  });
  return {
    app,
    release,
    quotas,
    async close() {
      await app.close();
      release.close();
      await quotas.close();
    },
  };
}

/** Listens on a free loopback port (for tests speaking real HTTP or raw TCP to the app) and returns the port. */
export async function listenOnLoopback(app: FastifyInstance): Promise<number> {
  await app.listen({ host: "127.0.0.1", port: 0 });
  return (app.server.address() as AddressInfo).port;
}
