// Which registry names to look up tonight. Most candidate names (a repository's name on PyPI, npm or Docker
// Hub, its owner on the Hugging Face Hub) belong to nobody: asking every one every night would spend most
// requests on 404s. Tonight's lookups are therefore: a name found in the last TRACKED_FOR_DAYS, on the nights
// its repository gets GitHub's full refresh (its tier's period: nightly for the top 5% by stars, every 3
// nights for the next 20%, weekly for the rest; scoring reads each package's latest row meanwhile); every
// candidate of a repository first seen or renamed since the last run; and each remaining name once every
// REPROBE_DAYS, on its own phase day, so the re-probes of the misses are spread evenly over the week.
// Without history (the first night), and for a source with no rows in the window (one added to an existing
// warehouse, or one the demo's GitHub-only earlier nights skipped), every name is looked up.
import { phaseOf } from "../schedule/tiers.ts";
import { TRACKED_FOR_DAYS } from "./github/tracked.ts";
import type { CollectContext, History, RawTable, RepoRef } from "./types.ts";

/** What the plan needs of a candidate's repository. */
export type Candidate = Pick<RepoRef, "full_name" | "full_refresh">;

/** A name that was not found is asked again after this many nights (a package published meanwhile waits at most this long). */
export const REPROBE_DAYS = 7;

export interface ProbePlan {
  /** Whether to look `name` up tonight, given the repositories it is a candidate for. */
  due(name: string, repos: readonly Candidate[]): boolean;
}

const DAY_MS = 86_400_000;

/** Repository names (lower-cased) with a row in the last TRACKED_FOR_DAYS, read once per run's history. */
const earlierNames = new WeakMap<History, Promise<Set<string>>>();

function namesBefore(ctx: CollectContext): Promise<Set<string>> {
  const { history } = ctx;
  if (!history) return Promise.resolve(new Set());
  let names = earlierNames.get(history);
  if (!names) {
    names = history
      .latest("raw_github_repos", "full_name", [], undefined, { withinDays: TRACKED_FOR_DAYS })
      .then((rows) => new Set(rows.map((r) => String(r.full_name).toLowerCase())));
    earlierNames.set(history, names);
  }
  return names;
}

/**
 * The plan for a source whose found entities are keyed by `key` in `table` (compared lower-cased), e.g.
 * ("raw_pypi_projects", "package") or ("raw_hf_models", "author").
 */
export async function probePlan(ctx: CollectContext, table: RawTable, key: string): Promise<ProbePlan> {
  const recent = { withinDays: TRACKED_FOR_DAYS };
  const before = await namesBefore(ctx);
  if (before.size === 0) return { due: () => true };
  const known = (await ctx.history?.latest(table, key, [], undefined, recent)) ?? [];
  // A source that never found anything in the window has not run yet: a new source's first night probes everything
  // rather than a seventh of the names a night for a week.
  if (known.length === 0) return { due: () => true };
  const found = new Set(known.map((r) => String(r[key]).toLowerCase()));
  const day = Math.floor(Date.parse(`${ctx.runDate}T00:00:00Z`) / DAY_MS);
  return {
    due: (name, repos) =>
      found.has(name.toLowerCase())
        ? repos.some((r) => r.full_refresh !== false)
        : repos.some((r) => !before.has(r.full_name.toLowerCase())) ||
          (day + phaseOf(name)) % REPROBE_DAYS === 0,
  };
}
