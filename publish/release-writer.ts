// Writes a release's files to storage with bounded concurrency, recording size, sha256 and content type of each
// for the manifest. A file whose bytes (or, for a local file, fingerprint) equal the previous release's at the
// same path is copied from it instead of written — a hard link on a local folder — so a night rewrites only what
// changed. `write` waits when enough writes are in flight, so rendering never runs far ahead of the disk.
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import mime from "mime-types";
import { compareKeys, type Storage } from "../core/storage.ts";
import type { ManifestFile } from "./layout.ts";

export interface ReleaseFile {
  /** Path inside the release. */
  path: string;
  body?: Buffer;
  /** A local file to copy in instead of `body` (large datasets). */
  file?: string;
  /** For `file`: identifies its content without reading it; equal to the previous release's → copied from it. */
  fingerprint?: string;
  /** Defaults to the type of the path's extension. */
  contentType?: string;
}

export interface WriterStats {
  written: number;
  writtenBytes: number;
  reused: number;
  reusedBytes: number;
}

export interface ReleaseWriter {
  write(file: ReleaseFile): Promise<void>;
  /** Waits for every write; rejects with the first failure. Returns the files sorted by path. */
  finish(): Promise<ManifestFile[]>;
  readonly stats: WriterStats;
}

export interface PreviousRelease {
  prefix: string;
  files: ReadonlyMap<string, ManifestFile>;
}

export function createReleaseWriter(
  storage: Storage,
  prefix: string,
  options: { previous?: PreviousRelease | undefined; concurrency?: number } = {},
): ReleaseWriter {
  const concurrency = options.concurrency ?? 16;
  const previous = options.previous;
  const files: ManifestFile[] = [];
  const paths = new Set<string>();
  const inflight = new Set<Promise<void>>();
  const state: { failed: boolean; error: unknown } = { failed: false, error: undefined };
  const stats: WriterStats = { written: 0, writtenBytes: 0, reused: 0, reusedBytes: 0 };

  async function store(file: ReleaseFile, entry: ManifestFile): Promise<void> {
    const before = previous?.files.get(file.path);
    const same =
      before !== undefined &&
      before.content_type === entry.content_type &&
      (file.fingerprint !== undefined
        ? before.fingerprint === file.fingerprint
        : before.sha256 === entry.sha256);
    if (same && (await storage.copy(`${previous?.prefix}${file.path}`, `${prefix}${file.path}`))) {
      Object.assign(entry, { bytes: before.bytes, sha256: before.sha256 });
      stats.reused++;
      stats.reusedBytes += entry.bytes;
      return;
    }
    const body = file.body ?? (await readFile(file.file as string));
    if (file.body === undefined) Object.assign(entry, { bytes: body.length, sha256: sha256(body) });
    await storage.put(`${prefix}${file.path}`, body, { contentType: entry.content_type });
    stats.written++;
    stats.writtenBytes += body.length;
  }

  return {
    stats,
    async write(file) {
      if (state.failed) throw state.error;
      if (paths.has(file.path)) throw new Error(`Release file ${file.path} was rendered twice.`);
      paths.add(file.path);
      const entry: ManifestFile = {
        path: file.path,
        bytes: file.body?.length ?? 0,
        sha256: file.body ? sha256(file.body) : "",
        content_type: file.contentType ?? contentTypeOf(file.path),
        ...(file.fingerprint !== undefined ? { fingerprint: file.fingerprint } : {}),
      };
      files.push(entry);
      const task = store(file, entry).then(
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

/** The content type of a release path; JSON and the index files get their own. */
export function contentTypeOf(path: string): string {
  if (path.endsWith(".json")) return "application/json; charset=utf-8";
  if (path.endsWith(".idx")) return "application/octet-stream";
  if (path.endsWith(".parquet")) return "application/vnd.apache.parquet";
  const type = mime.contentType(path.slice(path.lastIndexOf("/") + 1));
  return type === false ? "application/octet-stream" : type;
}

export function sha256(bytes: Buffer | string): string {
  return createHash("sha256").update(bytes).digest("hex");
}
