// Fetched rows, one batch per file, under <stateDir>/runs/<run_date>/batches/<source>/<batch-id>.ndjson.
// A file appears whole or not at all (temp file, fsync, rename), so a killed run resumes by skipping the
// batches that exist: nothing is fetched twice and nothing half-written is loaded.
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { AppError } from "../../core/errors.ts";
import { removeTempFiles, writeFileAtomic } from "../../core/files.ts";

export interface BatchStore {
  /** <stateDir>/runs/<run_date>/batches */
  readonly root: string;
  has(source: string, id: string): Promise<boolean>;
  /** Writes the rows as NDJSON, replacing any earlier file of that id. */
  write(source: string, id: string, rows: readonly object[]): Promise<void>;
  read<T = Record<string, unknown>>(source: string, id: string): Promise<T[]>;
  /** Batch ids of a source, sorted; only those starting with `prefix` when given. */
  list(source: string, prefix?: string): Promise<string[]>;
  /** Absolute paths of the batch files, sorted like `list`. */
  files(source: string, prefix?: string): Promise<string[]>;
  /** Deletes the temp files a killed invocation left half-written; returns how many. */
  removeLeftovers(): Promise<number>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const EXT = ".ndjson";

function checkName(kind: string, name: string): string {
  if (!NAME.test(name)) {
    throw new AppError(`Invalid batch ${kind} "${name}": use letters, digits, ".", "_" and "-" only.`);
  }
  return name;
}

export function openBatchStore(stateDir: string, runDate: string): BatchStore {
  const root = path.resolve(stateDir, "runs", checkName("run date", runDate), "batches");
  const dir = (source: string) => path.join(root, checkName("source", source));
  const file = (source: string, id: string) => path.join(dir(source), `${checkName("id", id)}${EXT}`);

  async function list(source: string, prefix = ""): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(dir(source));
    } catch (error) {
      // No folder yet means no batch yet; anything else (permissions, I/O) must surface.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw error;
    }
    return names
      .filter((n) => n.endsWith(EXT) && n.startsWith(prefix))
      .map((n) => n.slice(0, -EXT.length))
      .sort();
  }

  return {
    root,
    async has(source, id) {
      try {
        return (await stat(file(source, id))).isFile();
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
        throw error;
      }
    },
    async write(source, id, rows) {
      await writeFileAtomic(file(source, id), rows.map((row) => `${JSON.stringify(row)}\n`).join(""));
    },
    async read<T>(source: string, id: string) {
      const text = await readFile(file(source, id), "utf8");
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as T);
    },
    list,
    async files(source, prefix) {
      return (await list(source, prefix)).map((id) => file(source, id));
    },
    removeLeftovers: () => removeTempFiles(root),
  };
}
