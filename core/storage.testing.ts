// The Storage contract: what every implementation (a local folder, an S3-compatible bucket) must do alike. Each
// test that writes reads the bytes back and compares them with what it wrote.
import { createHash, randomBytes } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Storage, sha256File } from "./storage.ts";

export interface ContractTarget {
  name: string;
  /** A fresh, empty Storage for one test. */
  open(): Promise<Storage>;
  /** Bytes past which an upload goes in parts (a file this big exercises multipart on a bucket). */
  partBytes: number;
}

/** Every byte value, then some random ones: what a text-only or re-encoding store would get wrong. */
export function binaryBody(size: number): Buffer {
  const all = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
  return Buffer.concat([all, randomBytes(Math.max(0, size - 256))]).subarray(0, size);
}

const sha = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

export function storageContract(target: ContractTarget): void {
  describe(`${target.name} storage contract`, () => {
    let files: string;
    beforeAll(async () => {
      files = await mkdtemp(path.join(tmpdir(), "storage-files-"));
    });
    afterAll(() => rm(files, { recursive: true, force: true }));

    it("puts, gets and replaces objects, byte for byte", async () => {
      const storage = await target.open();
      const binary = binaryBody(4096);
      await storage.put("releases/r1/a.json", "one");
      await storage.put("releases/r1/a.json", Buffer.from("twö"));
      await storage.put("releases/r1/b.bin", binary, { contentType: "application/octet-stream" });
      expect(await storage.get("releases/r1/a.json")).toEqual(Buffer.from("twö"));
      expect(await storage.get("releases/r1/b.bin")).toEqual(binary);
      expect(await storage.get("releases/r1/missing.json")).toBeUndefined();
      expect(await storage.exists("releases/r1/a.json")).toBe(true);
      expect(await storage.exists("releases/r1")).toBe(false);
      expect(await storage.stat("releases/r1/b.bin")).toMatchObject({ bytes: 4096, sha256: sha(binary) });
      expect(await storage.stat("releases/r1/missing.json")).toBeUndefined();
    });

    it("lists keys recursively in byte order, or one level as folders, with sizes", async () => {
      const storage = await target.open();
      const keys = ["r/b/x.json", "r/a.json", "r/B.json", "r/b/y/z.bin", "other.json"];
      for (const [i, key] of keys.entries()) await storage.put(key, "x".repeat(i + 1));
      expect(await storage.list("r/")).toEqual(["r/B.json", "r/a.json", "r/b/x.json", "r/b/y/z.bin"]);
      expect(await storage.list("r/b/x")).toEqual(["r/b/x.json"]);
      expect(await storage.list("r/", { children: true })).toEqual(["r/B.json", "r/a.json", "r/b/"]);
      expect(await storage.list("", { children: true })).toEqual(["other.json", "r/"]);
      expect(await storage.list("nothing/")).toEqual([]);
      expect(await storage.listObjects("r/b/")).toEqual([
        { key: "r/b/x.json", bytes: 1 },
        { key: "r/b/y/z.bin", bytes: 4 },
      ]);
      for (const [i, key] of keys.entries())
        expect(await storage.get(key)).toEqual(Buffer.from("x".repeat(i + 1)));
    });

    it("deletes objects and whole prefixes", async () => {
      const storage = await target.open();
      await storage.put("releases/r1/a.json", "a");
      await storage.put("releases/r1/deep/b.json", "b");
      await storage.put("releases/r2/a.json", "a");
      await storage.put("releases/r10/a.json", "ten");
      await storage.delete("releases/r2/a.json");
      await storage.delete("releases/r2/a.json");
      await storage.deletePrefix("releases/r1/");
      expect(await storage.list("releases/")).toEqual(["releases/r10/a.json"]);
      expect(await storage.get("releases/r10/a.json")).toEqual(Buffer.from("ten"));
      // and writing there again works after the folders are gone
      await storage.put("releases/r1/a.json", "again");
      expect(await storage.get("releases/r1/a.json")).toEqual(Buffer.from("again"));
      await expect(storage.deletePrefix("releases")).rejects.toThrow('ending in "/"');
    });

    it("copies objects, and says when there is nothing to copy", async () => {
      const storage = await target.open();
      const body = binaryBody(1000);
      await storage.put("releases/r1/a.bin", body);
      await storage.put("releases/r1/date=2026-11-11/a@b.bin", "keyed");
      expect(await storage.copy("releases/r1/a.bin", "releases/r2/a.bin")).toBe(true);
      // keys with the characters a URL encodes (history partitions are date=…)
      expect(
        await storage.copy("releases/r1/date=2026-11-11/a@b.bin", "releases/r2/date=2026-11-11/a@b.bin"),
      ).toBe(true);
      expect(await storage.get("releases/r2/date=2026-11-11/a@b.bin")).toEqual(Buffer.from("keyed"));
      expect(await storage.copy("releases/r1/none.bin", "releases/r2/none.bin")).toBe(false);
      expect(await storage.get("releases/r2/a.bin")).toEqual(body);
      expect(await storage.exists("releases/r2/none.bin")).toBe(false);
      // the copy is its own object: replacing the source leaves it as it was
      await storage.put("releases/r1/a.bin", "changed");
      expect(await storage.get("releases/r2/a.bin")).toEqual(body);
      expect(await storage.stat("releases/r2/a.bin")).toMatchObject({ bytes: 1000, sha256: sha(body) });
    });

    it("writes the pointer in full", async () => {
      const storage = await target.open();
      await storage.putPointer("releases/current.json", '{"release_id":"x"}\n');
      await storage.putPointer("releases/current.json", '{"release_id":"y"}\n');
      expect(await storage.get("releases/current.json")).toEqual(Buffer.from('{"release_id":"y"}\n'));
      expect(await storage.list("releases/")).toEqual(["releases/current.json"]);
      expect(await storage.sweep("releases/")).toBe(0);
    });

    it("streams files up and down, in parts past the part size", async () => {
      const storage = await target.open();
      const small = path.join(files, "small.bin");
      const large = path.join(files, "large.bin");
      const largeBody = binaryBody(target.partBytes + 1024 * 1024 + 7);
      await writeFile(small, "sixbyt");
      await writeFile(large, largeBody);
      await storage.putFile("history/small.bin", small, { contentType: "application/octet-stream" });
      await storage.putFile("history/large.parquet", large);
      expect(await storage.get("history/small.bin")).toEqual(Buffer.from("sixbyt"));
      const back = path.join(files, "back", "large.parquet");
      expect(await storage.getFile("history/large.parquet", back)).toBe(true);
      expect(await sha256File(back)).toBe(sha(largeBody));
      expect((await readFile(back)).equals(largeBody)).toBe(true);
      expect(await storage.stat("history/large.parquet")).toMatchObject({
        bytes: largeBody.length,
        sha256: sha(largeBody),
      });
      // a missing object leaves the local file as it was
      expect(await storage.getFile("history/none.parquet", back)).toBe(false);
      expect(await sha256File(back)).toBe(sha(largeBody));
      expect(await storage.listObjects("history/")).toEqual([
        { key: "history/large.parquet", bytes: largeBody.length },
        { key: "history/small.bin", bytes: 6 },
      ]);
    });

    it("streams an object whole or a byte range of it", async () => {
      const storage = await target.open();
      const body = binaryBody(70_000);
      await storage.put("releases/r3/data.parquet", body);
      const read = async (stream: Readable | undefined) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream ?? []) chunks.push(chunk as Buffer);
        return Buffer.concat(chunks);
      };
      expect((await read(await storage.getStream("releases/r3/data.parquet"))).equals(body)).toBe(true);
      const range = await read(
        await storage.getStream("releases/r3/data.parquet", { start: 1000, end: 66_535 }),
      );
      expect(range.length).toBe(65_536);
      expect(range.equals(body.subarray(1000, 66_536))).toBe(true);
      const last = await read(
        await storage.getStream("releases/r3/data.parquet", { start: 69_999, end: 69_999 }),
      );
      expect([...last]).toEqual([body[69_999]]);
      expect(await storage.getStream("releases/r3/none.parquet")).toBeUndefined();
    });

    it("refuses keys that could escape the root", async () => {
      const storage = await target.open();
      for (const key of ["../x", "a/../../x", "/etc/passwd", "a//b", "a/./b", ".hidden", "a\\b", ""]) {
        await expect(storage.put(key, "x"), key).rejects.toThrow(`Invalid storage key "${key}".`);
        await expect(storage.get(key), key).rejects.toThrow(`Invalid storage key "${key}".`);
      }
      expect(await storage.list("")).toEqual([]);
    });
  });
}
