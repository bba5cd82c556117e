// `projintel methodology`: print the scoring methodology generated from the constants (Markdown, or JSON with
// --json), or write it to a file: `projintel methodology --write docs/methodology.md` keeps the docs in step.
import { rename, writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { AppError } from "../core/errors.ts";

export function registerMethodology(program: Command): void {
  program
    .command("methodology")
    .description(
      "Print the scoring methodology (every weight, cap and threshold), generated from the constants.",
    )
    .option("--json", "print the JSON document served as /api/v1/methodology instead of Markdown")
    .option("--write <file>", "write it to FILE instead of stdout (e.g. docs/methodology.md)")
    .action(async (flags: { json?: boolean; write?: string }) => {
      const { methodologyDocument, methodologyMarkdown } = await import("../pipeline/methodology-doc.ts");
      const text = flags.json ? `${JSON.stringify(methodologyDocument(), null, 2)}\n` : methodologyMarkdown();
      if (!flags.write) {
        process.stdout.write(text);
        return;
      }
      // temp file then rename, so a reader never sees half a document
      const temp = `${flags.write}.tmp-${process.pid}`;
      try {
        await writeFile(temp, text, "utf8");
        await rename(temp, flags.write);
      } catch (error) {
        throw new AppError(`Cannot write the methodology to ${flags.write}: ${(error as Error).message}`, {
          hint: "Check that the folder exists and is writable.",
          cause: error,
        });
      }
      process.stdout.write(`wrote ${flags.write}\n`);
    });
}
