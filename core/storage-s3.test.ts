// The bucket Storage against a real S3-compatible server (s3rver on loopback): the shared contract, then what only
// a bucket does — the checksum mode that keeps streamed bytes exact, metadata, paginated listings and batched
// deletes past 1,000 keys, and failures (missing bucket, wrong keys, no server) explained.
import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../test/redis-server.ts";
import { type S3TestServer, startS3Server } from "../test/s3-server.ts";
import { AppError } from "./errors.ts";
import { binaryBody, storageContract } from "./storage.testing.ts";
import { createS3Storage } from "./storage-s3.ts";

const BUCKET = "storage-test";
const MIB = 1024 * 1024;
let server: S3TestServer;
let files: string;
let opened = 0;

beforeAll(async () => {
  server = await startS3Server();
  await server.bucket(BUCKET);
  files = await mkdtemp(path.join(tmpdir(), "storage-s3-"));
});
afterAll(async () => {
  await server?.stop();
  await rm(files, { recursive: true, force: true });
});

storageContract({
  name: "s3rver bucket",
  // each test its own prefix of one bucket: the prefix is the Storage's whole world
  open: async () => server.storage(BUCKET, `contract/t${++opened}`),
  partBytes: 5 * MIB,
});

describe("s3 storage", () => {
  it("with checksumMode when_required, streamed and multipart uploads store the exact bytes", async () => {
    const storage = server.storage(BUCKET, "exact");
    const six = path.join(files, "six.bin");
    const big = path.join(files, "big.bin");
    const bigBody = binaryBody(11 * MIB + 3); // three parts of 5 MiB
    await writeFile(six, "sixbyt");
    await writeFile(big, bigBody);
    await storage.putFile("six.bin", six);
    await storage.putFile("big.parquet", big);
    await storage.put("big-buffer.bin", bigBody);
    expect(await storage.get("six.bin")).toEqual(Buffer.from("sixbyt"));
    expect((await storage.get("big.parquet"))?.equals(bigBody)).toBe(true);
    expect((await storage.get("big-buffer.bin"))?.equals(bigBody)).toBe(true);
    expect(await storage.listObjects("")).toEqual([
      { key: "big-buffer.bin", bytes: bigBody.length },
      { key: "big.parquet", bytes: bigBody.length },
      { key: "six.bin", bytes: 6 },
    ]);
  });

  it("with the SDK's default checksum mode, s3rver stores a streamed upload with its aws-chunked framing", async () => {
    // why checksumMode is a setting: the same 6 bytes, streamed with a trailing CRC32, are not what is stored
    const storage = server.storage(BUCKET, "framed", { checksumMode: "when_supported" });
    const six = path.join(files, "six.bin");
    await writeFile(six, "sixbyt");
    await storage.putFile("six.bin", six);
    const stored = await storage.get("six.bin");
    expect(stored?.length).toBeGreaterThan(6);
    expect(stored?.toString()).toContain("x-amz-checksum-crc32");
  });

  it("objects carry their content type, Cache-Control and sha256; a copy keeps them", async () => {
    const storage = server.storage(BUCKET, "meta");
    const body = Buffer.from('{"a":1}\n');
    await storage.put("releases/r1/a.json", body, {
      contentType: "application/json; charset=utf-8",
      cacheControl: "public, max-age=31536000, immutable",
    });
    await storage.copy("releases/r1/a.json", "releases/r2/a.json");
    await storage.putPointer("releases/current.json", '{"release_id":"r2"}\n');
    const expected = {
      bytes: body.length,
      sha256: createHash("sha256").update(body).digest("hex"),
      contentType: "application/json; charset=utf-8",
      cacheControl: "public, max-age=31536000, immutable",
    };
    expect(await storage.stat("releases/r1/a.json")).toEqual(expected);
    expect(await storage.stat("releases/r2/a.json")).toEqual(await storage.stat("releases/r1/a.json"));
    expect(await storage.get("releases/r2/a.json")).toEqual(body);
    expect(await storage.stat("releases/current.json")).toMatchObject({
      contentType: "application/json; charset=utf-8",
      cacheControl: "no-cache",
    });
    // keys live under the prefix: a storage on the bucket's root sees them there
    expect(await server.storage(BUCKET, "").list("meta/releases/", { children: true })).toEqual([
      "meta/releases/current.json",
      "meta/releases/r1/",
      "meta/releases/r2/",
    ]);
  });

  it("lists past a page of 1,000 keys and deletes them in batches", async () => {
    const storage = server.storage(BUCKET, "many");
    const keys = Array.from({ length: 1003 }, (_, i) => `p/${String(i).padStart(4, "0")}.json`);
    await Promise.all(keys.map((key) => storage.put(key, key)));
    await storage.put("q/keep.json", "keep");
    expect(await storage.list("p/")).toEqual(keys);
    expect(await storage.list("", { children: true })).toEqual(["p/", "q/"]);
    expect(await storage.get(keys[1002] as string)).toEqual(Buffer.from(keys[1002] as string));
    await storage.deletePrefix("p/");
    expect(await storage.list("")).toEqual(["q/keep.json"]);
    expect(await storage.get("q/keep.json")).toEqual(Buffer.from("keep"));
  }, 60_000);

  it("sends a file again from a new stream when its connection is reset, which the SDK cannot retry", async () => {
    // a proxy that cuts the first PUT's connection before answering (a server closing a reused keep-alive socket)
    let puts = 0;
    const upstream = new URL(server.url);
    const proxy = createServer((req, res) => {
      if (req.method === "PUT" && ++puts === 1) {
        req.socket.destroy();
        return;
      }
      const forwarded = request(
        {
          hostname: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(forwarded);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    try {
      const storage = createS3Storage({
        bucket: BUCKET,
        prefix: "reset",
        options: server.config.s3,
        client: { ...server.client, endpoint: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
      });
      const file = path.join(files, "reset.bin");
      const bytes = binaryBody(64 * 1024);
      await writeFile(file, bytes);
      await storage.putFile("a/reset.bin", file);
      expect([puts, (await server.storage(BUCKET, "reset").get("a/reset.bin"))?.equals(bytes)]).toEqual([
        2,
        true,
      ]);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  it("a missing bucket, wrong keys and an unreachable endpoint fail with what to check", async () => {
    const missing = server.storage("no-such-bucket", "x");
    await expect(missing.put("a.json", "a")).rejects.toThrow(
      `Bucket "no-such-bucket" does not exist at ${server.url} (put s3://no-such-bucket/x/a.json).`,
    );
    // a read of a missing bucket is an error, not a missing object
    await expect(missing.get("a.json")).rejects.toThrow(
      `Bucket "no-such-bucket" does not exist at ${server.url} (get s3://no-such-bucket/x/a.json).`,
    );
    const wrongKeys = createS3Storage({
      bucket: BUCKET,
      prefix: "x",
      options: server.config.s3,
      client: { ...server.client, credentials: { accessKeyId: "WRONG", secretAccessKey: "WRONG" } },
    });
    const refused = await wrongKeys.get("a.json").catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).message).toBe(
      `${server.url} refused the credentials for get s3://${BUCKET}/x/a.json: InvalidAccessKeyId.`,
    );
    expect((refused as AppError).hint).toContain("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY");
    const port = await freePort();
    const nowhere = createS3Storage({
      bucket: BUCKET,
      prefix: "x",
      options: { ...server.config.s3, maxAttempts: 1 },
      client: { ...server.client, endpoint: `http://127.0.0.1:${port}` },
    });
    const unreachable = await nowhere.list("").catch((e: unknown) => e);
    expect((unreachable as AppError).message).toBe(
      `Cannot reach the S3 endpoint http://127.0.0.1:${port} (list s3://${BUCKET}/x/): ECONNREFUSED.`,
    );
    expect((unreachable as AppError).kind).toBe("transient");
    expect((unreachable as AppError).hint).toContain("AWS_ENDPOINT_URL_S3");
  });
});
