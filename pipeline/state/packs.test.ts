// The ETag cache on a remote as packs (one object per sub-folder of etags/): a push makes one object per folder, a
// pull into an empty folder gives back every file byte for byte, a changed entry re-uploads its pack alone, and a
// state pushed before packs existed (one object per entry) is pulled as it is and packed by the next push.
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { silentLogger } from "../../core/log.ts";
import { createLocalStorage, type Storage } from "../../core/storage.ts";
import { listStateFiles } from "./files.ts";
import { pullState, pushState, STATE_INDEX_KEY } from "./sync.ts";

let work: string;
let remote: Storage;
const dir = (name: string) => path.join(work, name);
const sync = (name: string) => ({
  storage: remote,
  stateRoot: dir(name),
  logger: silentLogger,
  concurrency: 4,
});
/** 30 cache entries in each of the folders 0a, 0b and ff, as etag-store.ts writes them. */
const ENTRIES = ["0a", "0b", "ff"].flatMap((folder) =>
  Array.from({ length: 30 }, (_, i) => ({
    rel: `etags/${folder}/${String(i).padStart(62, "0")}.json`,
    text: JSON.stringify({ url: `https://x/${folder}/${i}`, etag: `"${i}"`, body: `{"n":${i}}` }),
  })),
);

async function write(name: string, files: readonly { rel: string; text: string }[]): Promise<void> {
  for (const f of files) {
    const file = path.join(dir(name), f.rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, f.text);
  }
}

async function contents(name: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await listStateFiles(dir(name))) out[f.rel] = await readFile(f.file, "utf8");
  return out;
}

const remoteKeys = async () => (await remote.list("state/")).filter((k) => k !== STATE_INDEX_KEY);

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), "state-packs-"));
  remote = createLocalStorage(dir("remote"), { syncObjects: false });
  await write("a", ENTRIES);
});
afterEach(() => rm(work, { recursive: true, force: true }));

describe("ETag cache packs", () => {
  it("pushes one object per folder and pulls every entry back byte for byte", async () => {
    expect(await pushState(sync("a"))).toMatchObject({ objects: 3, uploaded: 3, unchanged: 0 });
    expect(await remoteKeys()).toEqual([
      "state/etags/0a.ndjson.gz",
      "state/etags/0b.ndjson.gz",
      "state/etags/ff.ndjson.gz",
    ]);
    expect(await pullState(sync("b"))).toMatchObject({ objects: 3, downloaded: 3, present: 0 });
    expect(await contents("b")).toEqual(await contents("a"));
    // pulled again: the packs this folder unpacked are not fetched again
    expect(await pullState(sync("b"))).toMatchObject({ downloaded: 0, present: 3 });
  });

  it("a changed entry re-uploads its own pack only, and a pull fetches that pack alone", async () => {
    await pushState(sync("a"));
    await pullState(sync("b"));
    const changed = {
      rel: ENTRIES[31]?.rel as string,
      text: '{"url":"https://x/0b/1","etag":"2","body":"{}"}',
    };
    await write("a", [changed]);
    expect(await pushState(sync("a"))).toMatchObject({ objects: 3, uploaded: 1, unchanged: 2 });
    expect(await pushState(sync("a"))).toMatchObject({ uploaded: 0, unchanged: 3 });
    expect(await pullState(sync("b"))).toMatchObject({ downloaded: 1, present: 2 });
    expect((await contents("b"))[changed.rel]).toBe(changed.text);
    expect(await contents("b")).toEqual(await contents("a"));
  });

  it("pulls a state pushed one entry per object, and packs it at the next push", async () => {
    const objects: Record<string, { bytes: number; sha256: string }> = {};
    for (const e of ENTRIES) {
      await remote.put(`state/${e.rel}`, e.text);
      objects[e.rel] = {
        bytes: Buffer.byteLength(e.text),
        sha256: createHash("sha256").update(e.text).digest("hex"),
      };
    }
    await remote.put(STATE_INDEX_KEY, JSON.stringify({ version: 1, pushed_at: "", objects }));
    expect(await pullState(sync("b"))).toMatchObject({ objects: 90, downloaded: 90 });
    expect(await contents("b")).toEqual(await contents("a"));
    expect(await pushState(sync("b"))).toMatchObject({ objects: 3, uploaded: 3 });
    const index = JSON.parse(String(await remote.get(STATE_INDEX_KEY))) as { objects: object };
    expect(Object.keys(index.objects)).toEqual([
      "etags/0a.ndjson.gz",
      "etags/0b.ndjson.gz",
      "etags/ff.ndjson.gz",
    ]);
    expect(await pullState(sync("c"))).toMatchObject({ objects: 3, downloaded: 3 });
    expect(await contents("c")).toEqual(await contents("a"));
  });
});
