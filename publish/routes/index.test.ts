// The route table lists every route file of this folder once, each route named after its file, and no two
// routes answer the same method and path.
import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ROUTES } from "./index.ts";

const DIR = path.dirname(fileURLToPath(import.meta.url));

describe("the route table", () => {
  it("lists every route file, each route named after its file", async () => {
    const files = readdirSync(DIR).filter(
      (f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && f !== "index.ts",
    );
    const exported = new Set<unknown>();
    for (const file of files) {
      const module = (await import(path.join(DIR, file))) as Record<string, unknown>;
      const routes = Object.values(module).filter(
        (v): v is { name: string } => typeof v === "object" && v !== null && "path" in v && "method" in v,
      );
      expect(routes.length, `${file} exports no route`).toBeGreaterThan(0);
      for (const route of routes) exported.add(route);
      expect(routes.map((r) => `${r.name}.ts`)).toContain(file);
    }
    expect(new Set(ROUTES)).toEqual(exported);
  });

  it("has one route per method and path, and unique names", () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length);
  });
});
