// Writes a release's files to storage with bounded concurrency, recording size, sha256 and content type of each
// for the manifest; every object is stored with its content type, the immutable Cache-Control of a release and its
// sha256. A file whose bytes (or, for a local file, fingerprint) equal the previous release's at the same path is
// copied from it instead of written — a hard link on a local folder, a server-side copy on a bucket — so a night
// uploads only what changed; a file only the previous release holds (`carried`: a history night this folder has no
// copy of) is copied from it the same way. An object an interrupted publish of this release already stored with the
// same sha256 is kept as it is (resume). `write` waits when enough writes are in flight, so rendering never runs far
// ahead of the storage. Large local files are streamed (in parts on a bucket), never read whole.
import { createHash } from "node:crypto";
import { stat } from "node:fs/promises";
import mime from "mime-types";
import { AppError } from "../core/errors.ts";
import type { Progress } from "../core/progress.ts";
import { compareKeys, type Storage, sha256File } from "../core/storage.ts";
import { type ManifestFile, RELEASE_CACHE_CONTROL } from "./layout.ts";

export interface ReleaseFile {
  /** Path inside the release. */
  path: string;
  body?: Buffer;
  /** A local file to copy in instead of `body` (large datasets). */
  file?: string;
  /** For `file`: identifies its content without reading it; equal to the previous release's → copied from it. */
  fingerprint?: string;
  /**
   * Neither `body` nor `file`: the previous release's file at the same path, copied as it is (a history night a
   * `state pull --recent` left on the remote, publish/dataset-carry.ts).
   */
  carried?: true;
  /** Defaults to the type of the path's extension. */
  contentType?: string;
  /** An encoded copy of another file (publish/compression.ts): stored and served with this Content-Encoding. */
  contentEncoding?: "gzip" | "br";
}

export interface WriterStats {
  /** Objects written (uploaded to a bucket), and their bytes. */
  written: number;
  writtenBytes: number;
  /** Objects copied unchanged from the previous release (a server-side copy on a bucket). */
  reused: number;
  reusedBytes: number;
  /** Objects an interrupted publish of this release had already stored with the right sha256: left as they are. */
  skipped: number;
  skippedBytes: number;
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

export interface ReleaseWriterOptions {
  previous?: PreviousRelease | undefined;
  /** Objects already under the release's prefix (an interrupted publish of it), path → bytes. */
  existing?: ReadonlyMap<string, number> | undefined;
  concurrency?: number;
  /** Ticked once per object stored. */
  progress?: Progress | undefined;
}

export function createReleaseWriter(
  storage: Storage,
  prefix: string,
  options: ReleaseWriterOptions = {},
): ReleaseWriter {
  const concurrency = options.concurrency ?? 16;
  const { previous, existing, progress } = options;
  const files: ManifestFile[] = [];
  const paths = new Set<string>();
  const inflight = new Set<Promise<void>>();
  const state: { failed: boolean; error: unknown } = { failed: false, error: undefined };
  const stats: WriterStats = {
    written: 0,
    writtenBytes: 0,
    reused: 0,
    reusedBytes: 0,
    skipped: 0,
    skippedBytes: 0,
  };

  /** The object an interrupted publish left at `key` has the entry's size and sha256. */
  async function alreadyStored(file: ReleaseFile, entry: ManifestFile): Promise<boolean> {
    if (existing?.get(file.path) !== entry.bytes) return false;
    return (await storage.stat(`${prefix}${file.path}`))?.sha256 === entry.sha256;
  }

  async function measure(file: ReleaseFile, entry: ManifestFile): Promise<void> {
    const local = file.file as string;
    Object.assign(entry, { bytes: (await stat(local)).size, sha256: await sha256File(local) });
  }

  async function store(file: ReleaseFile, entry: ManifestFile): Promise<void> {
    const key = `${prefix}${file.path}`;
    const before = previous?.files.get(file.path);
    if (file.carried) return carry(file, entry, before);
    const sameFile = before?.fingerprint !== undefined && before.fingerprint === file.fingerprint;
    if (sameFile) Object.assign(entry, { bytes: before.bytes, sha256: before.sha256 });
    else if (file.body === undefined) await measure(file, entry);
    // unchanged: the same sha256 (a local file's fingerprint saying so without reading it)
    const same =
      before !== undefined && before.content_type === entry.content_type && before.sha256 === entry.sha256;
    if (await alreadyStored(file, entry)) {
      stats.skipped++;
      stats.skippedBytes += entry.bytes;
      return;
    }
    if (same && (await storage.copy(`${previous?.prefix}${file.path}`, key))) {
      stats.reused++;
      stats.reusedBytes += entry.bytes;
      return;
    }
    const put = {
      contentType: entry.content_type,
      cacheControl: RELEASE_CACHE_CONTROL,
      ...(file.contentEncoding !== undefined ? { contentEncoding: file.contentEncoding } : {}),
    };
    if (file.body !== undefined) {
      await storage.put(key, file.body, { ...put, sha256: entry.sha256 });
    } else {
      if (sameFile) await measure(file, entry); // the previous release had lost it: what is uploaded is measured
      await storage.putFile(key, file.file as string, { ...put, sha256: entry.sha256 });
    }
    stats.written++;
    stats.writtenBytes += entry.bytes;
  }

  /** A file only the previous release holds: copied from it, its size and sha256 as the previous manifest says. */
  async function carry(
    file: ReleaseFile,
    entry: ManifestFile,
    before: ManifestFile | undefined,
  ): Promise<void> {
    const lost = (what: string) =>
      new AppError(`${file.path} is not in this folder's history, and ${what}.`, {
        hint: "Restore the whole history (projintel state pull, without --recent) and publish again.",
        stage: "publish",
      });
    if (previous === undefined || before === undefined) throw lost("the previous release does not list it");
    Object.assign(entry, {
      bytes: before.bytes,
      sha256: before.sha256,
      content_type: before.content_type,
      ...(before.fingerprint !== undefined ? { fingerprint: before.fingerprint } : {}),
    });
    if (await alreadyStored(file, entry)) {
      stats.skipped++;
      stats.skippedBytes += entry.bytes;
      return;
    }
    if (!(await storage.copy(`${previous.prefix}${file.path}`, `${prefix}${file.path}`)))
      throw lost(`the previous release ${previous.prefix} lists it but no longer holds it`);
    stats.reused++;
    stats.reusedBytes += entry.bytes;
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
        ...(file.contentEncoding !== undefined ? { content_encoding: file.contentEncoding } : {}),
        ...(file.fingerprint !== undefined ? { fingerprint: file.fingerprint } : {}),
      };
      files.push(entry);
      const task = store(file, entry).then(
        () => {
          inflight.delete(task);
          progress?.tick();
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
