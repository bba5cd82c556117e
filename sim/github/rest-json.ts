// GitHub REST bodies for users and repositories, in the shape of the recorded repo-get and search bodies
// (api.github.com URLs, snake_case fields), computed from the world at the sim instant.
import { formatInstant } from "../dates.ts";
import * as m from "../metrics.ts";
import { encodeLegacyId } from "../node-id.ts";
import { FLAG_EMPTY, FLAG_FORK } from "../repo-params.ts";
import {
  defaultBranchOf,
  descriptionOf,
  homepageOf,
  languageOf,
  licenseOf,
  topicNames,
} from "../repo-text.ts";
import type { World } from "../world.ts";

export const API = "https://api.github.com";

export function userJson(login: string, id: number, type: "User" | "Organization" = "User") {
  const url = `${API}/users/${login}`;
  return {
    login,
    id,
    node_id: encodeLegacyId(type, id),
    avatar_url: `https://avatars.githubusercontent.com/u/${id}?v=4`,
    gravatar_id: "",
    url,
    html_url: `https://github.com/${login}`,
    followers_url: `${url}/followers`,
    following_url: `${url}/following{/other_user}`,
    gists_url: `${url}/gists{/gist_id}`,
    starred_url: `${url}/starred{/owner}{/repo}`,
    subscriptions_url: `${url}/subscriptions`,
    organizations_url: `${url}/orgs`,
    repos_url: `${url}/repos`,
    events_url: `${url}/events{/privacy}`,
    received_events_url: `${url}/received_events`,
    type,
    user_view_type: "public",
    site_admin: false,
  };
}

export function ownerJson(world: World, owner: number) {
  const org = world.isOrganization(owner);
  return userJson(world.ownerLogin(owner), 5_000_000 + owner, org ? "Organization" : "User");
}

/** Instant of the last push: the head commit (a repository without commits: its creation). */
export function pushedInstant(world: World, i: number, now: number): number {
  const n = m.commits(world, i, now);
  return n === 0 ? (world.params.created[i] as number) : m.commitInstant(world, i, n, now);
}

/** GET /repos/{owner}/{repo} (and each item of /search/repositories, which adds `score`). */
export function repoJson(world: World, i: number, now: number) {
  const full = world.fullNameAt(i, now);
  const url = `${API}/repos/${full}`;
  const stars = m.stars(world, i, now);
  const forks = m.forks(world, i, now);
  const issues = m.issueCounts(world, i, now);
  const prs = m.pullRequestCounts(world, i, now);
  const openIssues = issues.open + prs.open;
  const license = licenseOf(world, i);
  const pushed = pushedInstant(world, i, now);
  const empty = ((world.params.flags[i] as number) & FLAG_EMPTY) !== 0;
  return {
    id: world.databaseId(i),
    node_id: world.nodeId(i),
    name: world.repoNameAt(i, now),
    full_name: full,
    private: false,
    owner: ownerJson(world, world.ownerOf(i)),
    html_url: `https://github.com/${full}`,
    description: descriptionOf(world, i),
    fork: ((world.params.flags[i] as number) & FLAG_FORK) !== 0,
    url,
    contributors_url: `${url}/contributors`,
    stargazers_url: `${url}/stargazers`,
    issues_url: `${url}/issues{/number}`,
    releases_url: `${url}/releases{/id}`,
    created_at: formatInstant(world.params.created[i] as number),
    updated_at: formatInstant(m.updatedInstant(world, i, now, pushed)),
    pushed_at: formatInstant(pushed),
    git_url: `git://github.com/${full}.git`,
    clone_url: `https://github.com/${full}.git`,
    homepage: homepageOf(world, i),
    size: empty ? 0 : 50 + Math.floor(m.commits(world, i, now) * 11.5),
    stargazers_count: stars,
    watchers_count: stars,
    language: languageOf(world, i),
    has_issues: true,
    has_projects: true,
    has_downloads: true,
    has_wiki: true,
    has_pages: false,
    has_discussions: false,
    forks_count: forks,
    mirror_url: null,
    archived: m.isArchived(world, i, now),
    disabled: false,
    open_issues_count: openIssues,
    license: license
      ? {
          key: license.key,
          name: license.name,
          spdx_id: license.spdxId,
          url: license.spdxId === "NOASSERTION" ? null : `${API}/licenses/${license.key}`,
          node_id: `MDc6TGljZW5zZT${license.key.length}`,
        }
      : null,
    allow_forking: true,
    is_template: false,
    web_commit_signoff_required: false,
    topics: topicNames(world, i),
    visibility: "public",
    forks,
    open_issues: openIssues,
    watchers: stars,
    default_branch: defaultBranchOf(world, i) ?? "main",
    network_count: forks,
    subscribers_count: m.watchers(world, i, now),
  };
}
