// Every recorded real GitHub GraphQL body is accepted by the right schema or turned into the right decision.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { classifyResponse } from "../../collect/http.ts";
import { damagedNodes } from "./rows.ts";
import {
  commitSchema,
  defaultBranchRefSchema,
  envelope,
  messageBodySchema,
  rateLimitSchema,
  releasesSchema,
} from "./schemas.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real/github-graphql");
const real = (file: string) => JSON.parse(readFileSync(path.join(REAL, file), "utf8"));
const anyData = envelope(z.record(z.string(), z.unknown()));

/** What each recorded body must do; a new fixture without an entry fails the last test. */
const EXPECTATIONS: Record<string, (body: unknown) => void> = {
  "error.401-bad-credentials.2023-12.json": (body) => {
    expect(messageBodySchema.parse(body)).toEqual({
      message: "Bad credentials",
      documentation_url: "https://docs.github.com/graphql",
    });
    const verdict = classifyResponse(401, {}, body);
    expect(verdict).toMatchObject({ decision: "fail", reason: "401 unauthorized: Bad credentials" });
    expect(verdict.hint).toContain("PROJINTEL_GITHUB__TOKENS");
  },
  "error.NOT_FOUND.partial-data.2021-05.json": (body) => {
    const parsed = anyData.parse(body);
    // Partial data: the other root fields are present and usable; only the missing repository is skipped.
    expect(parsed.data).toEqual({
      openPullRequests: { issueCount: 0 },
      closedPullRequests: { issueCount: 0 },
      repository: null,
    });
    expect(parsed.errors?.map((e) => [e.type, e.path])).toEqual([["NOT_FOUND", ["repository"]]]);
    expect(classifyResponse(200, {}, body).decision).toBe("ok");
  },
  "error.NOT_FOUND.repository.2023-02.json": (body) => {
    const parsed = anyData.parse(body);
    expect(parsed.data).toEqual({ repository: null });
    expect(parsed.errors?.[0]?.type).toBe("NOT_FOUND");
    expect(classifyResponse(200, {}, body).decision).toBe("ok");
    // The same error on a nodes(ids:) answer marks exactly that node.
    expect(damagedNodes([{ ...parsed.errors?.[0], message: "gone", path: ["nodes", 7] }])).toEqual(
      new Set([7]),
    );
  },
  "repository.defaultBranchRef-history-totalCount.chalk-chalk.2019-11.json": (body) => {
    const ref = defaultBranchRefSchema.parse(
      (body as { data: { repository: { defaultBranchRef: unknown } } }).data.repository.defaultBranchRef,
    );
    expect(ref).toEqual({
      name: "master",
      target: { lastMonth: { totalCount: 42 }, lastYear: { totalCount: 72 } },
    });
  },
  "repository.defaultBranchRef-null.empty-repo.2024-01.json": (body) => {
    expect(
      defaultBranchRefSchema.parse(
        (body as { data: { repository: { defaultBranchRef: unknown } } }).data.repository.defaultBranchRef,
      ),
    ).toBeNull();
  },
  "repository.releases.chalk-chalk.2019-11.json": (body) => {
    const releases = releasesSchema.parse(
      (body as { data: { repository: { releases: unknown } } }).data.repository.releases,
    );
    expect(releases.totalCount).toBe(16);
    expect(releases.nodes[0]).toEqual({ name: "", publishedAt: "2019-11-09T07:15:42Z" });
  },
  "repository.releases.empty.2023-02.json": (body) => {
    expect(
      releasesSchema.parse(
        (body as { data: { repository: { releases: unknown } } }).data.repository.releases,
      ),
    ).toEqual({
      totalCount: 0,
      nodes: [],
    });
  },
  "search-issueCount+repository-issues-totalCount.chalk-chalk.2021-05.json": (body) => {
    const parsed = anyData.parse(body);
    const repo = z
      .object({
        openIssues: z.object({ totalCount: z.number() }),
        closedIssues: z.object({ totalCount: z.number() }),
      })
      .parse(parsed.data?.repository);
    expect(repo).toEqual({ openIssues: { totalCount: 3 }, closedIssues: { totalCount: 136 } });
  },
  "viewer+rateLimit-remaining.chalk.2021-05.json": (body) => {
    expect(rateLimitSchema.parse((body as { data: { rateLimit: unknown } }).data.rateLimit)).toEqual({
      remaining: 4998,
    });
  },
};

describe("real GitHub GraphQL bodies", () => {
  for (const [file, check] of Object.entries(EXPECTATIONS)) it(file, () => check(real(file)));

  it("every recorded file has an expectation", () => {
    expect(readdirSync(REAL).sort()).toEqual(Object.keys(EXPECTATIONS).sort());
  });

  it("a target that is not a commit parses as an empty commit", () => {
    expect(commitSchema.parse({})).toEqual({});
  });
});
