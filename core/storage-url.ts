// Opens the Storage a location names: `s3://bucket/prefix` is an S3-compatible bucket (core/storage-s3.ts), anything
// else a local folder. Every command that takes --remote, --target or --release resolves it here.
import path from "node:path";
import type { Config } from "./config.ts";
import { ConfigError } from "./errors.ts";
import { createLocalStorage, type Storage } from "./storage.ts";

export interface S3Location {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slashes ("" for the bucket's root). */
  prefix: string;
}

/** Parses `s3://bucket/prefix`; undefined for a location that is not an s3:// URL. */
export function parseS3Location(location: string): S3Location | undefined {
  if (!location.startsWith("s3://")) return undefined;
  const rest = location.slice("s3://".length);
  const slash = rest.indexOf("/");
  const bucket = slash === -1 ? rest : rest.slice(0, slash);
  const prefix = (slash === -1 ? "" : rest.slice(slash + 1)).replace(/^\/+|\/+$/g, "");
  // S3's bucket naming rules: 3-63 lower-case letters, digits, dots and hyphens, starting and ending alphanumeric
  if (
    !/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) ||
    prefix.split("/").some((s) => s === "." || s === "..")
  ) {
    throw new ConfigError(
      `Invalid bucket location "${location}".`,
      "Write it as s3://<bucket>/<prefix>, the bucket 3-63 lower-case letters, digits, dots or hyphens.",
    );
  }
  return { bucket, prefix };
}

/** The Storage at `location`: an S3-compatible bucket for s3://…, else a local folder (created on first write). */
export async function openStorage(location: string, config: Pick<Config, "s3">): Promise<Storage> {
  const s3 = parseS3Location(location);
  if (!s3) return createLocalStorage(path.resolve(location));
  const { createS3Storage } = await import("./storage-s3.ts");
  return createS3Storage({ ...s3, options: config.s3 });
}
