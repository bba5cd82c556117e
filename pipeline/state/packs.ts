// The ETag cache travels to the remote packed: one gzipped NDJSON object per sub-folder of etags/ (at most 256)
// instead of one object per cached URL (about 23,000 at 220,000 repositories), so a restore on an empty runner makes
// a few hundred requests for it, not tens of thousands. The state folder keeps one file per URL (etag-store.ts); a
// pack is rebuilt and uploaded only when the digest of its members' hashes changed.
import { createHash } from "node:crypto";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { gunzip, gzip } from "node:zlib";
import { writeFileAtomic } from "../../core/files.ts";
import { compareKeys, tempPath } from "../../core/storage.ts";
import { type LocalFile, localPath } from "./files.ts";

/** A packed folder of the ETag cache on the remote, e.g. etags/ab.ndjson.gz for etags/ab/*.json. */
export const PACK_PATTERN = /^etags\/[0-9a-f]{2}\.ndjson\.gz$/;
const ETAG_FILE = /^etags\/([0-9a-f]{2})\/[0-9a-f]{62}\.json$/;

export const isPackedFile = (rel: string) => ETAG_FILE.test(rel);

/** The pack a cache file travels in. */
export function packOf(rel: string): string | undefined {
  const folder = ETAG_FILE.exec(rel)?.[1];
  return folder === undefined ? undefined : `etags/${folder}.ndjson.gz`;
}

/** Digest of a pack's members (their paths and hashes): equal digests, equal packs. */
export function membersDigest(members: readonly { rel: string; sha256: string }[]): string {
  const hash = createHash("sha256");
  for (const m of [...members].sort((a, b) => compareKeys(a.rel, b.rel)))
    hash.update(`${m.rel}\0${m.sha256}\n`);
  return hash.digest("hex");
}

/** Writes the pack of `members` to a temp file beside the state folder's files; returns its path. */
export async function writePack(
  stateRoot: string,
  pack: string,
  members: readonly LocalFile[],
): Promise<string> {
  const lines: string[] = [];
  for (const m of [...members].sort((a, b) => compareKeys(a.rel, b.rel))) {
    lines.push(`${JSON.stringify({ rel: m.rel, text: await readFile(m.file, "utf8") })}\n`);
  }
  const file = tempPath(localPath(stateRoot, pack));
  await mkdir(path.dirname(file), { recursive: true });
  // level 6 and no timestamp in the header: the same members give the same bytes
  await writeFile(file, await promisify(gzip)(lines.join("")));
  return file;
}

/** Writes a downloaded pack's members into the state folder (each atomically; the cache needs no fsync). */
export async function unpack(stateRoot: string, pack: string, file: string): Promise<number> {
  const text = (await promisify(gunzip)(await readFile(file))).toString("utf8");
  let members = 0;
  for (const line of text.split("\n")) {
    if (line === "") continue;
    const { rel, text: body } = JSON.parse(line) as { rel: string; text: string };
    if (packOf(rel) !== pack) throw new Error(`${pack} holds ${rel}, which belongs to another pack`);
    await writeFileAtomic(localPath(stateRoot, rel), body, { sync: false });
    members++;
  }
  await rm(file, { force: true });
  return members;
}
