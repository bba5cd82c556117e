// PyPI: every recorded project parses; toRows gives exact rows; links and versions follow the rules.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { keepProject } from "./index.ts";
import { githubRepoOf, linkedRepos, normalizeName } from "./names.ts";
import { toRows } from "./rows.ts";
import { type PypiProject, pypiProjectSchema } from "./schemas.ts";
import { isPreRelease } from "./versions.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/pypi");
const project = (stem: string): PypiProject =>
  pypiProjectSchema.parse(JSON.parse(readFileSync(path.join(REAL, `project-json.${stem}.json`), "utf8")));
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("pypi schema", () => {
  it("accepts every recorded project body", () => {
    const bodies = readdirSync(REAL).filter(
      (f) => f.startsWith("project-json.") && !f.endsWith(".headers.json"),
    );
    expect(bodies.length).toBe(3);
    for (const file of bodies) {
      expect(
        pypiProjectSchema.safeParse(JSON.parse(readFileSync(path.join(REAL, file), "utf8"))).success,
      ).toBe(true);
    }
  });
});

describe("pypi's ETag cache entry", () => {
  it("keeps only what the schema reads, from which every recorded project gives the same rows", () => {
    const sizes: Record<string, [number, number]> = {};
    for (const file of readdirSync(REAL).filter(
      (f) => f.startsWith("project-json.") && !f.endsWith(".headers.json"),
    )) {
      const text = readFileSync(path.join(REAL, file), "utf8");
      const kept = JSON.stringify(keepProject(JSON.parse(text)));
      const rows = (body: unknown) => toRows({ project: pypiProjectSchema.parse(body), repo: "o/r" }, meta);
      expect(rows(JSON.parse(kept))).toEqual(rows(JSON.parse(text)));
      sizes[file] = [text.length, kept.length];
    }
    // bytes of the body and of the entry kept: about a ninth
    expect(sizes).toEqual({
      "project-json.mkdocstrings.2025-09.json": [142_192, 16_597],
      "project-json.ply.2023-07.json": [9_834, 1_091],
      "project-json.requests.2023-01.json": [206_526, 24_779],
    });
  });
});

describe("pypi toRows", () => {
  it("maps mkdocstrings (Metadata 2.4: license_expression, one beta among 70 releases)", () => {
    expect(
      toRows({ project: project("mkdocstrings.2025-09"), repo: "mkdocstrings/mkdocstrings" }, meta),
    ).toEqual([
      {
        run_date: "2026-03-01",
        package: "mkdocstrings",
        repo_full_name: "mkdocstrings/mkdocstrings",
        version: "0.30.1",
        summary: "Automatic documentation from sources, for MkDocs.",
        license: "ISC",
        requires_dist: [
          "Jinja2>=2.11.1",
          "Markdown>=3.6",
          "MarkupSafe>=1.1",
          "mkdocs>=1.6",
          "mkdocs-autorefs>=1.4",
          "pymdown-extensions>=6.3",
          'importlib-metadata>=4.6; python_version < "3.10"',
          'mkdocstrings-crystal>=0.3.4; extra == "crystal"',
          'mkdocstrings-python-legacy>=0.2.1; extra == "python-legacy"',
          'mkdocstrings-python>=1.16.2; extra == "python"',
        ],
        releases_total: 70,
        stable_releases: 69,
        first_release_at: "2019-12-12T22:16:17.098364Z",
        latest_release_at: "2025-09-19T10:49:24.805222Z",
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
  });

  it("maps ply: releases without files do not count, requires_dist null is empty, free-text licence", () => {
    expect(toRows({ project: project("ply.2023-07"), repo: null }, meta)[0]).toMatchObject({
      package: "ply",
      repo_full_name: null,
      version: "3.11",
      license: "BSD",
      requires_dist: [],
      releases_total: 6,
      stable_releases: 6,
      first_release_at: "2012-04-18T14:24:41.501674Z",
      latest_release_at: "2018-02-15T19:01:27.172483Z",
    });
  });

  it("maps requests: 145 of 148 versions have files", () => {
    expect(toRows({ project: project("requests.2023-01"), repo: "psf/requests" }, meta)[0]).toMatchObject({
      package: "requests",
      license: "Apache 2.0",
      releases_total: 145,
      stable_releases: 145,
      first_release_at: "2011-02-14T08:49:42.641660Z",
      latest_release_at: "2023-01-12T16:24:52.241259Z",
    });
  });

  it("ignores a release whose files are all yanked", () => {
    const p = project("mkdocstrings.2025-09");
    for (const file of p.releases["0.30.1"] ?? []) file.yanked = true;
    const [row] = toRows({ project: p, repo: null }, meta);
    expect(row?.releases_total).toBe(69);
    expect(row?.latest_release_at).toBe("2025-07-22T23:48:44.152311Z"); // 0.30.0, the release before
  });
});

describe("links back to the repository", () => {
  it("finds the GitHub repository in recorded project_urls", () => {
    expect(linkedRepos(project("mkdocstrings.2025-09").info)).toEqual(["mkdocstrings/mkdocstrings"]);
    expect(linkedRepos(project("requests.2023-01").info)).toEqual(["psf/requests"]);
    expect(linkedRepos(project("ply.2023-07").info)).toEqual([]);
  });

  it.each([
    ["https://github.com/Owner/Repo", "owner/repo"],
    ["http://www.github.com/owner/repo/", "owner/repo"],
    ["https://github.com/owner/repo.git", "owner/repo"],
    ["https://github.com/owner/repo/tree/main/python", "owner/repo"],
    ["https://github.com/owner/repo#readme", "owner/repo"],
    ["git+https://github.com/owner/repo.git", "owner/repo"],
    ["git@github.com:owner/repo.git", "owner/repo"],
    ["github.com/owner/repo", "owner/repo"],
    ["https://github.com/sponsors/someone", undefined],
    ["https://github.com/owner", undefined],
    ["https://gitlab.com/owner/repo", undefined],
    ["https://notgithub.com/owner/repo", undefined],
  ])("%s → %s", (url, expected) => {
    expect(githubRepoOf(url)).toBe(expected);
  });

  it("normalises names per PEP 503", () => {
    expect(normalizeName("Friendly-Bard")).toBe("friendly-bard");
    expect(normalizeName("FRIENDLY_BARD")).toBe("friendly-bard");
    expect(normalizeName("friendly.bard")).toBe("friendly-bard");
    expect(normalizeName("Friendly-._.-Bard")).toBe("friendly-bard");
  });
});

describe("PEP 440 pre-releases", () => {
  it.each([
    ["1.0", false],
    ["1.0.post1", false],
    ["1.0-1", false],
    ["1.0+local.7", false],
    ["2!1.0", false],
    ["0.12.01", false],
    ["1.0a1", true],
    ["1.0.0-alpha.1", true],
    ["1.0b2", true],
    ["0.14.0b1", true],
    ["1.0rc1", true],
    ["1.0c1", true],
    ["1.0.dev0", true],
    ["1.0.post1.dev2", true],
    ["1.0-preview", true],
    ["v2.0.0RC3", true],
  ])("%s → %s", (version, pre) => {
    expect(isPreRelease(version)).toBe(pre);
  });
});
