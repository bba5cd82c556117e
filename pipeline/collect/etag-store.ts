// ETags and bodies kept across runs under <stateDir>/etags/, so the next night's request for an unchanged
// resource is conditional and its 304 costs nothing against the source's rate limit. One file per URL,
// named by the SHA-256 of the URL in 256 sub-folders, written atomically; a damaged file is a cache miss.
import { createHash } from "node:crypto";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { readTextIfExists, writeFileAtomic } from "../../core/files.ts";
import type { EtagStore } from "./http.ts";

export function fileEtagStore(dir: string): EtagStore {
  const file = (url: string) => {
    const hash = createHash("sha256").update(url).digest("hex");
    return path.join(dir, hash.slice(0, 2), `${hash.slice(2)}.json`);
  };
  return {
    async get(url) {
      const text = await readTextIfExists(file(url));
      if (text === undefined) return undefined;
      try {
        const entry = JSON.parse(text) as { url?: unknown; etag?: unknown; body?: unknown };
        // A hash collision or a damaged file: not this URL's entry, so ask unconditionally.
        if (entry.url !== url || typeof entry.etag !== "string" || typeof entry.body !== "string")
          return undefined;
        return { etag: entry.etag, body: entry.body };
      } catch (error) {
        if (error instanceof SyntaxError) return undefined;
        throw error;
      }
    },
    async set(url, etag, body) {
      // No fsync: losing the last entries in a power cut only costs one unconditional request each.
      await writeFileAtomic(file(url), JSON.stringify({ url, etag, body }), { sync: false });
    },
  };
}

/**
 * The entries written at or after `sinceMs` (a collect's start), as NDJSON lines of {url, etag, body}: what a
 * collection shard hands to the scoring job, whose state push then saves them (shards never push state themselves).
 */
export async function etagEntriesSince(dir: string, sinceMs: number): Promise<string> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const lines: string[] = [];
  for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
    const file = path.join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile() || info.mtimeMs < sinceMs) continue;
    const text = await readTextIfExists(file);
    if (text !== undefined) lines.push(`${text.trim()}\n`);
  }
  return lines.join("");
}

/** Writes NDJSON entries of etagEntriesSince into a store; returns how many (damaged lines are skipped). */
export async function importEtagEntries(store: EtagStore, ndjson: string): Promise<number> {
  let count = 0;
  for (const line of ndjson.split("\n")) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as { url?: unknown; etag?: unknown; body?: unknown };
      if (typeof entry.url !== "string" || typeof entry.etag !== "string" || typeof entry.body !== "string")
        continue;
      await store.set(entry.url, entry.etag, entry.body);
      count++;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
    }
  }
  return count;
}
