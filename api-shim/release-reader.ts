// Reads the live release for the shim: follows releases/current.json (re-checked periodically and on
// reload()), loads a domain's records and slice index on first use, verifies them against the manifest
// and keeps them in a cache bounded by bytes. Only releases named by the pointer are ever read.
import { createHash } from "node:crypto";
import { AppError } from "../core/errors.ts";
import { type Logger, silentLogger } from "../core/log.ts";
import {
  CURRENT_KEY,
  type Manifest,
  type Pointer,
  readManifest,
  readPointer,
  releaseKey,
} from "../publish/layout.ts";
import { qualityKeys } from "../publish/quality.ts";
import type { QualityDomainData } from "../publish/quality-page.ts";
import { decodeSliceIndex } from "../publish/slice-index.ts";
import type { Storage } from "../publish/storage.ts";
import { ApiError } from "./errors.ts";

export interface ReleaseReader {
  /** The live release's pointer, or undefined while none is published. */
  current(): Pointer | undefined;
  /** A domain's quality data in the live release; throws ApiError unavailable when there is none. */
  quality(domain: string): Promise<QualityDomainData>;
  /** The same, synchronously, when it is already in memory (the hot path); otherwise undefined. */
  peekQuality(domain: string): QualityDomainData | undefined;
  /** Re-reads the pointer; resolves true when it now names another release. */
  reload(): Promise<boolean>;
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
}

interface Live {
  pointer: Pointer;
  files: Map<string, Manifest["files"][number]>;
  /** Loads in flight or done, least recently used first. */
  cache: Map<string, Promise<QualityDomainData>>;
  loaded: Map<string, QualityDomainData>;
  sizes: Map<string, number>;
  bytes: number;
}

export async function openReleaseReader(options: ReleaseReaderOptions): Promise<ReleaseReader> {
  const { storage } = options;
  const logger = options.logger ?? silentLogger;
  const cacheBytes = options.cacheBytes ?? 512 * 1024 * 1024;
  let live: Live | undefined;

  async function reload(): Promise<boolean> {
    const pointer = await readPointer(storage);
    if (!pointer || pointer.release_id === live?.pointer.release_id) return false;
    const manifest = await readManifest(storage, pointer.release_id, pointer.manifest_sha256);
    if (!manifest) {
      throw new AppError(`${CURRENT_KEY} names release ${pointer.release_id}, which has no manifest.`, {
        hint: "Publish a new release with `projintel publish`; until then the previous release stays in use.",
        stage: "release",
      });
    }
    const files = new Map(manifest.files.map((f) => [f.path, f]));
    live = { pointer, files, cache: new Map(), loaded: new Map(), sizes: new Map(), bytes: 0 };
    logger.info("serving release", { release_id: pointer.release_id, run_date: pointer.run_date });
    return true;
  }

  async function load(release: Live, domain: string): Promise<QualityDomainData> {
    const keys = qualityKeys(domain);
    const [records, index] = await Promise.all([read(release, keys.records), read(release, keys.index)]);
    const decoded = decodeSliceIndex(index, `${release.pointer.release_id}/${keys.index}`);
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

  function remember(release: Live, domain: string, data: QualityDomainData): void {
    const size = data.records.length + data.index.offsets.byteLength * 2;
    release.sizes.set(domain, size);
    release.loaded.set(domain, data);
    release.bytes += size;
    for (const [name] of release.cache) {
      if (release.bytes <= cacheBytes || name === domain) break;
      release.cache.delete(name);
      release.loaded.delete(name);
      release.bytes -= release.sizes.get(name) ?? 0;
      release.sizes.delete(name);
    }
  }

  async function quality(domain: string, retried = false): Promise<QualityDomainData> {
    const release = live;
    if (!release) {
      throw new ApiError("unavailable", "No data has been published yet; try again later.", {
        "retry-after": "60",
      });
    }
    const cached = release.cache.get(domain);
    if (cached) {
      // Most recently used last, so eviction drops the domain unused the longest.
      release.cache.delete(domain);
      release.cache.set(domain, cached);
      return cached;
    }
    const loading = load(release, domain);
    release.cache.set(domain, loading);
    try {
      const data = await loading;
      remember(release, domain, data);
      return data;
    } catch (error) {
      release.cache.delete(domain);
      // The release may have been pruned after a newer one went live: follow the pointer once.
      if (error instanceof MissingFile && !retried && (await reload().catch(() => false))) {
        return quality(domain, true);
      }
      logger.error("cannot load release data", { domain, error: String(error) });
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
  const checkEveryMs = options.checkEveryMs ?? 10_000;
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

  function peekQuality(domain: string): QualityDomainData | undefined {
    const release = live;
    const data = release?.loaded.get(domain);
    if (!release || !data) return undefined;
    // Most recently used last, so eviction drops the domain unused the longest.
    const loading = release.cache.get(domain);
    if (loading) {
      release.cache.delete(domain);
      release.cache.set(domain, loading);
    }
    return data;
  }

  return {
    current: () => live?.pointer,
    quality: (domain) => quality(domain),
    peekQuality,
    reload,
    close: () => clearInterval(timer),
  };
}

class MissingFile extends Error {
  constructor(path: string) {
    super(`${path} is missing from the release`);
  }
}
