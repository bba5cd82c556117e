// Hides the server's paths in what a query returns: every string value and every message passes through one
// scrubber that replaces the public database's path, its folders and the process's home, temp and working
// folders. The deny list keeps the catalog views that show paths out; this catches what it does not foresee.
import os from "node:os";
import path from "node:path";

/** What a hidden path reads as. */
export const HIDDEN_PATH = "<server path>";
/** Folders hidden have at least this many components. */
const MIN_PATH_DEPTH = 2;

/** A scrubber for the database at `file`: replaces its path and the server's folders, longest first. */
export function createScrubber(file: string): (text: string) => string {
  const resolved = path.resolve(file);
  const secrets = [
    resolved,
    path.dirname(resolved),
    path.dirname(path.dirname(resolved)),
    os.homedir(),
    os.tmpdir(),
    process.cwd(),
  ]
    // "/tmp" or "/root" alone tells nothing and may well appear in a project's description: left as is
    .filter((p) => p.split(path.sep).filter(Boolean).length >= MIN_PATH_DEPTH)
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(HIDDEN_PATH);
    return out;
  };
}

/** `value` with every string inside (lists and structs included) scrubbed. */
export function scrubValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === "string") return scrub(value);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, scrub));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[scrub(key)] = scrubValue(v, scrub);
    return out;
  }
  return value;
}
