// `projintel sources verify DIR`: check a folder of recorded real responses against the connectors.
import type { Command } from "commander";
import { AppError } from "../core/errors.ts";

export function registerSources(program: Command): void {
  const sources = program.command("sources").description("Tools for the source connectors.");
  sources
    .command("verify")
    .argument("<dir>", "a folder laid out like test/fixtures/real/ (one folder per source)")
    .option("--strict", "also fail for a source folder that has no parser yet")
    .description(
      "Parse every recorded response in DIR with the connectors' schemas and print one line per file: ok, the decision for an error body, or the failure and why.",
    )
    .addHelpText(
      "after",
      `
Layout: DIR/<source>/<kind>.<details>.<json|xml>; the endpoint kind is the file name before the first dot;
<stem>.headers.json holds {status, headers: [[name, value], ...]} of the body with the same stem (without it,
the status is a 3-digit token of the name such as error-403-..., else 200).
Covered sources: github-rest, github-graphql, pypi, pypistats. Other folders print "no parser" and count as a
failure only with --strict.
Exit codes: 0 every file parsed or decided, 1 a file failed (or, with --strict, a source has no parser).`,
    )
    .action(async (dir: string, flags: { strict?: boolean }) => {
      const { failures, formatLine, verifyRecorded } = await import("../pipeline/verify.ts");
      const lines = await verifyRecorded(dir).catch((error: unknown) => {
        throw new AppError(`cannot read ${dir}: ${(error as Error).message}`, {
          hint: "Pass a folder holding one sub-folder per source, like test/fixtures/real/.",
        });
      });
      for (const line of lines) process.stdout.write(`${formatLine(line)}\n`);
      const failed = failures(lines, flags.strict === true);
      const counts = (o: string) => lines.filter((l) => l.outcome === o).length;
      process.stdout.write(
        `${lines.length} files: ${counts("ok")} ok, ${counts("decision")} decisions, ${counts("failed")} failed, ${counts("no_parser")} without a parser\n`,
      );
      if (failed.length > 0) {
        throw new AppError(`${failed.length} recorded responses failed verification.`, {
          hint: "Each FAILED line says why; fix the schema or the fixture.",
        });
      }
    });
}
