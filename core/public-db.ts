// Where the public database lives and which file is current: the one file the SQL endpoint and `projintel sql`
// read. The served release names a run date; readers open that night's file, so a publish killed after the
// public database was rebuilt but before the release flipped never makes SQL and the API disagree.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { AppError } from "./errors.ts";
import { readTextIfExists } from "./files.ts";

/**
 * A nightly part's name: `<run_date>-<the first 16 hex digits of its bytes' sha256>` (the stem of its `.duckdb` file
 * and `.json` manifest), so a night built twice (its first release, then its history release) gives two names and a
 * reader holding the first open sees the second as another file. `<run_date>` alone is an older build's name, still
 * read.
 */
export const PUBLIC_DB_NAME = /^(\d{4}-\d{2}-\d{2})(-[0-9a-f]{16})?$/;
/** The name of a night's public database with these bytes. */
export const publicDbName = (runDate: string, sha256: string) => `${runDate}-${sha256.slice(0, 16)}`;
/** A nightly part's name read back from its file name (`<name>.duckdb`), with its night; undefined for any other. */
export function parsePublicDbFile(file: string): { name: string; runDate: string } | undefined {
  const name = file.endsWith(".duckdb") ? file.slice(0, -".duckdb".length) : "";
  const runDate = PUBLIC_DB_NAME.exec(name)?.[1];
  return runDate === undefined ? undefined : { name, runDate };
}

/**
 * Where a remote (a bucket or a folder, `publish --target`) holds each published night's public database, by name:
 * the shim serving from it (`serve --release`) downloads the file its live release names into its own
 * `<state>/public/`.
 */
export const PUBLIC_DB_PREFIX = "public-db/";
export const publicDbKey = (name: string) => `${PUBLIC_DB_PREFIX}${name}.duckdb`;
/** The night's parts manifest on a remote, beside its nightly file. */
export const publicDbManifestKey = (name: string) => `${PUBLIC_DB_PREFIX}${name}.json`;
/** The folder of history parts, on a remote (under PUBLIC_DB_PREFIX) and locally (under `<state>/public/`). */
export const PARTS_FOLDER = "parts";
export const publicDbPartKey = (name: string) => `${PUBLIC_DB_PREFIX}${PARTS_FOLDER}/${name}.duckdb`;
/**
 * Each database object on a remote also travels gzipped, at `<key>.gz`: a DuckDB file is mostly blocks that compress
 * (the 220,000-repository nightly part, 58.2 MB, is 27.1 MB at gzip level 6), so a shim's switch downloads the gzipped
 * copy, unpacks it as it arrives, and checks the result against the plain object's size and sha256. The plain object
 * stays for any other reader, and for a shim when a bucket holds no gzipped copy (an older publish).
 */
export const gzippedKey = (key: string) => `${key}.gz`;
/** gzip's level for those copies: level 9 packs the nightly part 3% smaller in twice the time. */
export const PUBLIC_DB_GZIP_LEVEL = 6;

/**
 * Where the public databases live: `<state>/public/<name>.duckdb` (the nightly part, named by PUBLIC_DB_NAME),
 * `<name>.json` beside it (the history parts it reads, when it has any), `parts/<part>.duckdb` (those parts);
 * current.json names the latest build.
 */
export function publicDbPaths(stateRoot: string) {
  const dir = path.join(stateRoot, "public");
  return {
    dir,
    pointer: path.join(dir, "current.json"),
    fileFor: (name: string) => path.join(dir, `${name}.duckdb`),
    manifestFor: (name: string) => path.join(dir, `${name}.json`),
    partsDir: path.join(dir, PARTS_FOLDER),
    partFile: (name: string) => path.join(dir, PARTS_FOLDER, `${name}.duckdb`),
  };
}

/** A history part's name: `<table>-<period>-<16 hex digits of its content's hash>`. */
const PART_NAME = /^[a-z_]+-\d{4}-\d{2}(-\d{2})?-[0-9a-f]{16}$/;

const manifestSchema = z.object({
  run_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  parts: z.array(
    z.object({
      /** File name without `.duckdb`, named by content: the same rows always give the same name. */
      name: z.string().regex(PART_NAME),
      table: z.string(),
      /** The catalog the part is attached as; the nightly part's view of `table` reads it under this name. */
      alias: z.string().regex(/^[a-z_0-9]+$/),
      from: z.string(),
      to: z.string(),
      rows: z.number(),
    }),
  ),
});

/**
 * Which history parts a nightly public database reads: closed periods of its dated tables, each in its own immutable
 * file, so a night changes only the nightly part (docs/production.md, "The public database").
 */
export type PublicDbManifest = z.infer<typeof manifestSchema>;
export type PublicDbPart = PublicDbManifest["parts"][number];

