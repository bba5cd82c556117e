// The npm connector: packuments of the names tracked repositories suggest, kept when their `repository`
// links back (raw_npm_packages), then last month's downloads of the kept packages and, for packages new
// to the warehouse, a daily series of the last 30 days (raw_npm_downloads).

import { probePlan } from "../probes.ts";
import type { BatchItem, CollectContext, RawTable, Source } from "../types.ts";
import { chunk, inOrder } from "../window.ts";
import { type DownloadsRequest, downloadRequests, fetchDownloads } from "./downloads.ts";
import { candidatesOf, lookUpPackage } from "./packages.ts";
import { type NpmPayload, toRows } from "./rows.ts";

const PACKAGES = "raw_npm_packages" satisfies RawTable;
const DOWNLOADS = "raw_npm_downloads" satisfies RawTable;
/** Candidate names looked up per batch file (two per repository). */
export const NAMES_PER_BATCH = 100;
/** Downloads requests per batch file: up to 8 × 128 names. */
export const REQUESTS_PER_BATCH = 8;
const BATCHES_AT_ONCE = 2;

export const batchId = (table: string, k: number) => `${table}.${String(k).padStart(5, "0")}`;

async function* packuments(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const byName = candidatesOf(ctx.repos);
  const plan = await probePlan(ctx, PACKAGES, "package");
  const due = [...byName.keys()].filter((name) => plan.due(name, byName.get(name) ?? []));
  const chunks = chunk(due.sort(), NAMES_PER_BATCH);
  yield* inOrder(chunks, BATCHES_AT_ONCE, async (names, k): Promise<BatchItem> => {
    const id = batchId(PACKAGES, k);
    if (await ctx.batches.has("npm", id)) return { id, resumed: true };
    const found = await Promise.all(names.map((name) => lookUpPackage(ctx, name, byName.get(name) ?? [])));
    return { id, table: PACKAGES, rows: found.flat() };
  });
}

/** The packages kept in this run, from the batch files (so a resumed run sees them too). */
async function keptPackages(ctx: CollectContext): Promise<string[]> {
  const names = new Set<string>();
  for (const id of await ctx.batches.list("npm", `${PACKAGES}.`)) {
    for (const row of await ctx.batches.read<{ package: string }>("npm", id)) names.add(row.package);
  }
  return [...names].sort();
}

/** Days of daily downloads fetched for a package new to the warehouse, so its deltas exist from day one. */
export const NEW_PACKAGE_DAYS = 30;

/** Kept packages with no row in an earlier run (none without history, e.g. in hand-made contexts). */
async function newPackages(ctx: CollectContext, kept: readonly string[]): Promise<string[]> {
  if (!ctx.history || kept.length === 0) return [];
  const known = new Set((await ctx.history.latest(PACKAGES, "package", [], kept)).map((r) => r.package));
  return kept.filter((name) => !known.has(name));
}

/** Last month's total for every kept package, and a daily series for the new ones. */
export async function downloadsPlan(ctx: CollectContext): Promise<DownloadsRequest[]> {
  const kept = await keptPackages(ctx);
  const day = (offset: number) => new Date(Date.parse(`${ctx.runDate}T00:00:00Z`) + offset * 86_400_000);
  const start = day(-NEW_PACKAGE_DAYS).toISOString().slice(0, 10);
  const end = day(-1).toISOString().slice(0, 10);
  return [
    ...downloadRequests(kept).map((names): DownloadsRequest => ({ kind: "point", names })),
    ...downloadRequests(await newPackages(ctx, kept)).map(
      (names): DownloadsRequest => ({ kind: "range", names, start, end }),
    ),
  ];
}

async function* downloads(ctx: CollectContext): AsyncGenerator<BatchItem> {
  const chunks = chunk(await downloadsPlan(ctx), REQUESTS_PER_BATCH);
  yield* inOrder(chunks, 1, async (requests, k): Promise<BatchItem> => {
    const id = batchId(DOWNLOADS, k);
    if (await ctx.batches.has("npm", id)) return { id, resumed: true };
    const rows = await Promise.all(requests.map((request) => fetchDownloads(ctx, request)));
    return { id, table: DOWNLOADS, rows: rows.flat() };
  });
}

async function* collect(ctx: CollectContext): AsyncGenerator<BatchItem> {
  yield* packuments(ctx);
  yield* downloads(ctx);
}

export const npm: Source<NpmPayload> = {
  name: "npm",
  tables: [PACKAGES, DOWNLOADS],
  needs: ["github"],
  collect,
  toRows,
};
