// npm: every recorded body parses; toRows gives exact rows; repository spellings, names and bulk grouping.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyResponse } from "../../collect/http-decision.ts";
import { BULK_LIMIT, downloadRequests } from "./downloads.ts";
import { keepPackument } from "./packages.ts";
import { candidateNames, githubRepoOfNpm, packumentPath } from "./repository.ts";
import { toRows } from "./rows.ts";
import { bulkPointSchema, packumentSchema, pointSchema, rangeSchema } from "./schemas.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/npm");
const body = (file: string) => JSON.parse(readFileSync(path.join(REAL, file), "utf8"));
const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T04:00:00Z") };

describe("npm's ETag cache entry", () => {
  it("keeps only what the schema reads, from which the recorded packument gives the same link and rows", () => {
    const file = "packument-full.custodian.2024-09.json";
    const text = readFileSync(path.join(REAL, file), "utf8");
    const kept = JSON.stringify(keepPackument(JSON.parse(text)));
    const read = (json: string) => {
      const packument = packumentSchema.parse(JSON.parse(json));
      const link = githubRepoOfNpm(packument.repository);
      return { link, rows: toRows({ kind: "packument", packument, repo: String(link) }, meta) };
    };
    expect(read(kept)).toEqual(read(text));
    expect(read(kept).link).toBe("betsmartmedia/custodian");
    // bytes of the body and of the entry kept
    expect([text.length, kept.length]).toEqual([21_154, 2_597]);
  });
});

describe("npm toRows on recorded bodies", () => {
  it("maps the custodian packument (2024): git:// repository, 11 versions, latest 1.3.4", () => {
    const packument = packumentSchema.parse(body("packument-full.custodian.2024-09.json"));
    expect(toRows({ kind: "packument", packument, repo: "betsmartmedia/custodian" }, meta)).toEqual([
      {
        run_date: "2026-03-01",
        package: "custodian",
        repo_full_name: "betsmartmedia/custodian",
        linked_repo: "betsmartmedia/custodian",
        version: "1.3.4",
        description: "A process watchdog and command scheduler",
        versions_total: 11,
        created_at: "2012-01-09T22:17:37.775Z",
        modified_at: "2022-06-14T06:09:10.259Z",
        first_release_at: "2012-01-09T22:18:30.083Z",
        latest_release_at: "2015-03-31T23:06:10.091Z",
        version_published_at: "2015-03-31T23:06:10.091Z",
        dependencies: ["daemon", "dateformat", "nodemailer", "shell-quote"],
        deprecated: false,
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
  });

  it("answers the recorded packument headers (200, weak ETag) with ok", () => {
    const recorded = body("packument-full.custodian.2024-09.headers.json");
    const headers = Object.fromEntries(
      recorded.headers.map(([k, v]: [string, string]) => [k.toLowerCase(), v]),
    );
    expect(classifyResponse(recorded.status, headers, null).decision).toBe("ok");
  });

  it("maps a last-month point (base62, 2022)", () => {
    const point = pointSchema.parse(body("downloads-point-last-month.base62.2022-09.json"));
    expect(toRows({ kind: "point", point }, meta)).toEqual([
      {
        run_date: "2026-03-01",
        package: "base62",
        start_date: "2022-08-22",
        end_date: "2022-09-20",
        downloads: 1076972,
        fetched_at: "2026-03-01T04:00:00.000Z",
      },
    ]);
  });

  it.each([
    ["dayjs", 426536, 855529, 576660195],
    ["luxon", 106273, 213657, 198523687],
  ])("maps the %s range into 364 daily rows", (name, first, last, total) => {
    const range = rangeSchema.parse(body(`downloads-range.2022-02-13_2023-02-11.${name}.json`));
    const rows = toRows({ kind: "range", range }, meta);
    expect(rows).toHaveLength(364);
    expect(rows[0]).toEqual({
      run_date: "2026-03-01",
      package: name,
      start_date: "2022-02-13",
      end_date: "2022-02-13",
      downloads: first,
      fetched_at: "2026-03-01T04:00:00.000Z",
    });
    expect(rows[363]).toMatchObject({ start_date: "2023-02-11", end_date: "2023-02-11", downloads: last });
    expect(rows.reduce((sum, r) => sum + ("downloads" in r ? r.downloads : 0), 0)).toBe(total);
  });

  it("parses the bulk form, an unknown package being null", () => {
    const point = body("downloads-point-last-month.base62.2022-09.json");
    expect(bulkPointSchema.parse({ base62: point, "no-such-pkg": null, extra: point })).toMatchObject({
      base62: { downloads: 1076972 },
      "no-such-pkg": null,
    });
  });

  it("reports a packument without a name with the path of the issue", () => {
    const result = packumentSchema.safeParse({ versions: {} });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(["name"]);
  });
});

describe("npm names and links", () => {
  it.each([
    [{ type: "git", url: "git://github.com/BetSmartMedia/custodian.git" }, "betsmartmedia/custodian"],
    [{ type: "git", url: "git+https://github.com/Owner/Repo.git" }, "owner/repo"],
    [{ type: "git", url: "git+ssh://git@github.com/owner/repo.git" }, "owner/repo"],
    [
      { url: "https://github.com/owner/repo/tree/main/packages/core", directory: "packages/core" },
      "owner/repo",
    ],
    ["github:owner/repo", "owner/repo"],
    ["owner/repo", "owner/repo"],
    ["gitlab:owner/repo", undefined],
    ["https://gitlab.com/owner/repo", undefined],
    [{ type: "git" }, undefined],
    [null, undefined],
  ])("%j → %s", (repository, expected) => {
    expect(githubRepoOfNpm(repository)).toBe(expected);
  });

  it("encodes scoped names as the registry wants them", () => {
    expect(packumentPath("left-pad")).toBe("left-pad");
    expect(packumentPath("@scope/name")).toBe("@scope%2fname");
  });

  it("tries the repository name and @owner/name, lower-cased", () => {
    expect(candidateNames({ owner: "Acme", name: "Fast-Thing" })).toEqual(["fast-thing", "@acme/fast-thing"]);
  });

  it("groups unscoped names by 128 and sends scoped names alone", () => {
    const names = [...Array.from({ length: 130 }, (_, i) => `p${i}`), "@a/x", "@b/y"];
    const requests = downloadRequests(names);
    expect(requests.map((r) => r.length)).toEqual([BULK_LIMIT, 2, 1, 1]);
    expect(requests.slice(2)).toEqual([["@a/x"], ["@b/y"]]);
  });
});
