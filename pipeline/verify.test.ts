// `sources verify` over the real recorded responses, and over small folders that exercise each verdict.
import { readdirSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { failures, formatLine, statusFromName, verifyRecorded } from "./verify.ts";

const REAL = path.resolve(import.meta.dirname, "../test/fixtures/real");
/** Every fixture folder: each source with recorded bodies has a parser. */
const COVERED = readdirSync(path.resolve(import.meta.dirname, "../test/fixtures/real"), {
  withFileTypes: true,
})
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

async function folder(files: Record<string, unknown>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "verify-"));
  for (const [name, content] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), typeof content === "string" ? content : JSON.stringify(content));
  }
  return dir;
}

describe("sources verify on test/fixtures/real", () => {
  it("parses or decides every recorded body of the covered sources, none failing", async () => {
    const lines = await verifyRecorded(REAL);
    const covered = lines.filter((l) => COVERED.includes(l.source));
    // a response is its body file, or — for a recorded body-less answer such as a redirect — its headers file
    const bodies = COVERED.flatMap((source) => {
      const files = readdirSync(path.join(REAL, source));
      const stems = new Set(
        files.filter((f) => !f.endsWith(".headers.json")).map((f) => f.replace(/\.[^.]+$/, "")),
      );
      return files
        .filter((f) => !f.endsWith(".headers.json") || !stems.has(f.replace(/\.headers\.json$/, "")))
        .map((f) => `${source}/${f}`);
    });
    expect(covered.map((l) => `${l.source}/${l.file}`).sort()).toEqual(bodies.sort());
    expect(covered.filter((l) => l.outcome === "failed").map(formatLine)).toEqual([]);
    expect(covered.every((l) => l.outcome === "ok" || l.outcome === "decision")).toBe(true);
    expect(failures(lines, false)).toEqual([]);
  });

  it("turns each error body into the right decision", async () => {
    const lines = await verifyRecorded(REAL);
    const decided = Object.fromEntries(
      lines.filter((l) => l.outcome === "decision").map((l) => [`${l.source}/${l.file}`, l.detail]),
    );
    expect(decided).toEqual({
      "github-graphql/error.401-bad-credentials.2023-12.json":
        "fail: 401 unauthorized: Bad credentials (status 401 from the file name)",
      "github-graphql/error.NOT_FOUND.partial-data.2021-05.json": expect.stringMatching(
        /^skip: skip the entity \(NOT_FOUND: Could not resolve/,
      ),
      "github-graphql/error.NOT_FOUND.repository.2023-02.json": expect.stringMatching(/^skip: /),
      "github-rest/error-403-primary-rate-limit.unauthenticated.2026-07.json": expect.stringMatching(
        /^retry in 60 s: 403 rate limited \(API rate limit exceeded/,
      ),
      "github-rest/error-403-primary-rate-limit.users-jacquev6.2013-05.json":
        "retry in 60 s: 403 primary rate limit exhausted (no reset time given) (API Rate Limit Exceeded for 92.104.200.119)",
      "github-rest/error-403-secondary-abuse-rate-limit.search-code.2018-10.json": expect.stringMatching(
        /^retry in 60 s: 403 secondary rate limit \(Retry-After 60 s\)/,
      ),
      "github-rest/stats-commit-activity.PyGithub-PyGithub.202-accepted.2013-11.json":
        "retry: 202 accepted, still computing (statistics still computing)",
      "github-rest/stats-commit-activity.sigmavirus24-github3.py.202-accepted.2018-01.json":
        "retry: 202 accepted, still computing (statistics still computing)",
      "arxiv/query-id_list-abc.error-400.2026-04.xml":
        "fail: 400 refused (arXiv error: incorrect id format for abc) (status 400 from the file name)",
      "huggingface/model-info.bert-base-uncased.307-redirect.2025-01.headers.json":
        "skip: 307 redirect to google-bert/bert-base-uncased, fetched under that id",
    });
  });

  it("reads what the connector needs from the ok bodies", async () => {
    const lines = await verifyRecorded(REAL);
    const detail = (file: string) => lines.find((l) => l.file === file)?.detail;
    expect(detail("contributors.sigmavirus24-github3.py.page1.2018-01.json")).toBe(
      "200: 100 contributors on this page, 2 pages",
    );
    expect(detail("repo-get.test-archived.archived-true.2024-03.json")).toBe(
      "200: test/archived, 66 stars, archived",
    );
    expect(detail("stats-commit-activity.PyGithub-PyGithub.200.2013-11.json")).toBe(
      "200: 52 weeks, 356 commits",
    );
    expect(detail("issues-list.PyGithub-PyGithub.page1.2024-09.json")).toBe(
      "200: 21 issues and 9 pull requests, last page 12",
    );
    expect(detail("project-json.requests.2023-01.json")).toBe("200: requests 2.28.2, 148 releases");
  });

  it("has a parser for every recorded source, so even --strict passes", async () => {
    const lines = await verifyRecorded(REAL);
    expect(COVERED.sort()).toEqual([
      "arxiv",
      "dockerhub",
      "github-graphql",
      "github-rest",
      "huggingface",
      "npm",
      "pypi",
      "pypistats",
    ]);
    expect(lines.filter((l) => l.outcome === "no_parser")).toEqual([]);
    expect(failures(lines, true)).toEqual([]);
  });

  it("reports a source without a parser, a failure only when strict", async () => {
    const dir = await folder({ "gitlab/project-get.x.json": { id: 1 } });
    const lines = await verifyRecorded(dir);
    expect(lines.map((l) => [l.source, l.outcome])).toEqual([["gitlab", "no_parser"]]);
    expect(failures(lines, false)).toEqual([]);
    expect(failures(lines, true)).toHaveLength(1);
  });
});

describe("sources verify on made-up folders", () => {
  it("fails a body the schema refuses, naming the field", async () => {
    const dir = await folder({ "pypistats/recent.bad.json": { data: { last_day: "many" }, package: "x" } });
    const [line] = await verifyRecorded(dir);
    expect(line).toMatchObject({ outcome: "failed" });
    expect(line?.detail).toMatch(/^schema: data\.last_day: /);
  });

  it("fails an unknown endpoint kind, a body that is not JSON and a headers file without a status", async () => {
    const dir = await folder({
      "github-rest/gists-list.x.json": [],
      "github-rest/repo-get.broken.json": "{not json",
      "github-rest/repo-get.nostatus.json": {},
      "github-rest/repo-get.nostatus.headers.json": { headers: [] },
    });
    const lines = await verifyRecorded(dir);
    expect(lines.map((l) => [l.file, l.outcome, l.detail.split(":")[0]])).toEqual([
      ["gists-list.x.json", "failed", 'no schema for github-rest endpoint kind "gists-list"'],
      ["repo-get.broken.json", "failed", "not JSON"],
      ["repo-get.nostatus.json", "failed", "headers file lacks a numeric status or a headers list"],
    ]);
  });

  it("uses the headers file: status, Link, Retry-After read at the recorded Date", async () => {
    const dir = await folder({
      "github-rest/contributors.x.json": [{ login: "a", type: "User", contributions: 3 }],
      "github-rest/contributors.x.headers.json": {
        status: 200,
        headers: [
          [
            "Link",
            '<https://api.github.com/r/1/contributors?per_page=1&page=2>; rel="next", <https://api.github.com/r/1/contributors?per_page=1&page=417>; rel="last"',
          ],
        ],
      },
      "github-rest/repo-get.limited.json": { message: "API rate limit exceeded" },
      "github-rest/repo-get.limited.headers.json": {
        status: 403,
        headers: [
          ["Date", "Mon, 01 Jan 2018 21:00:00 GMT"],
          ["X-RateLimit-Remaining", "0"],
          ["X-RateLimit-Reset", String(Date.parse("2018-01-01T21:10:00Z") / 1000)],
        ],
      },
      "github-rest/stats-commit-activity.none.headers.json": { status: 204, headers: [] },
    });
    const lines = await verifyRecorded(dir);
    expect(lines.map((l) => `${l.outcome} ${l.detail}`)).toEqual([
      "ok 200: 1 contributors on this page, 417 pages",
      "decision retry in 600 s: 403 primary rate limit exhausted (API rate limit exceeded)",
      "ok 204: no commits",
    ]);
  });

  it("names the status it inferred from the file name when there is no headers file", () => {
    expect(statusFromName("error-403-primary-rate-limit.unauthenticated.2026-07")).toBe(403);
    expect(statusFromName("error.401-bad-credentials.2023-12")).toBe(401);
    expect(statusFromName("stats-commit-activity.x.202-accepted.2013-11")).toBe(202);
    expect(statusFromName("query-id_list-abc.error-400.2026-04")).toBe(400);
    expect(statusFromName("downloads-range.2022-02-13_2023-02-11.dayjs")).toBeUndefined();
    expect(statusFromName("project-json.requests.2023-01")).toBeUndefined();
  });
});
