// Reads the live release for the shim: follows releases/current.json (re-checked periodically and on
// reload()), loads a collection partition's records and index (or a whole file) on first use, verifies it against
// the manifest and keeps it in a cache bounded by bytes. Only releases named by the pointer are ever read. The
// storage is the state folder or a bucket (`serve --release s3://…`); a read that fails is 503, never a wrong page.
import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import { RELEASE_READER_DEFAULTS } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import type { ByteRange, Storage } from "../core/storage.ts";
import type { PartitionData } from "../publish/answer.ts";
import { decodeCollectionIndex } from "../publish/collection-index.ts";
import {
  CURRENT_KEY,
  type Manifest,
  type Pointer,
  readManifest,
  readPointer,
  releaseKey,
} from "../publish/layout.ts";
import { partitionKeys } from "../publish/render-collection.ts";
import { ApiError } from "./errors.ts";

export interface ReleaseReader {
  /** The live release's pointer, or undefined while none is published. */
  current(): Pointer | undefined;
  /** The live release's manifest. */
  manifest(): Manifest | undefined;
  /** A collection partition of the live release; throws ApiError unavailable when it cannot be read. */
  partition(collection: string, partition: string): Promise<PartitionData>;
  /** The same, synchronously, when it is already in memory (the hot path); otherwise undefined. */
  peekPartition(collection: string, partition: string): PartitionData | undefined;
  /** A file of the live release with its manifest entry; undefined when the release has no such file. */
  file(path: string): Promise<{ bytes: Buffer; entry: Manifest["files"][number] } | undefined>;
  /** The manifest entry of a file of the live release, or undefined when it has none. */
  entry(path: string): Manifest["files"][number] | undefined;
  /**
   * A file of the live release (or the inclusive byte range `range` of it): a stream from storage, never held in
   * memory, when it is larger than streamAboveBytes; a smaller one is read once, checked and cached, and its bytes
   * are given as they are (a view, no copy). Throws ApiError unavailable when the storage cannot give it.
   */
  stream(path: string, range?: ByteRange): Promise<Readable | Buffer>;
  /** Re-reads the pointer; resolves true when it now names another release. */
  reload(): Promise<boolean>;
  /** What the cache holds now: bytes of records, indexes and files against the bound, and how many entries. */
  cacheStats(): CacheStats;
  /** Stops the periodic check. */
  close(): void;
}

export interface ReleaseReaderOptions {
  storage: Storage;
  logger?: Logger;
  /** How often the pointer is re-checked; 0 turns the timer off (reload() still works). */
  checkEveryMs?: number;
  /** Most bytes of records and indexes kept in memory; least recently used domains are dropped first. */
  cacheBytes?: number;
  /** Files larger than this are streamed from storage by stream(), never held in memory; smaller ones are cached. */
  streamAboveBytes?: number;
  /**
   * Runs before a newly named release goes live (the public database of its night is downloaded); when it throws,
   * the previous release stays live and the switch is tried again at the next check.
   */
  beforeSwitch?: (pointer: Pointer, manifest: Manifest) => Promise<void>;
}

export interface CacheStats {
  bytes: number;
  limit: number;
  entries: number;
}

type Cached = PartitionData | Buffer;

interface Live {
  pointer: Pointer;
  manifest: Manifest;
  files: Map<string, Manifest["files"][number]>;
  /** Loads in flight or done ("<collection>/<partition>" or "file:<path>"), least recently used first. */
  cache: Map<string, Promise<Cached>>;
  loaded: Map<string, Cached>;
  sizes: Map<string, number>;
  bytes: number;
}

