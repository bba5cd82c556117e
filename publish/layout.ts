// The release layout on storage: where a release's files, its manifest and the current pointer live, and
// how the pointer and manifest read back. Publish writes these; the shim reads them.
import { createHash } from "node:crypto";
import { z } from "zod";
import { AppError } from "../core/errors.ts";
import { parsePublicDbFile } from "../core/public-db.ts";
import type { Storage } from "../core/storage.ts";

export const RELEASES = "releases";
/** Names the live release; written last, atomically, so it never names a half-written release. */
export const CURRENT_KEY = `${RELEASES}/current.json`;
export const MANIFEST_FILE = "manifest.json";
/**
 * Written first into a release's folder and removed once the pointer names it: an object at the folder's top level,
 * so a delimiter listing of releases/ finds a publish interrupted before its manifest (some servers, s3rver among
 * them, list a folder only through the objects directly in it), to be resumed or pruned.
 */
export const PUBLISHING_FILE = "publishing.json";
export const FORMAT_VERSION = 2;

/**
 * Cache-Control of every object under a release's prefix: a release is never changed once its manifest exists, and a
 * new night gets a new prefix, so a CDN may keep its objects for good. The pointer is sent `no-cache` (storage-s3).
 */
export const RELEASE_CACHE_CONTROL = "public, max-age=31536000, immutable";

export const releasePrefix = (releaseId: string) => `${RELEASES}/${releaseId}/`;
export const releaseKey = (releaseId: string, path: string) => `${releasePrefix(releaseId)}${path}`;

const RELEASE_ID = /^\d{4}-\d{2}-\d{2}_\d{8}T\d{6}Z(-\d{2})?$/;

/** Release ids sort by run date, then creation time: "2026-03-01_20260302T031500Z" (a "-02" suffix on a clash). */
export function releaseId(runDate: string, createdAt: Date, clash = 0): string {
  const stamp = createdAt
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
  const id = `${runDate}_${stamp}${clash > 0 ? `-${String(clash + 1).padStart(2, "0")}` : ""}`;
  if (!RELEASE_ID.test(id)) throw new AppError(`Cannot form a release id from run date "${runDate}".`);
  return id;
}

export const isReleaseId = (text: string) => RELEASE_ID.test(text);

/** The run date a release id starts with. */
export const runDateOfRelease = (id: string) => id.slice(0, 10);

/** When a release was created, read back from its id (to the second). */
export function releaseCreatedAt(id: string): Date {
  const stamp = id.slice(11, 27); // 20260302T031500Z
  return new Date(
    `${stamp.slice(0, 4)}-${stamp.slice(4, 6)}-${stamp.slice(6, 8)}T${stamp.slice(9, 11)}:${stamp.slice(11, 13)}:${stamp.slice(13, 15)}Z`,
  );
}

export const pointerSchema = z.strictObject({
  format: z.literal(FORMAT_VERSION),
  release_id: z.string().regex(RELEASE_ID),
  run_date: z.string(),
  created_at: z.string(),
  manifest_sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type Pointer = z.infer<typeof pointerSchema>;

export const manifestFileSchema = z.strictObject({
  path: z.string(),
  bytes: z.int().min(0),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** What the file is served as (Content-Type). */
  content_type: z.string().min(1),
  /** An encoded copy of the file without its suffix (`<path>.br`, `<path>.gz`): its Content-Encoding. */
  content_encoding: z.enum(["gzip", "br"]).optional(),
  /** For a file copied in from the state folder (history partitions): what identifies its content unread. */
  fingerprint: z.string().optional(),
});
export type ManifestFile = z.infer<typeof manifestFileSchema>;

export const manifestSchema = z.strictObject({
  format: z.literal(FORMAT_VERSION),
  release_id: z.string().regex(RELEASE_ID),
  run_date: z.string(),
  created_at: z.string(),
  counts: z.strictObject({
    /** Projects in the release (rows of score_quality): what the shrink gate compares. */
    projects: z.int().min(0),
    /** Records per partition of every collection of the route table. */
    collections: z.record(z.string(), z.record(z.string(), z.int().min(0))),
  }),
  /** Per item route, the parameters of a request that finds a record of this release (documented examples). */
  examples: z.record(z.string(), z.record(z.string(), z.string())),
  /** Every file of the release except the manifest itself, sorted by path. */
  files: z.array(manifestFileSchema),
  /**
   * The public database POST /api/v1/query answers from for this release (`<name>.duckdb`, core/public-db.ts): its
   * night's build named by its bytes, so a night published twice answers each release from its own build. Absent
   * when the night had none here (queries answer 503), and in releases published before it was recorded.
   */
  public_db: z
    .string()
    .refine((file) => parsePublicDbFile(file) !== undefined)
    .optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;

/** The current pointer, or undefined before the first publish. */
export async function readPointer(storage: Storage): Promise<Pointer | undefined> {
  const bytes = await storage.get(CURRENT_KEY);
  if (bytes === undefined) return undefined;
  return parseJson(pointerSchema, bytes, `${storage.location}/${CURRENT_KEY}`, POINTER_HINT);
}

/** A release's manifest, or undefined when it has none (yet); `sha256` is checked when given. */
export async function readManifest(
  storage: Storage,
  id: string,
  sha256?: string,
): Promise<Manifest | undefined> {
  const key = releaseKey(id, MANIFEST_FILE);
  const bytes = await storage.get(key);
  if (bytes === undefined) return undefined;
  if (sha256 !== undefined && createHash("sha256").update(bytes).digest("hex") !== sha256) {
    throw new AppError(`${storage.location}/${key} does not match the sha256 recorded in ${CURRENT_KEY}.`, {
      hint: MANIFEST_HINT,
      stage: "release",
    });
  }
  return parseJson(manifestSchema, bytes, `${storage.location}/${key}`, MANIFEST_HINT);
}

const POINTER_HINT = "Point it at a complete release, or delete it and run `projintel publish` again.";
const MANIFEST_HINT = "Publish a new release with `projintel publish`.";

function parseJson<T>(schema: z.ZodType<T>, bytes: Buffer, where: string, hint: string): T {
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8"));
  } catch (error) {
    throw new AppError(`${where} is not valid JSON.`, {
      hint,
      stage: "release",
      cause: error,
    });
  }
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new AppError(`${where} is not a valid release file: ${issue?.path.join(".")} ${issue?.message}.`, {
    hint,
    stage: "release",
  });
}
