// The layering of DESIGN.md, checked on the import graph (transitively, test files aside): core imports nothing
// of ours above it, the pipeline never reaches publish (the nightly composes both, from nightly/), the shim never
// reaches the pipeline, publish never reaches the shim, schemas stand alone.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const IMPORT = /(?:from\s+|import\(\s*|import\s+)["'](\.{1,2}\/[^"']+)["']/g;

function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith("testing.ts"))
    .map((f) => path.join(ROOT, folder, f));
}

/** Every file of ours reachable from `file` by its relative imports, as paths from the project root. */
function reachable(file: string, seen = new Set<string>()): Set<string> {
  for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
    const target = path.resolve(path.dirname(file), match[1] as string);
    const rel = path.relative(ROOT, target);
    if (seen.has(rel)) continue;
    seen.add(rel);
    if (target.endsWith(".ts")) reachable(target, seen);
  }
  return seen;
}

function offenders(folder: string, forbidden: readonly string[]): string[] {
  const out: string[] = [];
  for (const file of sources(folder)) {
    for (const dep of reachable(file)) {
      if (forbidden.some((f) => dep.startsWith(`${f}/`))) out.push(`${path.relative(ROOT, file)} → ${dep}`);
    }
  }
  return out;
}

describe("layering", () => {
  it("core imports nothing above it", () => {
    expect(offenders("core", ["pipeline", "publish", "api-shim", "sim", "cli", "bench"])).toEqual([]);
  });
  it("schemas stand alone", () => {
    expect(offenders("schemas", ["core", "pipeline", "publish", "api-shim", "sim", "cli"])).toEqual([]);
  });
  it("the pipeline never reaches publish, the nightly's composition, the shim or the CLI", () => {
    expect(offenders("pipeline", ["publish", "nightly", "api-shim", "cli"])).toEqual([]);
  });
  it("the shim never reaches the pipeline", () => {
    expect(offenders("api-shim", ["pipeline", "nightly", "cli", "sim"])).toEqual([]);
  });
  it("publish never reaches the shim, the nightly's composition or the CLI", () => {
    expect(offenders("publish", ["api-shim", "nightly", "cli"])).toEqual([]);
  });
  it("the nightly's composition never reaches the shim or the CLI", () => {
    expect(offenders("nightly", ["api-shim", "cli"])).toEqual([]);
  });
  it("the simulator never reaches the pipeline, publish or the shim", () => {
    expect(offenders("sim", ["pipeline", "publish", "api-shim", "cli"])).toEqual([]);
  });
});
