// The durable state's files in a state folder, and their sha256 remembered by size and modification time
// (<state>/state-sync.json), so a push hashes only what changed since the last pull or push — not a year of history.
// What is durable state: see STATE_FILES.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { readTextIfExists, writeJsonAtomic } from "../../core/files.ts";
import { compareKeys, sha256File } from "../../core/storage.ts";

/**
 * What the next night reads that nothing else can give back, by path under the state folder: the history (the
 * warehouse is rebuilt from it — tracked repositories, refresh tiers and lifecycle candidates included — and from
 * the latest night's kept tables, history/kept/), the ETag
 * cache, the repository names other sources linked (GitHub seeds them on the next nights), each run's report and the
 * latest warehouse snapshot (state-snapshot.ts: a restore starts from it and the history's nights after it).
 * Not the warehouse, keys, quotas, the server secret, releases or collection batches.
 */
/**
 * A warehouse snapshot's files (state-snapshot.ts): its night, and a table's file (one per month for MONTHLY_TABLES)
 * or its manifest.
 */
export const SNAPSHOT_FILE =
  /^warehouse-snapshot\/(\d{4}-\d{2}-\d{2})\/([a-z_]+(?:\.\d{4}-\d{2})?\.parquet|manifest\.json)$/;

export const STATE_FILES: readonly RegExp[] = [
  /^history\/[A-Za-z0-9_/]+\/(run_date|date)=\d{4}-\d{2}-\d{2}\/data\.parquet$/,
  /^history\/kept\/[a-z_]+\/data\.parquet$/,
  /^etags\/[0-9a-f]{2}\/[0-9a-f]{62}\.json$/,
  /^seeds\/linked\/\d{4}-\d{2}-\d{2}\.[A-Za-z0-9_.-]+\.txt$/,
  /^runs\/\d{4}-\d{2}-\d{2}\/manifest\.json$/,
  SNAPSHOT_FILE,
];

/** The folders STATE_FILES live in (walked to list them); runs/ is read one level deep, never its batches. */
const WALKED = ["history", "etags", "seeds/linked", "warehouse-snapshot"];

export const isStateFile = (rel: string) => STATE_FILES.some((pattern) => pattern.test(rel));

export interface LocalFile {
  /** Posix path under the state folder, e.g. history/snapshots/date=2026-11-15/data.parquet. */
  rel: string;
  file: string;
  bytes: number;
  mtimeMs: number;
}

/** Every durable-state file of the folder, sorted by path; temp files of killed writers are never listed. */
export async function listStateFiles(stateRoot: string): Promise<LocalFile[]> {
  const rels: string[] = [];
  for (const dir of WALKED) {
    const names = await readdir(path.join(stateRoot, dir), { recursive: true }).catch(ifMissing([]));
    rels.push(...names.map((name) => `${dir}/${name.split(path.sep).join("/")}`));
  }
  const nights = await readdir(path.join(stateRoot, "runs")).catch(ifMissing([]));
  rels.push(...nights.map((night) => `runs/${night}/manifest.json`));
  const files = await Promise.all(
    rels.filter(isStateFile).map(async (rel) => {
      const file = localPath(stateRoot, rel);
      const info = await stat(file).catch(ifMissing(undefined));
      return info?.isFile() ? { rel, file, bytes: info.size, mtimeMs: info.mtimeMs } : undefined;
    }),
  );
  return files.filter((f) => f !== undefined).sort((a, b) => compareKeys(a.rel, b.rel));
}

export const localPath = (stateRoot: string, rel: string) => path.join(stateRoot, ...rel.split("/"));

const cacheSchema = z.object({
  files: z.record(
    z.string(),
    z.object({ bytes: z.number(), mtime_ms: z.number(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  ),
});

export interface HashCache {
  /** The file's sha256: remembered when its size and modification time are unchanged, else computed. */
  hash(file: LocalFile): Promise<string>;
  /** Records a hash known another way (a download verified against the remote index). */
  remember(file: LocalFile, sha256: string): void;
  save(): Promise<void>;
}

/** The hash cache of a state folder; a missing or damaged cache file is an empty cache (everything is hashed). */
export async function openHashCache(stateRoot: string): Promise<HashCache> {
  const file = path.join(stateRoot, "state-sync.json");
  const text = await readTextIfExists(file);
  // only a cache: a damaged one costs one hash of every file
  const entries = new Map(Object.entries(parseCache(text)?.files ?? {}));
  const remember = (f: LocalFile, sha256: string) =>
    entries.set(f.rel, { bytes: f.bytes, mtime_ms: f.mtimeMs, sha256 });
  return {
    async hash(f) {
      const known = entries.get(f.rel);
      if (known && known.bytes === f.bytes && known.mtime_ms === f.mtimeMs) return known.sha256;
      const sha256 = await sha256File(f.file);
      remember(f, sha256);
      return sha256;
    },
    remember,
    async save() {
      const files = Object.fromEntries([...entries].sort(([a], [b]) => compareKeys(a, b)));
      await writeJsonAtomic(file, { files });
    },
  };
}

function parseCache(text: string | undefined): z.infer<typeof cacheSchema> | undefined {
  if (text === undefined) return undefined;
  try {
    return cacheSchema.safeParse(JSON.parse(text)).data;
  } catch (error) {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  }
}

function ifMissing<T>(value: T): (error: NodeJS.ErrnoException) => T {
  return (error) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return value;
    throw error;
  };
}
