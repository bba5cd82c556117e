// The ground truth about one repository on one date, as plain data: what a correct pipeline should
// end up with after collecting it (for end-to-end tests, benchmarks and debugging the simulator).
import { parseDay } from "./dates.ts";
import { recentDownloads } from "./downloads.ts";
import * as m from "./metrics.ts";
import { latestStableIndex, releasesAt } from "./releases.ts";
import { FLAG_FORK, TRAJECTORIES, type Trajectory } from "./repo-params.ts";
import { descriptionOf, domainOf, languageOf, licenseOf, topicNames } from "./repo-text.ts";
import type { World } from "./world.ts";

export interface RepoSnapshot {
  index: number;
  nodeId: string;
  fullName: string;
  exists: boolean;
  trajectory: Trajectory;
  /** The AI domain the repository was generated for (one of SPEC.md's 30). */
  domain: string;
  description: string | null;
  topics: string[];
  language: string | null;
  license: string | null;
  isFork: boolean;
  isArchived: boolean;
  stars: number;
  forks: number;
  commits: number;
  openIssues: number;
  closedIssues: number;
  openPullRequests: number;
  mergedPullRequests: number;
  releases: number;
  latestRelease: string | null;
  pypiName: string | null;
  downloads: { last_day: number; last_week: number; last_month: number } | null;
}

export function snapshotRepo(world: World, index: number, date: string): RepoSnapshot {
  const now = parseDay(date);
  if (now === undefined) throw new Error(`Snapshot date "${date}" is not a YYYY-MM-DD day.`);
  const issues = m.issueCounts(world, index, now);
  const prs = m.pullRequestCounts(world, index, now);
  const releases = releasesAt(world, index, now);
  const latest = latestStableIndex(releases);
  const pypiName = world.pypiName(index) ?? null;
  const published = pypiName !== null && m.releaseCount(world, index, now) > 0;
  return {
    index,
    nodeId: world.nodeId(index),
    fullName: world.fullNameAt(index, now),
    exists: m.exists(world, index, now) && now < world.deleteDay(index),
    trajectory: TRAJECTORIES[world.params.kind[index] as number] as Trajectory,
    domain: domainOf(world, index).slug,
    description: descriptionOf(world, index),
    topics: topicNames(world, index),
    language: languageOf(world, index),
    license: licenseOf(world, index)?.spdxId ?? null,
    isFork: ((world.params.flags[index] as number) & FLAG_FORK) !== 0,
    isArchived: m.isArchived(world, index, now),
    stars: m.stars(world, index, now),
    forks: m.forks(world, index, now),
    commits: m.commits(world, index, now),
    openIssues: issues.open,
    closedIssues: issues.closed,
    openPullRequests: prs.open,
    mergedPullRequests: prs.merged,
    releases: releases.length,
    latestRelease: latest === 0 ? null : (releases[latest - 1]?.tagName ?? null),
    pypiName,
    downloads: published ? recentDownloads(world, index, now) : null,
  };
}
