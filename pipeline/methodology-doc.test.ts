// The methodology document: docs/methodology.md is exactly the generated text, every constant is in it once, and
// the constants and the SQL agree (every getvariable is defined, every constant is read by some .sql file).
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { METHODOLOGY_VERSION } from "./methodology/score.ts";
import { CONSTANTS } from "./methodology.ts";
import { methodologyDocument, methodologyMarkdown } from "./methodology-doc.ts";

const here = path.dirname(fileURLToPath(import.meta.url));
const SQL_DIR = path.join(here, "sql");
// every .sql file of the pipeline, in its folders too (kept/, rate/, lists/ read constants as the nightly's do)
const sqlFiles = readdirSync(SQL_DIR, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".sql"))
  .map((f) => ({ file: f, text: readFileSync(path.join(SQL_DIR, f), "utf8") }));
/**
 * Variables set beside the constants: by the pipeline's code (the score stage's run date and collection windows, the
 * list replay's batch of nights) or by a .sql file itself.
 */
const pipelineCode = readdirSync(here, { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
  .map((f) => readFileSync(path.join(here, f), "utf8"));
const RUNTIME_VARIABLES = [...pipelineCode, ...sqlFiles.map((f) => f.text)]
  .flatMap((text) => [...text.matchAll(/SET VARIABLE (\w+) =/g)])
  .map((m) => m[1]);

describe("methodology document", () => {
  it("is what docs/methodology.md holds (regenerate: projintel methodology --write docs/methodology.md)", () => {
    const written = readFileSync(path.join(here, "..", "docs", "methodology.md"), "utf8");
    expect(written).toBe(methodologyMarkdown());
  });

  it("lists every constant once, in its component's group, and is plain JSON", () => {
    const doc = methodologyDocument();
    const listed = [
      ...doc.components.flatMap((c) => c.constants.map((k) => `${c.name}:${k.name}`)),
      ...doc.tiers.constants.map((k) => `tier:${k.name}`),
      ...doc.signals.flatMap((s) => s.constants.map((k) => `${s.component}:${k.name}`)),
    ];
    expect(listed.sort()).toEqual(CONSTANTS.map((c) => `${c.component}:${c.name}`).sort());
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
    expect(doc.components.map((c) => c.name)).toEqual(["maintenance", "adoption", "maturity", "community"]);
    expect(doc.tiers.ranges).toEqual([
      { tier: "verified", min: 80, max: 100 },
      { tier: "established", min: 60, max: 79 },
      { tier: "emerging", min: 40, max: 59 },
      { tier: "experimental", min: 0, max: 39 },
    ]);
  });

  it("states the finished-project rule with the constants' values", () => {
    expect(methodologyDocument().finished_project).toMatch(
      /at least 730 days old.*a 0\.x project stable in practice.*at least 50000 monthly downloads and pulls: dependents alone are not adoption.*within 336 hours; when the response time is unknown, at least 75% of the issues ever filed closed.*latest release is at most 730 days old.*last commit is at most 730 days old.*at least 20 points/,
    );
  });

  it("lists the changes of the current version first, its score diff a field the scdiff summary fills", () => {
    const [latest] = methodologyDocument().changelog;
    expect(latest?.version).toBe(METHODOLOGY_VERSION);
    expect(latest?.changes.length).toBeGreaterThan(0);
    expect(methodologyMarkdown()).toContain(`### Version ${METHODOLOGY_VERSION}`);
  });

  it("defines every variable the SQL reads, and every constant is read by some .sql file", () => {
    expect(RUNTIME_VARIABLES).toContain("run_date");
    const defined = new Set([...CONSTANTS.map((c) => c.name), ...RUNTIME_VARIABLES]);
    const read = sqlFiles.flatMap(({ file, text }) =>
      [...text.matchAll(/getvariable\('(\w+)'\)/g)].map((m) => ({ file, name: m[1] as string })),
    );
    expect(read.filter((r) => !defined.has(r.name))).toEqual([]);
    const used = new Set(read.map((r) => r.name));
    expect(CONSTANTS.map((c) => c.name).filter((name) => !used.has(name))).toEqual([]);
  });
});
