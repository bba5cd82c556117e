// ETags and bodies kept across runs under <stateDir>/etags/, so the next night's request for an unchanged
// resource is conditional and its 304 costs nothing against the source's rate limit. One file per URL,
// named by the SHA-256 of the URL in 256 sub-folders, written atomically; a damaged file is a cache miss.
import { createHash } from "node:crypto";
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
