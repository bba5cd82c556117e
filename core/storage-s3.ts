// The Storage of an S3-compatible bucket (AWS S3, MinIO, R2, s3rver): every key lives under `<prefix>/` of one
// bucket. Endpoint, region, credentials and checksum behaviour come from the SDK's standard configuration
// (AWS_ENDPOINT_URL_S3, AWS_REGION, AWS_ACCESS_KEY_ID, AWS_REQUEST_CHECKSUM_CALCULATION, profiles…) unless a test
// passes them or config.s3 sets them; the client settings (path style, retries, part size, requests in flight)
// from config.s3. Objects carry their content type, Cache-Control and a sha256 in
// x-amz-meta-sha256; bodies past the part size go up in parts. Every failure becomes an AppError naming the bucket,
// the key and what to check.
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import pLimit from "p-limit";
import type { Config } from "./config.ts";
import { AppError } from "./errors.ts";
import { commitTempFile } from "./files.ts";
import {
  type ByteRange,
  checkKey,
  compareKeys,
  type ListedObject,
  type ObjectStat,
  type PutOptions,
  type Storage,
  sha256File,
  tempPath,
} from "./storage.ts";

/** Overrides of the SDK's standard chain, for in-process tests (which must not change process.env). */
export interface S3ClientOverrides {
  endpoint?: string;
  region?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

export interface S3StorageOptions {
  bucket: string;
  /** Key prefix inside the bucket, without leading or trailing slashes ("" for the bucket's root). */
  prefix: string;
  options: Config["s3"];
  client?: S3ClientOverrides;
}

/** The metadata key of an object's sha256 (sent as x-amz-meta-sha256). */
export const SHA256_METADATA = "sha256";
/** Keys per DeleteObjects request (S3's maximum). */
const DELETE_BATCH = 1000;
/** Parts of one multipart upload in flight at once. */
const PART_QUEUE = 4;
const MIB = 1024 * 1024;

export function createS3Storage(settings: S3StorageOptions): Storage {
  const { bucket, options } = settings;
  const root = settings.prefix === "" ? "" : `${settings.prefix}/`;
  const client = new S3Client(clientConfig(settings));
  const limit = pLimit(options.concurrency);
  const partSize = options.partSizeMib * MIB;
  const location = `s3://${bucket}${root === "" ? "" : `/${settings.prefix}`}`;
  const full = (key: string) => `${root}${checkKey(key)}`;
  const fullPrefix = (prefix: string) => `${root}${checkKey(prefix, { prefix: true })}`;
  const fail = (operation: string, key: string, error: unknown) =>
    s3Error(error, { operation, bucket, key: `${root}${key}`, endpoint: settings.client?.endpoint });

  /** One request, within the limit of requests in flight, its failure explained. */
  async function send<T>(operation: string, key: string, request: () => Promise<T>): Promise<T> {
    try {
      return await limit(request);
    } catch (error) {
      throw fail(operation, key, error);
    }
  }

  function putParams(key: string, sha256: string, putOptions: PutOptions = {}) {
    return {
      Bucket: bucket,
      Key: full(key),
      ContentType: putOptions.contentType,
      CacheControl: putOptions.cacheControl,
      ContentEncoding: putOptions.contentEncoding,
      Metadata: { [SHA256_METADATA]: sha256 },
    };
  }

  async function upload(key: string, body: Uint8Array | Readable, sha256: string, putOptions?: PutOptions) {
    const params = { ...putParams(key, sha256, putOptions), Body: body };
    await send("upload", key, () =>
      new Upload({ client, params, partSize, queueSize: PART_QUEUE, leavePartsOnError: false }).done(),
    );
  }

  // ListObjects (v1, with markers) rather than v2: every S3-compatible server has it, and s3rver's v2 continuation
  // tokens need DES, which OpenSSL 3 (Node 18+) no longer offers.
  async function listPage(prefix: string, delimiter: string | undefined, marker: string | undefined) {
    return send("list", prefix, () =>
      client.send(
        new ListObjectsCommand({
          Bucket: bucket,
          Prefix: fullPrefix(prefix),
          Delimiter: delimiter,
          Marker: marker,
        }),
      ),
    );
  }

  /** Every page of a listing: objects with their sizes, and (with a delimiter) the folders below. */
  async function listAll(prefix: string, delimiter?: string) {
    const objects: ListedObject[] = [];
    const folders: string[] = [];
    let marker: string | undefined;
    do {
      const page = await listPage(prefix, delimiter, marker);
      const seen: string[] = [];
      for (const o of page.Contents ?? []) {
        if (o.Key === undefined) continue;
        objects.push({ key: o.Key.slice(root.length), bytes: o.Size ?? 0 });
        seen.push(o.Key);
      }
      for (const p of page.CommonPrefixes ?? []) {
        if (p.Prefix === undefined) continue;
        folders.push(p.Prefix.slice(root.length));
        seen.push(p.Prefix);
      }
      // NextMarker comes only with a delimiter; without one the next page starts after the last key
      marker = page.IsTruncated ? (page.NextMarker ?? seen.sort(compareKeys).at(-1)) : undefined;
    } while (marker);
    return { objects, folders };
  }

  async function getObject(key: string, range?: ByteRange) {
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    try {
      return await limit(() => client.send(new GetObjectCommand({ Bucket: bucket, Key: full(key), Range })));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw fail("get", key, error);
    }
  }

  async function put(key: string, body: Uint8Array | string, putOptions?: PutOptions): Promise<void> {
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    const sha256 = putOptions?.sha256 ?? createHash("sha256").update(bytes).digest("hex");
    if (bytes.length > partSize) return upload(key, bytes, sha256, putOptions);
    await send("put", key, () =>
      client.send(new PutObjectCommand({ ...putParams(key, sha256, putOptions), Body: bytes })),
    );
  }

  async function statObject(key: string): Promise<ObjectStat | undefined> {
    try {
      const head = await limit(() => client.send(new HeadObjectCommand({ Bucket: bucket, Key: full(key) })));
      return {
        bytes: head.ContentLength ?? 0,
        sha256: head.Metadata?.[SHA256_METADATA],
        contentType: head.ContentType,
        cacheControl: head.CacheControl,
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw fail("stat", key, error);
    }
  }

  return {
    location,
    put,
    async putFile(key, file, putOptions) {
      const sha256 = putOptions?.sha256 ?? (await sha256File(file));
      const { size } = await stat(file);
      if (size > partSize) return upload(key, createReadStream(file), sha256, putOptions);
      // The SDK cannot send a stream again, so its own retries stop at the first failure of one (a connection the
      // server closed as it was reused: ECONNRESET); a transient failure sends the file again, from a new stream.
      for (let attempt = 1; ; attempt++) {
        try {
          await send("put", key, () =>
            client.send(
              new PutObjectCommand({
                ...putParams(key, sha256, putOptions),
                Body: createReadStream(file),
                ContentLength: size,
              }),
            ),
          );
          return;
        } catch (error) {
          if (attempt >= options.maxAttempts || (error as AppError).kind !== "transient") throw error;
        }
      }
    },
    async putPointer(key, body) {
      await put(key, body, { contentType: "application/json; charset=utf-8", cacheControl: "no-cache" });
    },
    async putIfAbsent(key, body) {
      const bytes = Buffer.from(body, "utf8");
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const params = putParams(key, sha256, { contentType: "application/json; charset=utf-8" });
      try {
        await limit(() => client.send(new PutObjectCommand({ ...params, Body: bytes, IfNoneMatch: "*" })));
        return true;
      } catch (error) {
        // 412: an object exists; 409: another conditional write to the key is in flight (S3 says retry, we lose)
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 412 || status === 409) return false;
        throw fail("put", key, error);
      }
    },
    async copy(from, to) {
      try {
        await limit(() =>
          client.send(
            new CopyObjectCommand({
              Bucket: bucket,
              Key: full(to),
              CopySource: copySource(bucket, full(from)),
              MetadataDirective: "COPY",
            }),
          ),
        );
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw fail("copy", `${from} -> ${root}${to}`, error);
      }
    },
    async get(key) {
      const object = await getObject(key);
      if (object === undefined) return undefined;
      try {
        return Buffer.from((await object.Body?.transformToByteArray()) ?? []);
      } catch (error) {
        throw fail("get", key, error);
      }
    },
    async getFile(key, file) {
      const object = await getObject(key);
      if (object === undefined) return false;
      await mkdir(path.dirname(file), { recursive: true });
      const temp = tempPath(file);
      try {
        await pipeline(object.Body as Readable, createWriteStream(temp));
        await commitTempFile(temp, file);
      } catch (error) {
        await rm(temp, { force: true });
        throw fail("download", key, error);
      }
      return true;
    },
    async getStream(key, range) {
      const object = await getObject(key, range);
      return object === undefined ? undefined : (object.Body as Readable);
    },
    async exists(key) {
      return (await statObject(key)) !== undefined;
    },
    stat: statObject,
    async list(prefix, listOptions = {}) {
      const { objects, folders } = await listAll(prefix, listOptions.children ? "/" : undefined);
      return [...objects.map((o) => o.key), ...folders].sort(compareKeys);
    },
    async listObjects(prefix) {
      const { objects } = await listAll(prefix);
      return objects.sort((a, b) => compareKeys(a.key, b.key));
    },
    async delete(key) {
      await send("delete", key, () =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: full(key) })),
      );
    },
    async deletePrefix(prefix) {
      if (!prefix.endsWith("/") || prefix === "/") {
        throw new AppError(`deletePrefix needs a folder prefix ending in "/", got "${prefix}".`, {
          stage: "storage",
        });
      }
      const { objects } = await listAll(prefix);
      for (let i = 0; i < objects.length; i += DELETE_BATCH) {
        const batch = objects.slice(i, i + DELETE_BATCH);
        const result = await send("delete", prefix, () =>
          client.send(
            new DeleteObjectsCommand({
              Bucket: bucket,
              Delete: { Objects: batch.map((o) => ({ Key: `${root}${o.key}` })), Quiet: true },
            }),
          ),
        );
        const refused = result.Errors?.[0];
        if (refused) {
          throw fail("delete", refused.Key?.slice(root.length) ?? prefix, {
            name: refused.Code,
            message: `${result.Errors?.length} of ${batch.length} objects not deleted: ${refused.Message}`,
          });
        }
      }
    },
    async sweep() {
      // A bucket's writes are atomic: an interrupted upload leaves no object (its parts expire with the bucket's
      // AbortIncompleteMultipartUpload lifecycle rule).
      return 0;
    },
  };
}

