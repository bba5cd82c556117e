// A CollectContext for connector tests over real sockets (a local server or the simulator): real HTTP
// client and batch store, frozen clock, no sleeping, skips and quarantined payloads recorded for asserts.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { ZodError } from "zod";
import { fixedClock } from "../../core/clock.ts";
import { loadConfig } from "../../core/config.ts";
import { openDb } from "../../core/db.ts";
import { silentLogger } from "../../core/log.ts";
import type { World } from "../../sim/index.ts";
import { openBatchStore } from "../collect/batches.ts";
import { createHttpClient } from "../collect/http.ts";
import { loadBatches } from "../collect/load.ts";
import type { BatchItem, CollectContext, RepoRef, Source } from "./types.ts";
import { sourceUrls } from "./urls.ts";

export interface TestContext {
  ctx: CollectContext;
  skipped: () => number;
  quarantined: { url: string; error: ZodError }[];
  slept: number[];
}

export function testContext(options: {
  stateDir: string;
  runDate: string;
  /** Base URLs of the sources under test, merged over the configured ones. */
  urls: Record<string, string>;
  repos: readonly RepoRef[];
  simulated?: boolean;
  /** HTTP retries (default none); waits are recorded, never slept. */
  retries?: number;
}): TestContext {
  const config = loadConfig({ overrides: { stateDir: options.stateDir } });
  let skipped = 0;
  const quarantined: TestContext["quarantined"] = [];
  const slept: number[] = [];
  const ctx: CollectContext = {
    config,
    urls: Object.assign(sourceUrls(config), options.urls, { simulated: options.simulated ?? false }),
    http: createHttpClient({
      userAgent: "test",
      timeoutMs: 10_000,
      retries: options.retries ?? 0,
      perHostConcurrency: 8,
      maxRetryWaitMs: 3_600_000,
      sleep: async () => {},
      random: () => 0.5,
    }),
    logger: silentLogger,
    clock: fixedClock(`${options.runDate}T04:00:00Z`),
    sleep: async (ms) => void slept.push(ms),
    runDate: options.runDate,
    batches: openBatchStore(options.stateDir, options.runDate),
    repos: options.repos,
    count: (what, n = 1) => {
      if (what === "skipped") skipped += n;
    },
    quarantine: async (url, _payload, error) => void quarantined.push({ url, error }),
  };
  return { ctx, skipped: () => skipped, quarantined, slept };
}

/** Runs a source's collect the way pipeline/collect.ts does: each fetched batch is written before the next. */
export async function runCollect(source: Source, ctx: CollectContext): Promise<BatchItem[]> {
  const items: BatchItem[] = [];
  try {
    for await (const item of source.collect(ctx)) {
      if ("rows" in item) await ctx.batches.write(source.name, item.id, item.rows);
      items.push(item);
    }
  } finally {
    ctx.http.close();
  }
  return items;
}

/** The rows of every fetched batch whose id starts with `prefix`, in order. */
export function rowsOf(items: readonly BatchItem[], prefix: string): Record<string, unknown>[] {
  return items.flatMap((item) => (item.id.startsWith(prefix) && "rows" in item ? item.rows : [])) as Record<
    string,
    unknown
  >[];
}

/**
 * Loads rows into their raw table through the real loader (DDL, DESCRIBE, read_json) in a fresh in-memory
 * database and returns the table's column names and the loaded rows as DuckDB gives them back.
 */
export async function loadRows(
  table: string,
  rows: readonly object[],
): Promise<{ columns: string[]; loaded: Record<string, unknown>[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), "load-rows-"));
  const db = await openDb(":memory:");
  try {
    const file = path.join(dir, "rows.ndjson");
    await writeFile(file, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
    await loadBatches(db, String((rows[0] as { run_date?: string })?.run_date), [{ table, files: [file] }]);
    const columns = (await db.all<{ column_name: string }>(`DESCRIBE ${table}`)).map((c) => c.column_name);
    return { columns, loaded: await db.all(`SELECT * FROM ${table}`) };
  } finally {
    db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Every repository of a simulated world as the tracked set a connector is handed (node id = world index). */
export function simRepoRefs(world: World): RepoRef[] {
  return Array.from({ length: world.size }, (_, i) => ({
    node_id: String(i),
    full_name: world.fullName(i),
    owner: world.ownerLogin(world.ownerOf(i)),
    name: world.repoName(i),
  }));
}
