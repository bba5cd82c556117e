// The methodology's lifecycle, domain and source sections: stages in the order score_lifecycle.sql tests them, each
// lifecycle constant under exactly one stage, every domain and every source documented.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DOMAINS, LIFECYCLE_STAGES } from "../schemas/enums.ts";
import { CONSTANTS } from "./methodology.ts";
import {
  domainsSection,
  lifecycleSection,
  queryLimitsSection,
  SOURCE_DOCS,
  STAGE_ORDER,
  sourcesSection,
} from "./methodology-sections.ts";
import { SOURCES } from "./sources/index.ts";

const here = path.dirname(fileURLToPath(import.meta.url));

describe("methodology sections", () => {
  it("lists the lifecycle stages in the order score_lifecycle.sql tests them", () => {
    const sql = readFileSync(path.join(here, "sql", "score_lifecycle.sql"), "utf8");
    const tested = [...sql.matchAll(/WHEN is_(\w+) THEN '(\w+)'/g)].map((m) => m[2]);
    expect([...STAGE_ORDER]).toEqual([...tested, "emerging"]);
    expect([...STAGE_ORDER].sort()).toEqual([...LIFECYCLE_STAGES].sort());
    expect(lifecycleSection().order).toEqual(STAGE_ORDER);
  });

  it("puts every lifecycle constant under exactly one stage, and states the rules with their values", () => {
    const section = lifecycleSection();
    // the rules of a change of stage (lifecycle_*) belong to no single stage: the hysteresis text states them
    const listed = section.stages.flatMap((s) => s.constants);
    const changes = CONSTANTS.filter((c) => c.name.startsWith("lifecycle_")).map((c) => c.name);
    expect(changes).toEqual(["lifecycle_confirm_days", "lifecycle_min_dwell_days"]);
    expect(section.hysteresis).toContain("the same new stage has held on every night for 2 days");
    expect(section.hysteresis).toContain("within 56 days of the change");
    expect(listed.sort()).toEqual(
      CONSTANTS.filter((c) => c.component === "lifecycle" && !changes.includes(c.name))
        .map((c) => c.name)
        .sort(),
    );
    const rule = (stage: string) => section.stages.find((s) => s.stage === stage)?.rule;
    expect(rule("dormant")).toBe(
      "Archived, or no commit for 365 days. A dormant repository stays dormant until it makes at least 3 commits in 30 days. A finished project is never dormant.",
    );
    expect(rule("established")).toBe(
      "At least 365 days old, with at least 500 stars (kept while it holds 400) or a quality_score of 60 or more.",
    );
  });

  it("documents all 30 domains with their taxonomy's stack layers, and the fallback", () => {
    const section = domainsSection();
    expect(section.domains.map((d) => d.domain)).toEqual([...DOMAINS]);
    expect(section.fallback).toEqual({ domain: "ml-frameworks", stack_layer: "model" });
    expect(section.domains.find((d) => d.domain === "mcp")?.subcategories).toContainEqual({
      name: "mcp-servers",
      stack_layer: "interface",
    });
  });

  it("describes every source, in collect order, with its raw tables", () => {
    expect(Object.keys(SOURCE_DOCS).sort()).toEqual(SOURCES.map((s) => s.name).sort());
    expect(sourcesSection().map((s) => [s.name, s.raw_tables])).toEqual(
      SOURCES.map((s) => [s.name, [...s.tables]]),
    );
  });

  it("states the query endpoint's limits as the shim enforces them", () => {
    const section = queryLimitsSection();
    expect({ ...section, rules: undefined }).toEqual({
      rules: undefined,
      deadline_ms: 10_000,
      max_rows: 1_000,
      max_bytes: 1_000_000,
      max_params: 20,
      workers: 2,
      per_caller: 2,
      per_address: 4,
      max_queued: 16,
      duckdb_memory: "512MB",
      worker_memory_mib: 1024,
    });
    expect(section.rules).toMatch(
      /^A query has 10 seconds from its arrival, time spent waiting for a busy worker included \(while the server is still starting its workers, from the first one ready\);/,
    );
    expect(section.rules).toContain(
      "At most 1,000 rows and 1,000,000 bytes of answer as JSON (UTF-8, column names and types included) are returned",
    );
  });
});