function clientConfig(settings: S3StorageOptions): S3ClientConfig {
  const { options, client = {} } = settings;
  // Only a given PROJINTEL_S3__CHECKSUM_MODE overrides the SDK: unset, its own environment and profile settings
  // (AWS_REQUEST_CHECKSUM_CALCULATION, AWS_RESPONSE_CHECKSUM_VALIDATION) apply as for any other AWS tool.
  const checksum =
    options.checksumMode === undefined
      ? undefined
      : options.checksumMode === "when_required"
        ? "WHEN_REQUIRED"
        : "WHEN_SUPPORTED";
  return {
    forcePathStyle: options.forcePathStyle,
    maxAttempts: options.maxAttempts,
    ...(checksum === undefined
      ? {}
      : { requestChecksumCalculation: checksum, responseChecksumValidation: checksum }),
    ...(client.endpoint === undefined ? {} : { endpoint: client.endpoint }),
    ...(client.region === undefined ? {} : { region: client.region }),
    ...(client.credentials === undefined ? {} : { credentials: client.credentials }),
  };
}

/**
 * The x-amz-copy-source header: bucket and key URL-encoded, except the "/", "=" and "@" a key may hold, which are
 * safe in a header and which some servers (s3rver decodes it with decodeURI) would otherwise not find.
 */