export async function openReleaseReader(options: ReleaseReaderOptions): Promise<ReleaseReader> {
  const { storage } = options;
  const logger = options.logger ?? silentLogger;
  const cacheBytes = options.cacheBytes ?? RELEASE_READER_DEFAULTS.cacheBytes;
  const streamAboveBytes = options.streamAboveBytes ?? RELEASE_READER_DEFAULTS.streamAboveBytes;
  let live: Live | undefined;
  let reloading: Promise<boolean> | undefined;

  /** One re-read at a time: the timer and a request finding a pruned file share it. */
  function reload(): Promise<boolean> {
    reloading ??= follow().finally(() => {
      reloading = undefined;
    });
    return reloading;
  }

  async function follow(): Promise<boolean> {
    const startedAt = new Date().toISOString();
    const pointer = await readPointer(storage);
    // one line per check at debug level: when it began and what it found, so a switch can be traced to its check
    logger.debug("release pointer checked", {
      started_at: startedAt,
      release_id: pointer?.release_id ?? null,
      serving: live?.pointer.release_id ?? null,
    });
    if (!pointer || pointer.release_id === live?.pointer.release_id) return false;
    const manifest = await readManifest(storage, pointer.release_id, pointer.manifest_sha256);
    if (!manifest) {
      throw new AppError(`${CURRENT_KEY} names release ${pointer.release_id}, which has no manifest.`, {
        hint: "Publish a new release with `projintel publish`; until then the previous release stays in use.",
        stage: "release",
      });
    }
    await options.beforeSwitch?.(pointer, manifest);
    const files = new Map(manifest.files.map((f) => [f.path, f]));
    live = { pointer, manifest, files, cache: new Map(), loaded: new Map(), sizes: new Map(), bytes: 0 };
    logger.info("serving release", { release_id: pointer.release_id, run_date: pointer.run_date });
    return true;
  }

  async function load(release: Live, key: string): Promise<Cached> {
    if (key.startsWith("file:")) return read(release, key.slice(5));
    const [collection = "", partition = ""] = key.split("/");
    const keys = partitionKeys(collection, partition);
    const [records, index] = await Promise.all([read(release, keys.records), read(release, keys.index)]);
    const decoded = decodeCollectionIndex(index, `${release.pointer.release_id}/${keys.index}`);
    if (decoded.offsets[decoded.count] !== records.length) {
      throw new Error(`${keys.index} does not match ${keys.records}`);
    }
    return { records, index: decoded };
  }

  async function read(release: Live, path: string): Promise<Buffer> {
    const expected = release.files.get(path);
    const bytes = expected && (await storage.get(releaseKey(release.pointer.release_id, path)));
    if (!expected || !bytes) throw new MissingFile(path);
    if (
      bytes.length !== expected.bytes ||
      createHash("sha256").update(bytes).digest("hex") !== expected.sha256
    ) {
      throw new Error(`${path} of release ${release.pointer.release_id} does not match its manifest`);
    }
    return bytes;
  }

  function remember(release: Live, key: string, data: Cached): void {
    // the decoded index (keys, search texts) takes about as much again as its file
    const size = Buffer.isBuffer(data)
      ? data.length
      : data.records.length + data.index.offsets.byteLength * 4;
    release.sizes.set(key, size);
    release.loaded.set(key, data);
    release.bytes += size;
    for (const [name] of release.cache) {
      if (release.bytes <= cacheBytes || name === key) break;
      release.cache.delete(name);
      release.loaded.delete(name);
      release.bytes -= release.sizes.get(name) ?? 0;
      release.sizes.delete(name);
    }
    logger.debug("release cache", { key, entry_bytes: size, ...cacheStats() });
  }

  function cacheStats(): CacheStats {
    return { bytes: live?.bytes ?? 0, limit: cacheBytes, entries: live?.loaded.size ?? 0 };
  }

  async function get(key: string, retried = false): Promise<Cached> {
    const release = live;
    if (!release) throw noRelease();
    const cached = release.cache.get(key);
    if (cached) {
      // Most recently used last, so eviction drops the entry unused the longest.
      release.cache.delete(key);
      release.cache.set(key, cached);
      return cached;
    }
    const loading = load(release, key);
    release.cache.set(key, loading);
    try {
      const data = await loading;
      remember(release, key, data);
      return data;
    } catch (error) {
      release.cache.delete(key);
      // The release may have been pruned after a newer one went live: follow the pointer once.
      if (error instanceof MissingFile && !retried && (await reload().catch(() => false))) {
        return get(key, true);
      }
      logger.error("cannot load release data", { key, error: String(error) });
      throw new ApiError(
        "unavailable",
        "The data for this request cannot be read right now; try again later.",
        {
          "retry-after": "60",
        },
      );
    }
  }

  await reload();
  const checkEveryMs = options.checkEveryMs ?? RELEASE_READER_DEFAULTS.checkEveryMs;
  const timer =
    checkEveryMs > 0
      ? setInterval(() => {
          reload().catch((error: unknown) =>
            logger.warn("cannot re-check the release pointer; still serving the previous release", {
              error: String(error),
            }),
          );
        }, checkEveryMs)
      : undefined;
  timer?.unref();

  function peekPartition(collection: string, partition: string): PartitionData | undefined {
    const release = live;
    const key = `${collection}/${partition}`;
    const data = release?.loaded.get(key);
    if (!release || !data || Buffer.isBuffer(data)) return undefined;
    // Most recently used last, so eviction drops the entry unused the longest.
    const loading = release.cache.get(key);
    if (loading) {
      release.cache.delete(key);
      release.cache.set(key, loading);
    }
    return data;
  }

  async function file(path: string) {
    if (!live) throw noRelease();
    const entry = live.files.get(path);
    if (!entry) return undefined;
    return { bytes: (await get(`file:${path}`)) as Buffer, entry };
  }

  async function stream(path: string, range?: ByteRange): Promise<Readable | Buffer> {
    const release = live;
    if (!release) throw noRelease();
    const entry = release.files.get(path);
    if (entry && entry.bytes <= streamAboveBytes) {
      // a small file (a document, a small dataset) is read once, checked against the manifest and kept
      const bytes = (await get(`file:${path}`)) as Buffer;
      return range ? bytes.subarray(range.start, range.end + 1) : bytes;
    }
    const key = releaseKey(release.pointer.release_id, path);
    const opened = await storage.getStream(key, range).catch((error: unknown) => {
      logger.error("cannot stream release file", { key, error: String(error) });
      return undefined;
    });
    if (opened) return opened;
    // pruned after a newer release went live: follow the pointer for the next request
    await reload().catch(() => false);
    throw new ApiError("unavailable", "This file cannot be read right now; try again later.", {
      "retry-after": "60",
    });
  }

  return {
    current: () => live?.pointer,
    manifest: () => live?.manifest,
    partition: (collection, partition) => get(`${collection}/${partition}`) as Promise<PartitionData>,
    peekPartition,
    file,
    entry: (path) => live?.files.get(path),
    stream,
    reload,
    cacheStats,
    close: () => clearInterval(timer),
  };
}

function noRelease(): ApiError {
  return new ApiError("unavailable", "No data has been published yet; try again later.", {
    "retry-after": "60",
  });
}

class MissingFile extends Error {
  constructor(path: string) {
    super(`${path} is missing from the release`);
  }
}
