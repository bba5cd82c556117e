// The local-folder Storage: the shared contract (core/storage.testing.ts), and what only a folder does — temp files
// beside the target, swept after a kill.
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { storageContract } from "./storage.testing.ts";
import { createLocalStorage } from "./storage.ts";

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

async function freshRoot(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "storage-"));
  roots.push(root);
  return root;
}

storageContract({
  name: "local folder",
  open: async () => createLocalStorage(await freshRoot()),
  partBytes: 5 * 1024 * 1024,
});

describe("local storage", () => {
  it("writes the pointer through a temp file and leaves none behind", async () => {
    const root = await freshRoot();
    const storage = createLocalStorage(root);
    await storage.putPointer("releases/current.json", '{"release_id":"x"}\n');
    expect(await readdir(path.join(root, "releases"))).toEqual(["current.json"]);
  });

  it("never lists a killed writer's temp file, and sweeps it", async () => {
    const root = await freshRoot();
    const storage = createLocalStorage(root);
    await storage.put("releases/r1/a.json", "a");
    await writeFile(path.join(root, "releases", "r1", "b.json.123-abcdef.tmp"), "half");
    expect(await storage.list("releases/")).toEqual(["releases/r1/a.json"]);
    expect(await storage.sweep("releases/")).toBe(1);
    expect(await readdir(path.join(root, "releases", "r1"))).toEqual(["a.json"]);
  });
});