function copySource(bucket: string, key: string): string {
  return `${bucket}/${encodeURIComponent(key).replace(/%(2F|3D|40)/g, (code) => decodeURIComponent(code))}`;
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  // a missing bucket is a 404 too, but an error: only a HEAD (no body, so no error code) cannot tell them apart
  return e.name !== "NoSuchBucket" && (e.name === "NoSuchKey" || e.$metadata?.httpStatusCode === 404);
}

const CREDENTIAL_ERRORS = new Set([
  "InvalidAccessKeyId",
  "SignatureDoesNotMatch",
  "AccessDenied",
  "ExpiredToken",
  "InvalidToken",
  "CredentialsProviderError",
]);
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
]);

/** Explains one failed request: which object, and what to check (credentials, endpoint, bucket, region). */
export function s3Error(
  error: unknown,
  where: { operation: string; bucket: string; key: string; endpoint?: string | undefined },
): AppError {
  if (error instanceof AppError) return error;
  const e = error as {
    name?: string;
    code?: string;
    message?: string;
    $metadata?: { httpStatusCode?: number };
    $retryable?: unknown;
  };
  const name = e.name ?? "Error";
  const target = `s3://${where.bucket}/${where.key}`;
  const endpoint =
    where.endpoint ??
    process.env.AWS_ENDPOINT_URL_S3 ??
    process.env.AWS_ENDPOINT_URL ??
    "the AWS default endpoint";
  const options = (hint: string, transient = false) =>
    ({ hint, stage: "storage", kind: transient ? "transient" : "terminal", cause: error }) as const;
  if (name === "NoSuchBucket") {
    return new AppError(
      `Bucket "${where.bucket}" does not exist at ${endpoint} (${where.operation} ${target}).`,
      options(
        `Create the bucket (aws s3 mb s3://${where.bucket}), or fix the location and AWS_ENDPOINT_URL_S3.`,
      ),
    );
  }
  if (CREDENTIAL_ERRORS.has(name) || e.$metadata?.httpStatusCode === 403) {
    return new AppError(
      `${endpoint} refused the credentials for ${where.operation} ${target}: ${name}.`,
      options(
        `Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE) to a key that may read and write s3://${where.bucket}.`,
      ),
    );
  }
  if (/region is missing/i.test(e.message ?? "")) {
    return new AppError(
      `No region for ${target}.`,
      options("Set AWS_REGION (any region, e.g. us-east-1, for a server that ignores it)."),
    );
  }
  const code = e.code ?? (e as { cause?: { code?: string } }).cause?.code;
  if ((code && NETWORK_CODES.has(code)) || name === "TimeoutError") {
    return new AppError(
      `Cannot reach the S3 endpoint ${endpoint} (${where.operation} ${target}): ${code ?? name}.`,
      options(
        "Check AWS_ENDPOINT_URL_S3, and set PROJINTEL_S3__FORCE_PATH_STYLE=true for servers without virtual-host buckets.",
        true,
      ),
    );
  }
  const status = e.$metadata?.httpStatusCode;
  return new AppError(
    `S3 ${where.operation} of ${target} failed: ${name}${status ? ` (HTTP ${status})` : ""}: ${e.message ?? ""}`.trim(),
    options(
      "Retry later; if it persists, check the endpoint (AWS_ENDPOINT_URL_S3) and the bucket's permissions.",
      (status ?? 0) >= 500 || Boolean(e.$retryable),
    ),
  );
}
