// How bin/projintel.js loads the sources: where Node.js strips TypeScript's types itself, every module a command can
// load must be erasable syntax (types only: no parameter properties, enums or namespaces), except the commands it
// hands to tsx's compiler. Checked with Node's own stripper, over each command's import graph read from the sources.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import module from "node:module";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");
const BIN = path.join(ROOT, "bin", "projintel.js");

/** The project's `.ts` modules `file` imports: statically (`import`, `export … from`), and with `dynamic` by `import()`. */
function importsOf(file: string, dynamic: boolean): string[] {
  const text = readFileSync(file, "utf8");
  const specifiers = [
    ...[
      ...text.matchAll(/^\s*(?:import|export)(?!\s+type\b)(?:[^;]*?\bfrom)?\s*"(\.{1,2}\/[^"]+\.ts)"/gm),
    ].map((m) => m[1]),
    ...(dynamic ? [...text.matchAll(/\bimport\(\s*"(\.{1,2}\/[^"]+\.ts)"\s*\)/g)].map((m) => m[1]) : []),
  ];
  return specifiers.map((s) => path.resolve(path.dirname(file), s as string));
}

/** Every module reachable from `entry` (the static graph only, or with the imports a command makes as it runs). */
function graph(entry: string, dynamic: boolean): Set<string> {
  const seen = new Set<string>();
  const stack = [entry];
  for (let file = stack.pop(); file !== undefined; file = stack.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    stack.push(...importsOf(file, dynamic));
  }
  return seen;
}

/** The files of `files` Node's type stripping refuses (run in a child, whose warning about the API it silences). */
function unstrippable(files: Iterable<string>): Set<string> {
  const script = `import { stripTypeScriptTypes } from "node:module";
import { readFileSync } from "node:fs";
const refused = process.argv.slice(1).filter((f) => { try { stripTypeScriptTypes(readFileSync(f, "utf8")); return false; } catch { return true; } });
process.stdout.write(JSON.stringify(refused));`;
  const child = spawnSync(
    process.execPath,
    ["--no-warnings", "--input-type=module", "-e", script, ...files],
    { encoding: "utf8" },
  );
  expect(child.stderr).toBe("");
  return new Set(JSON.parse(child.stdout) as string[]);
}

const MAIN = path.join(ROOT, "cli", "main.ts");
/** A query worker's modules: api-shim/query/worker-entry.mjs loads them as bin/projintel.js loads a command's. */
const QUERY_WORKER = path.join(ROOT, "api-shim", "query", "worker.ts");
const compiled = new Set(
  JSON.parse(
    /const COMPILED_COMMANDS = new Set\((\[[^\]]*\])\)/.exec(readFileSync(BIN, "utf8"))?.[1] ?? "null",
  ) as string[],
);
/** Each command's modules, as it runs: cli/<command>.ts registers the command of its name, imported by cli/main.ts. */
const commands = new Map(
  importsOf(MAIN, false)
    .filter((file) => readFileSync(file, "utf8").includes(`.command("${path.basename(file, ".ts")}`))
    .map((file) => [path.basename(file, ".ts"), graph(file, true)]),
);

describe.skipIf(!("stripTypeScriptTypes" in module))("the CLI's modules under Node's type stripping", () => {
  let refused = new Set<string>();
  beforeAll(() => {
    // every module any command or query worker can load, stripped once
    refused = unstrippable(new Set([...graph(MAIN, true), ...graph(QUERY_WORKER, true)]));
  });

  it("bin/projintel.js names the commands it compiles, each a command of cli/main.ts", () => {
    expect(commands.size).toBeGreaterThan(15);
    expect(compiled.size).toBeGreaterThan(0);
    for (const name of compiled) expect([...commands.keys()]).toContain(name);
  });

  it("every module loaded before a command runs, every module of the commands not compiled and the query worker's, strips", () => {
    const loaded = graph(MAIN, false);
    for (const [name, files] of commands) if (!compiled.has(name)) for (const f of files) loaded.add(f);
    for (const f of graph(QUERY_WORKER, true)) loaded.add(f);
    expect(loaded.size).toBeGreaterThan(200);
    expect([...loaded].filter((f) => refused.has(f)).map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it("each compiled command still needs the compiler (else it would start through Node's stripping)", () => {
    for (const name of compiled) {
      expect(
        [...(commands.get(name) ?? [])].some((f) => refused.has(f)),
        name,
      ).toBe(true);
    }
  });
});
