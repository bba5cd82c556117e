// The file ETag store: entries survive a new store on the same folder; a damaged or foreign file is a miss.
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileEtagStore } from "./etag-store.ts";

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function folder() {
  const dir = await mkdtemp(path.join(tmpdir(), "projintel-etags-"));
  dirs.push(dir);
  return dir;
}

describe("fileEtagStore", () => {
  it("keeps an ETag and body across stores opened on the same folder", async () => {
    const dir = await folder();
    await fileEtagStore(dir).set("https://pypi.org/pypi/x/json", 'W/"abc"', '{"info":{}}');
    expect(await fileEtagStore(dir).get("https://pypi.org/pypi/x/json")).toEqual({
      etag: 'W/"abc"',
      body: '{"info":{}}',
    });
    expect(await fileEtagStore(dir).get("https://pypi.org/pypi/y/json")).toBeUndefined();
  });

  it("treats a damaged file as a miss", async () => {
    const dir = await folder();
    const store = fileEtagStore(dir);
    await store.set("https://a/b", '"1"', "{}");
    const [sub] = await readdir(dir);
    const [name] = await readdir(path.join(dir, sub ?? ""));
    await writeFile(path.join(dir, sub ?? "", name ?? ""), "{trunc");
    expect(await store.get("https://a/b")).toBeUndefined();
  });
});
