// Malformed payloads, set aside: <stateDir>/quarantine/<run_date>/<source>/<sha of the url>.json holds the
// URL, the schema issues and the payload as received, so an operator can see what changed upstream. A
// quarantined payload is counted and skipped; it never stops the run. Writing the same URL twice in a run
// (e.g. after a resume) replaces the file, so the count on disk is one per bad URL.
import { createHash } from "node:crypto";
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { ZodError } from "zod";
import { writeJsonAtomic } from "../../core/files.ts";

export interface QuarantineIssue {
  path: string;
  message: string;
}

export interface QuarantineEntry {
  source: string;
  url: string;
  /** What was wrong, e.g. the zod issues. */
  issues: QuarantineIssue[];
  payload: unknown;
}

export interface Quarantine {
  /** <stateDir>/quarantine/<run_date> */
  readonly root: string;
  /** Writes the entry and returns its file. */
  put(entry: QuarantineEntry): Promise<string>;
  /** Files quarantined for a source in this run (all sources when omitted). */
  list(source?: string): Promise<string[]>;
}

/** zod issues as plain {path, message} pairs (path joined with dots, "(root)" for the top). */
export function zodIssues(error: ZodError): QuarantineIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.join(".") : "(root)",
    message: issue.message,
  }));
}

export function openQuarantine(stateDir: string, runDate: string, now = () => new Date()): Quarantine {
  const root = path.resolve(stateDir, "quarantine", runDate);
  const safe = (source: string) => source.replace(/[^A-Za-z0-9._-]/g, "_");
  return {
    root,
    async put(entry) {
      const name = createHash("sha256").update(entry.url).digest("hex").slice(0, 16);
      const file = path.join(root, safe(entry.source), `${name}.json`);
      await writeJsonAtomic(file, { ...entry, quarantined_at: now().toISOString() });
      return file;
    },
    async list(source) {
      const sources = source ? [safe(source)] : await readdir(root).catch(() => [] as string[]);
      const files: string[] = [];
      for (const s of sources.sort()) {
        const names = await readdir(path.join(root, s)).catch(() => [] as string[]);
        files.push(...names.filter((n) => n.endsWith(".json")).map((n) => path.join(root, s, n)));
      }
      return files;
    },
  };
}
