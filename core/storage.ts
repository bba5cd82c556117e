// Where releases and durable state are written and read: a small key/bytes interface so publish, the pipeline and
// the shim work the same on a local folder (default) and an S3-compatible bucket (core/storage-s3.ts). Keys are
// posix paths like "releases/<id>/manifest.json".
import { createHash, randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { copyFile, link, mkdir, open, readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { AppError } from "./errors.ts";
import { commitTempFile, removeTempFiles, writeFileAtomic } from "./files.ts";

export interface Storage {
  /** Writes the whole object; readers see the old object or the new one, never a partial one. */
  put(key: string, body: Uint8Array | string, options?: PutOptions): Promise<void>;
  /**
   * Copies an object within the store (a hard link on a local folder, a server-side copy on a bucket); resolves
   * false when there is no object at `from`, so the caller writes the bytes instead.
   */
  copy(from: string, to: string): Promise<boolean>;
  /**
   * Writes the local file `file` as the object, streamed (in parts past the part size on a bucket), so a large
   * Parquet file is never held in memory. Atomic like put.
   */
  putFile(key: string, file: string, options?: PutOptions): Promise<void>;
  /** The object's bytes, or undefined when there is no object at `key`. */
  get(key: string): Promise<Buffer | undefined>;
  /**
   * Streams the object into the local file `file` (replaced atomically); resolves false, leaving `file` alone,
   * when there is no object at `key`.
   */
  getFile(key: string, file: string): Promise<boolean>;
  /**
   * The object's bytes as a stream, all of them or the inclusive byte range `range` (which must lie inside the
   * object): what serves a large file, or a part of it, without holding it in memory. Undefined when there is no
   * object at `key`.
   */
  getStream(key: string, range?: ByteRange): Promise<Readable | undefined>;
  exists(key: string): Promise<boolean>;
  /**
   * Size and content hash of one object, or undefined when there is none. A bucket reports the sha256 recorded at
   * upload (undefined for an object written without it); a local folder hashes the file.
   */
  stat(key: string): Promise<ObjectStat | undefined>;
  /** Every object under `prefix` with its size, sorted by key: what confirms a batch of uploads in one listing. */
  listObjects(prefix: string): Promise<ListedObject[]>;
  /**
   * Keys under `prefix`, sorted. With `{ children: true }` only the next path level is listed, folders
   * ending in "/" (like an S3 listing with a "/" delimiter).
   */
  list(prefix: string, options?: { children?: boolean }): Promise<string[]>;
  /** Removes one object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every object under `prefix` (which must end in "/"). */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Removes what interrupted writes left under `prefix` (a local folder's temp files; nothing on a bucket, whose
   * writes are atomic); returns how many.
   */
  sweep(prefix: string): Promise<number>;
  /** Replaces a small pointer object atomically and durably; the last step of a publish. */
  putPointer(key: string, body: string): Promise<void>;
  /**
   * Creates a small object only if there is none at `key` (a conditional write, `If-None-Match: *` on a bucket);
   * false when one exists. A store that ignores the condition (s3rver) overwrites and says true: callers that need
   * exclusion verify by reading back (publish/lock.ts).
   */
  putIfAbsent(key: string, body: string): Promise<boolean>;
  /** Where the objects live, for logs and messages. */
  readonly location: string;
}

export interface PutOptions {
  /** Content type the object is served with (buckets keep it; a local folder leaves it to the manifest). */
  contentType?: string;
  /** Cache-Control the object is served with by a bucket (and a CDN in front of it). */
  cacheControl?: string;
  /** The body's sha256 (hex) when the caller knows it; a bucket records it as x-amz-meta-sha256. */
  sha256?: string;
  /** Content-Encoding the object is served with by a bucket (a precompressed copy: gzip, br). */
  contentEncoding?: string;
}

/** Bytes `start` to `end` of an object, both included (as in an HTTP Range). */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ListedObject {
  key: string;
  bytes: number;
}

export interface ObjectStat {
  bytes: number;
  sha256: string | undefined;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._@=+-]*$/;

/** Refuses keys that could escape the root or mean different things on different stores. */
export function checkKey(key: string, { prefix = false } = {}): string {
  const trimmed = prefix && key.endsWith("/") ? key.slice(0, -1) : key;
  const ok = trimmed === "" ? prefix : trimmed.split("/").every((s) => SEGMENT.test(s));
  if (!ok) {
    throw new AppError(`Invalid storage key "${key}".`, {
      hint: "Keys are relative posix paths of letters, digits and ._@=+- without empty or dot segments.",
      stage: "storage",
    });
  }
  return key;
}

export interface LocalStorageOptions {
  /**
   * fsync every object before renaming it into place (default true). The pointer is always synced; syncing
   * the objects too means a crash right after the pointer flip cannot leave it naming empty files.
   */
  syncObjects?: boolean;
}

/** Storage on a local folder: temp file in the same folder, then rename (atomic on one file system). */
export function createLocalStorage(root: string, options: LocalStorageOptions = {}): Storage {
  const base = path.resolve(root);
  const syncObjects = options.syncObjects ?? true;
  const madeDirs = new Set<string>();
  const file = (key: string) => path.join(base, ...checkKey(key).split("/"));

  async function ensureDir(dir: string): Promise<void> {
    if (madeDirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    madeDirs.add(dir);
  }

  async function list(prefix: string, listOptions: { children?: boolean } = {}): Promise<string[]> {
    checkKey(prefix, { prefix: true });
    const slash = prefix.lastIndexOf("/");
    const dirKey = prefix.slice(0, slash + 1);
    const dir = path.join(base, ...dirKey.split("/").filter(Boolean));
    const keys = listOptions.children ? await listChildren(dir, dirKey) : await walk(dir, dirKey);
    return keys.filter((k) => k.startsWith(prefix) && !isTemp(k)).sort(compareKeys);
  }

  async function writeAtomic(target: string, body: Uint8Array | string, sync: boolean): Promise<void> {
    await ensureDir(path.dirname(target));
    await writeFileAtomic(target, body, { sync, mkdir: false });
  }

  return {
    location: base,
    async put(key, body) {
      await writeAtomic(file(key), body, syncObjects);
    },
    async putFile(key, source) {
      const target = file(key);
      await ensureDir(path.dirname(target));
      await copyAtomic(source, target);
    },
    async getFile(key, target) {
      try {
        await mkdir(path.dirname(target), { recursive: true });
        await copyAtomic(file(key), target);
        return true;
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    async stat(key) {
      const target = file(key);
      try {
        const info = await stat(target);
        if (!info.isFile()) return undefined;
        return {
          bytes: info.size,
          sha256: await sha256File(target),
          contentType: undefined,
          cacheControl: undefined,
        };
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async listObjects(prefix) {
      const keys = await list(prefix);
      return Promise.all(keys.map(async (key) => ({ key, bytes: (await stat(file(key))).size })));
    },
    async sweep(prefix) {
      return removeTempFiles(
        path.join(base, ...checkKey(prefix, { prefix: true }).split("/").filter(Boolean)),
      );
    },
    async copy(from, to) {
      const source = file(from);
      const target = file(to);
      await ensureDir(path.dirname(target));
      await rm(target, { force: true });
      try {
        await link(source, target);
      } catch (error) {
        if (isMissing(error)) return false;
        // another file system, or one without hard links: a plain copy, made atomic like put
        const bytes = await readFile(source).catch((e: unknown) =>
          isMissing(e) ? undefined : Promise.reject(e),
        );
        if (bytes === undefined) return false;
        await writeAtomic(target, bytes, syncObjects);
      }
      return true;
    },
    async putPointer(key, body) {
      await writeAtomic(file(key), body, true);
    },
    async putIfAbsent(key, body) {
      // written whole beside the target, then hard-linked into place: link fails if the target exists
      const target = file(key);
      await ensureDir(path.dirname(target));
      const temp = tempPath(target);
      try {
        await writeFileAtomic(temp, body, { sync: true, mkdir: false });
        await link(temp, target);
        return true;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EEXIST") return false;
        throw error;
      } finally {
        await rm(temp, { force: true });
      }
    },
    async get(key) {
      try {
        return await readFile(file(key));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },
    async getStream(key, range) {
      let handle: Awaited<ReturnType<typeof open>>;
      try {
        handle = await open(file(key), "r");
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      // the stream closes the handle when it ends, fails or is destroyed
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },
    async exists(key) {
      try {
        return (await stat(file(key))).isFile();
      } catch (error) {
        if (isMissing(error)) return false;
        throw error;
      }
    },
    list,
    async delete(key) {
      await rm(file(key), { force: true });
    },
    async deletePrefix(prefix) {
      if (!prefix.endsWith("/") || prefix === "/") {
        throw new AppError(`deletePrefix needs a folder prefix ending in "/", got "${prefix}".`, {
          stage: "storage",
        });
      }
      const dir = path.join(base, ...checkKey(prefix, { prefix: true }).split("/").filter(Boolean));
      await rm(dir, { recursive: true, force: true });
      for (const made of madeDirs)
        if (made === dir || made.startsWith(`${dir}${path.sep}`)) madeDirs.delete(made);
    },
  };
}

/** sha256 (hex) of a local file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Copies a local file into place through a temp file beside the target (the target is old or new, never half). */
async function copyAtomic(source: string, target: string): Promise<void> {
  const temp = tempPath(target);
  try {
    await copyFile(source, temp);
    await commitTempFile(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** A temp file beside `file`, named like writeFileAtomic's so sweep and list know it. */
export function tempPath(file: string): string {
  return `${file}.${process.pid}-${randomBytes(6).toString("hex")}.tmp`;
}

/** Byte-wise order (not locale order), so listings are the same on every machine and store. */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A temp file of writeFileAtomic (`<file>.<pid>-<hex>.tmp`), never an object. */
function isTemp(key: string): boolean {
  return key.endsWith(".tmp");
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

async function listChildren(dir: string, dirKey: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.map((e) => `${dirKey}${e.name}${e.isDirectory() ? "/" : ""}`);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

async function walk(dir: string, dirKey: string): Promise<string[]> {
  const out: string[] = [];
  for (const child of await listChildren(dir, dirKey)) {
    if (child.endsWith("/")) out.push(...(await walk(path.join(dir, child.slice(dirKey.length)), child)));
    else out.push(child);
  }
  return out;
}
