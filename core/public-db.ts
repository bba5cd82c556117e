// Where the public database lives and which file is current: the one file the SQL endpoint and `projintel sql`
// read. The served release names a run date; readers open that night's file, so a publish killed after the
// public database was rebuilt but before the release flipped never makes SQL and the API disagree.
import { stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { AppError } from "./errors.ts";
import { readTextIfExists } from "./files.ts";

/**
 * Where a remote (a bucket or a folder, `publish --target`) holds each published night's public database: the shim
 * serving from it (`serve --release`) downloads the served night's file into its own `<state>/public/`.
 */
export const PUBLIC_DB_PREFIX = "public-db/";
export const publicDbKey = (runDate: string) => `${PUBLIC_DB_PREFIX}${runDate}.duckdb`;
/** The night's parts manifest on a remote, beside its nightly file. */
export const publicDbManifestKey = (runDate: string) => `${PUBLIC_DB_PREFIX}${runDate}.json`;
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
 * Where the public databases live: `<state>/public/<run_date>.duckdb` (the nightly part), `<run_date>.json` beside it
 * (the history parts it reads, when it has any), `parts/<name>.duckdb` (those parts); current.json names the current
 * night.
 */
export function publicDbPaths(stateRoot: string) {
  const dir = path.join(stateRoot, "public");
  return {
    dir,
    pointer: path.join(dir, "current.json"),
    fileFor: (runDate: string) => path.join(dir, `${runDate}.duckdb`),
    manifestFor: (runDate: string) => path.join(dir, `${runDate}.json`),
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
  file: z.string().regex(/^\d{4}-\d{2}-\d{2}\.duckdb$/),
  built_at: z.string(),
  tables: z.record(z.string(), z.number()),
});

export type PublicDbPointer = z.infer<typeof pointerSchema>;

/**
 * The public database to read, or undefined when none was built yet. With `runDate` (the served release's), that
 * night's file when it exists — what the API serves; otherwise the one `current.json` names (built by `score`
 * before any release).
 */
export async function resolvePublicDb(
  stateRoot: string,
  runDate?: string,
): Promise<(PublicDbPointer & { path: string }) | undefined> {
  const paths = publicDbPaths(stateRoot);
  const pointer = await readPointer(paths.pointer);
  if (runDate === undefined || pointer?.run_date === runDate) {
    return pointer && { ...pointer, path: path.join(paths.dir, pointer.file) };
  }
  const file = paths.fileFor(runDate);
  const built = await stat(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!built) return pointer && { ...pointer, path: path.join(paths.dir, pointer.file) };
  // current.json moved on (a later `score` or a publish killed before its release flipped): the file of the
  // served night is still kept beside it (KEEP_PREVIOUS_PUBLIC_DBS), so SQL answers for what the API serves.
  return {
    run_date: runDate,
    file: path.basename(file),
    built_at: built.mtime.toISOString(),
    tables: {},
    path: file,
  };
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
