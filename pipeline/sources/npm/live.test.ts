// A live check against the real npm registry: the connector's schema and mapping hold for genuine, current
// package documents. Skipped when the registry cannot be reached (an offline machine); nothing else is called.
import { afterAll, describe, expect, it } from "vitest";
import { createHttpClient } from "../../collect/http.ts";
import { githubRepoOfNpm, packumentPath } from "./repository.ts";
import { packageRow } from "./rows.ts";
import { packumentSchema } from "./schemas.ts";

const REGISTRY = "https://registry.npmjs.org";
const http = createHttpClient({
  userAgent: "projintel-tests (live npm check)",
  timeoutMs: 20_000,
  retries: 1,
  perHostConcurrency: 2,
  maxRetryWaitMs: 5_000,
});

async function reachable(): Promise<boolean> {
  try {
    const response = await fetch(`${REGISTRY}/-/ping`, { signal: AbortSignal.timeout(5_000) });
    return response.ok;
  } catch {
    return false; // offline: the check below is skipped, which is its documented behaviour
  }
}

const online = await reachable();

async function packument(name: string) {
  const result = await http.request(`${REGISTRY}/${packumentPath(name)}`, { source: "npm" });
  return packumentSchema.parse(result.body);
}

afterAll(() => http.close());

describe.skipIf(!online)("npm connector against the live registry", () => {
  it.each([
    ["express", "expressjs/express"],
    ["zod", "colinhacks/zod"],
    ["@types/node", "definitelytyped/definitelytyped"],
  ])("parses %s and links it to %s", async (name, repo) => {
    const doc = await packument(name);
    const row = packageRow(doc, repo, { runDate: "2026-11-22", fetchedAt: new Date("2026-11-22T00:00:00Z") });
    expect(row.package).toBe(name);
    expect(row.linked_repo).toBe(repo);
    expect(row.version).toBe(doc["dist-tags"]?.latest);
    expect(row.versions_total).toBeGreaterThan(50);
    expect(Date.parse(row.first_release_at as string)).toBeLessThan(
      Date.parse(row.latest_release_at as string),
    );
    // Some registry front-ends drop the top-level `repository`; the latest version's manifest always has it.
    const latest = doc.versions?.[row.version as string];
    expect(githubRepoOfNpm(doc.repository ?? latest?.repository)).toBe(repo);
  });
});
