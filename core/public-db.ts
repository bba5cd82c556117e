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

/** Where the public databases live: `<state>/public/<run_date>.duckdb`, the current one named by current.json. */
export function publicDbPaths(stateRoot: string) {
  const dir = path.join(stateRoot, "public");
  return {
    dir,
    pointer: path.join(dir, "current.json"),
    fileFor: (runDate: string) => path.join(dir, `${runDate}.duckdb`),
  };
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
