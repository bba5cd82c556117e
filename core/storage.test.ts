// The local-folder Storage: atomic writes, sorted listings, deletes, and keys that must be refused.
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLocalStorage, type Storage } from "./storage.ts";

let root: string;
let storage: Storage;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "storage-"));
  storage = createLocalStorage(root);
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe("local storage", () => {
  it("puts, gets and replaces objects", async () => {
    await storage.put("releases/r1/a.json", "one");
    await storage.put("releases/r1/a.json", Buffer.from("two"));
    expect((await storage.get("releases/r1/a.json"))?.toString()).toBe("two");
    expect(await storage.get("releases/r1/missing.json")).toBeUndefined();
    expect(await storage.exists("releases/r1/a.json")).toBe(true);
    expect(await storage.exists("releases/r1")).toBe(false);
  });

  it("lists keys recursively in byte order, or one level as folders", async () => {
    for (const key of ["r/b/x.json", "r/a.json", "r/B.json", "r/b/y/z.bin", "other.json"])
      await storage.put(key, "x");
    expect(await storage.list("r/")).toEqual(["r/B.json", "r/a.json", "r/b/x.json", "r/b/y/z.bin"]);
    expect(await storage.list("r/b/x")).toEqual(["r/b/x.json"]);
    expect(await storage.list("r/", { children: true })).toEqual(["r/B.json", "r/a.json", "r/b/"]);
    expect(await storage.list("nothing/")).toEqual([]);
  });

  it("deletes objects and whole prefixes", async () => {
    await storage.put("releases/r1/a.json", "a");
    await storage.put("releases/r1/deep/b.json", "b");
    await storage.put("releases/r2/a.json", "a");
    await storage.delete("releases/r2/a.json");
    await storage.delete("releases/r2/a.json");
    await storage.deletePrefix("releases/r1/");
    expect(await storage.list("releases/")).toEqual([]);
    // and writing there again works after the folders are gone
    await storage.put("releases/r1/a.json", "again");
    expect((await storage.get("releases/r1/a.json"))?.toString()).toBe("again");
  });

  it("writes the pointer in full and leaves no temp files", async () => {
    await storage.putPointer("releases/current.json", '{"release_id":"x"}\n');
    expect((await storage.get("releases/current.json"))?.toString()).toBe('{"release_id":"x"}\n');
    expect(await readdir(path.join(root, "releases"))).toEqual(["current.json"]);
  });

  it("refuses keys that could escape the root", async () => {
    for (const key of ["../x", "a/../../x", "/etc/passwd", "a//b", "a/./b", ".hidden", "a\\b", ""]) {
      await expect(storage.put(key, "x"), key).rejects.toThrow(`Invalid storage key "${key}".`);
    }
    await expect(storage.deletePrefix("releases")).rejects.toThrow('ending in "/"');
  });
});
