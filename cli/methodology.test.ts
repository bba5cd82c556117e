// `projintel methodology`: prints the Markdown, or writes the JSON document to a file.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Command } from "commander";
import { afterEach, describe, expect, it, vi } from "vitest";
import { methodologyDocument, methodologyMarkdown } from "../pipeline/methodology-doc.ts";
import { registerMethodology } from "./methodology.ts";

function program(): Command {
  const p = new Command("projintel").exitOverride();
  registerMethodology(p);
  return p;
}

describe("projintel methodology", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("prints the Markdown document", async () => {
    const out: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      out.push(String(chunk));
      return true;
    });
    await program().parseAsync(["methodology"], { from: "user" });
    expect(out.join("")).toBe(methodologyMarkdown());
  });

  it("writes the JSON document to a file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "methodology-"));
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    try {
      const file = path.join(dir, "methodology.json");
      await program().parseAsync(["methodology", "--json", "--write", file], { from: "user" });
      expect(JSON.parse(await readFile(file, "utf8"))).toEqual(methodologyDocument());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