/** The manifest beside a nightly file (`<run_date>.json` for `<run_date>.duckdb`). */
export const manifestBeside = (file: string) => file.replace(/\.duckdb$/, ".json");
/** A part's file, in the `parts/` folder beside the nightly file that names it. */
export const partBeside = (file: string, name: string) =>
  path.join(path.dirname(file), PARTS_FOLDER, `${name}.duckdb`);

/** Parses a parts manifest (local or downloaded), naming `source` when it is not one. */
export function parsePublicDbManifest(text: string, source: string): PublicDbManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const parsed = manifestSchema.safeParse(value);
  if (!parsed.success) {
    throw new AppError(`${source} is not a valid public database parts manifest.`, {
      hint: "Run `projintel score` (or publish again) to rebuild the public database.",
    });
  }
  return parsed.data;
}

/** The manifest beside the nightly file `file`, or undefined for a database held in one file (no history parts). */
export async function readManifestBeside(file: string): Promise<PublicDbManifest | undefined> {
  const source = manifestBeside(file);
  const text = await readTextIfExists(source);
  return text === undefined ? undefined : parsePublicDbManifest(text, source);
}

const pointerSchema = z.object({
  run_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  file: z.string().refine((file) => parsePublicDbFile(file) !== undefined),
  built_at: z.string(),
  tables: z.record(z.string(), z.number()),
});

export type PublicDbPointer = z.infer<typeof pointerSchema>;

/** What a release says of its public database: its night, and the file it was published with (older ones: none). */
export interface ServedPublicDb {
  run_date: string;
  public_db?: string | undefined;
}

/**
 * The public database to read, or undefined when none is here. With the served release (or its run date), the file
 * the release names — what the API serves, even after a later `score` of the same night built another — or, for a
 * release that names none (an older publish), that night's latest file; otherwise the one `current.json` names
 * (built by `score` before any release). A release naming a file that is not here resolves to undefined, never to
 * another build.
 */
export async function resolvePublicDb(
  stateRoot: string,
  served?: string | ServedPublicDb,
): Promise<(PublicDbPointer & { path: string }) | undefined> {
  const paths = publicDbPaths(stateRoot);
  const pointer = await readPointer(paths.pointer);
  const release = typeof served === "string" ? { run_date: served } : served;
  const current = pointer && { ...pointer, path: path.join(paths.dir, pointer.file) };
  if (release === undefined) return current;
  if (release.public_db !== undefined) {
    if (pointer?.file === release.public_db) return current;
    return builtFile(path.join(paths.dir, release.public_db), release.run_date);
  }
  if (pointer?.run_date === release.run_date) return current;
  // current.json moved on (a later `score` or a publish killed before its release flipped): the file of the
  // served night is still kept beside it (KEEP_PREVIOUS_PUBLIC_DBS), so SQL answers for what the API serves.
  const night = await latestPublicDb(stateRoot, release.run_date);
  const file =
    night === undefined ? undefined : await builtFile(path.join(paths.dir, night), release.run_date);
  return file ?? current;
}

/**
 * The file name of the night's latest public database here: the one current.json names when it is of that night,
 * else the night's most recently written; undefined when none is here. What a publish records in its release.
 */
export async function latestPublicDb(stateRoot: string, runDate: string): Promise<string | undefined> {
  const paths = publicDbPaths(stateRoot);
  const pointer = await readPointer(paths.pointer);
  if (pointer?.run_date === runDate && (await fileStat(path.join(paths.dir, pointer.file)))) {
    return pointer.file;
  }
  let latest: { file: string; at: number } | undefined;
  for (const file of await readdir(paths.dir).catch(() => [] as string[])) {
    if (parsePublicDbFile(file)?.runDate !== runDate) continue;
    const at = (await fileStat(path.join(paths.dir, file)))?.mtimeMs ?? -1;
    if (at >= 0 && (!latest || at > latest.at)) latest = { file, at };
  }
  return latest?.file;
}

async function builtFile(
  file: string,
  runDate: string,
): Promise<(PublicDbPointer & { path: string }) | undefined> {
  const built = await fileStat(file);
  return (
    built && {
      run_date: runDate,
      file: path.basename(file),
      built_at: built.mtime.toISOString(),
      tables: {},
      path: file,
    }
  );
}

async function fileStat(file: string) {
  return stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
}

async function readPointer(file: string): Promise<PublicDbPointer | undefined> {
  const text = await readTextIfExists(file);
  if (text === undefined) return undefined;
  const parsed = pointerSchema.safeParse(JSON.parse(text));
  if (!parsed.success) {
    throw new AppError(`${file} is not a valid public database pointer.`, {
      hint: "Run `projintel score` again to rebuild the public database.",
    });
  }
  return parsed.data;
}
