// `npm run bench -- scdiff`: the score diff (OpenSSF Scorecard's scdiff) before a methodology change ships — the
// reality list rated now against a baseline's ratings of it, through `projintel rate --diff`: the projects whose
// tier moves, the moves counted and the median score change, written to bench/results/scdiff.json.
// Baseline: bench/results/scdiff-base.jsonl (committed; SCDIFF_BASE_COMMIT's ratings), or BENCH_SCDIFF_BASE: a
// previous `rate --json` file, or a git ref whose rate CLI rates the list in a temporary worktree.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { writeJsonAtomic } from "../core/files.ts";
import type { ScoreDiff } from "../pipeline/lists/rate-diff.ts";
import { REALITY_LIST } from "../pipeline/lists/reality-check.ts";

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
export const SCDIFF_BASE_FILE = path.join(ROOT, "bench", "results", "scdiff-base.jsonl");
/** The commit whose scoring SCDIFF_BASE_FILE holds: the one before issue 34's scoring change. */
export const SCDIFF_BASE_COMMIT = "a4352cabdada4d9d48d5b67c23ac02dd2b8a10b3";
export const SCDIFF_FILE = path.join(ROOT, "bench", "results", "scdiff.json");
/** A rating of the whole list (426 rows) through tsx and DuckDB; minutes only on a machine under heavy load. */
const RATE_TIMEOUT_MS = 600_000;

function rateCli(root: string, args: string[]): string {
  return execFileSync(process.execPath, [path.join(root, "bin", "projintel.js"), "rate", ...args], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    timeout: RATE_TIMEOUT_MS,
    stdio: ["ignore", "pipe", "inherit"],
  });
}

/** The list rated by a git ref's own rate CLI, in a worktree of it sharing this clone's node_modules. */
async function ratingsAt(ref: string, into: string): Promise<{ commit: string }> {
  const commit = execFileSync("git", ["rev-parse", "--verify", `${ref}^{commit}`], {
    cwd: ROOT,
    encoding: "utf8",
  }).trim();
  const tree = await mkdtemp(path.join(os.tmpdir(), "projintel-scdiff-"));
  try {
    execFileSync("git", ["worktree", "add", "--detach", tree, commit], { cwd: ROOT, stdio: "ignore" });
    await symlink(path.join(ROOT, "node_modules"), path.join(tree, "node_modules"), "dir");
    const out = rateCli(tree, [REALITY_LIST.file, "--as-of", REALITY_LIST.as_of, "--json"]);
    await writeFile(into, out);
    return { commit };
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", tree], { cwd: ROOT, stdio: "ignore" });
    await rm(tree, { recursive: true, force: true });
  }
}

export interface Scdiff extends ScoreDiff {
  as_of: string;
  list: string;
  /** The baseline's ratings: a file, and the commit they come from when known. */
  base: { file: string; commit: string | null };
}

/** Rates the reality list now against the baseline (`base`: a rate --json file or a git ref), writes SCDIFF_FILE. */
export async function benchScdiff(base?: string): Promise<Omit<Scdiff, "changes">> {
  const work = await mkdtemp(path.join(os.tmpdir(), "projintel-scdiff-base-"));
  try {
    let baseline: Scdiff["base"];
    if (base === undefined)
      baseline = { file: path.relative(ROOT, SCDIFF_BASE_FILE), commit: SCDIFF_BASE_COMMIT };
    else if (existsSync(base)) baseline = { file: base, commit: null };
    else {
      const file = path.join(work, "base.jsonl");
      baseline = { file: `rate --json at ${base}`, commit: (await ratingsAt(base, file)).commit };
      base = file;
    }
    const previous = base ?? SCDIFF_BASE_FILE;
    const out = rateCli(ROOT, [
      REALITY_LIST.file,
      "--as-of",
      REALITY_LIST.as_of,
      "--diff",
      previous,
      "--json",
    ]);
    const {
      as_of,
      previous: _,
      ...diff
    } = JSON.parse(out) as ScoreDiff & { as_of: string; previous: string };
    const result: Scdiff = { list: path.relative(ROOT, REALITY_LIST.file), as_of, base: baseline, ...diff };
    await writeJsonAtomic(SCDIFF_FILE, result);
    const { changes: __, ...summary } = result;
    return summary;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
