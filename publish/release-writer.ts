// Writes a release's files to storage with bounded concurrency, recording size and sha256 of each for the
// manifest. `write` waits when enough writes are in flight, so rendering never runs far ahead of the disk.
import { createHash } from "node:crypto";
import type { ManifestFile } from "./layout.ts";
import { compareKeys, type Storage } from "./storage.ts";

export interface ReleaseWriter {
  write(path: string, body: Buffer): Promise<void>;
  /** Waits for every write; rejects with the first failure. Returns the files sorted by path. */
  finish(): Promise<ManifestFile[]>;
}

export function createReleaseWriter(storage: Storage, prefix: string, concurrency = 16): ReleaseWriter {
  const files: ManifestFile[] = [];
  const paths = new Set<string>();
  const inflight = new Set<Promise<void>>();
  const state: { failed: boolean; error: unknown } = { failed: false, error: undefined };

  return {
    async write(path, body) {
      if (state.failed) throw state.error;
      if (paths.has(path)) throw new Error(`Release file ${path} was rendered twice.`);
      paths.add(path);
      files.push({ path, bytes: body.length, sha256: createHash("sha256").update(body).digest("hex") });
      const task = storage.put(`${prefix}${path}`, body).then(
        () => {
          inflight.delete(task);
        },
        (error: unknown) => {
          inflight.delete(task);
          if (!state.failed) Object.assign(state, { failed: true, error });
        },
      );
      inflight.add(task);
      if (inflight.size >= concurrency) await Promise.race(inflight);
      if (state.failed) throw state.error;
    },
    async finish() {
      await Promise.all(inflight);
      if (state.failed) throw state.error;
      return files.sort((a, b) => compareKeys(a.path, b.path));
    },
  };
}

export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}
