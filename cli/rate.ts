// `projintel rate FILE [--as-of D] [--json]`: score and classify a list of repositories from their figures (a
// best-of projects.csv or JSON lines) with the nightly's own SQL; lines that name no repository go to stderr.
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { isoDay, parseIsoDay } from "../core/clock.ts";
import { AppError, ConfigError } from "../core/errors.ts";
import { formatTable } from "./classify.ts";

interface RateFlags {
  asOf?: string;
  json?: boolean;
}

async function readInput(file: string): Promise<string> {
  if (file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString("utf8");
  }
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    throw new AppError(`Cannot read ${file}: ${(error as Error).message}`, {
      hint: "Pass a best-of projects.csv or a file of JSON lines, or - to read standard input.",
    });
  }
}

export function registerRate(program: Command): void {
  program
    .command("rate")
    .argument("<file>", "best-of projects.csv or JSON lines of repositories' figures; - reads standard input")
    .option(
      "--as-of <date>",
      "the day the figures were read (YYYY-MM-DD; default today, UTC): ages count to it",
    )
    .option("--json", "print one JSON object a line (score, tier, components, classification, explanation)")
    .description(
      "Score and classify repositories from their figures through the nightly's own SQL: quality score and tier, the four components, domain, subcategory, stack layer, the deciding rule and the explanation a project detail gives.",
    )
    .addHelpText(
      "after",
      `
Input: best-of-generator's projects.csv (recognised by its github_id and star_count columns; category,
projectrank and show are never read), or JSON lines whose fields are the score's inputs (full_name required;
a field left out is unknown): see "Rating a list of repositories" in docs/analytics.md for both.
Examples:
  projintel rate test/fixtures/reality/best-of-ml-python-2025-06-26.csv --as-of 2025-06-26
  echo '{"full_name":"acme/vecs","description":"A vector database","stars":1200,"pushed_at":"2026-11-01"}' | projintel rate - --json
Exit codes: 0 every line naming a repository rated, 1 a line was set aside (named on stderr) or the file is
unreadable, 2 bad usage.`,
    )
    .action(async (file: string, flags: RateFlags) => {
      const asOf = flags.asOf ?? isoDay(new Date());
      if (!parseIsoDay(asOf)) {
        throw new ConfigError(
          `--as-of ${asOf} is not a date.`,
          "Give the day as YYYY-MM-DD, e.g. 2025-06-26.",
        );
      }
      const { parseRateInput } = await import("../pipeline/rate-input.ts");
      const { rateRepos } = await import("../pipeline/rate.ts");
      const input = parseRateInput(await readInput(file), file === "-" ? "stdin" : file);
      for (const p of input.problems) process.stderr.write(`projintel rate: line ${p.line}: ${p.reason}\n`);
      const ratings = await rateRepos(input.rows, asOf);
      if (flags.json) {
        for (const { line: _, ...r } of ratings) process.stdout.write(`${JSON.stringify(r)}\n`);
      } else {
        process.stdout.write(
          formatTable(
            ["full_name", "score", "tier", "mnt", "adp", "mat", "com", "domain", "stack_layer", "rule"],
            ratings.map((r) => [
              r.full_name,
              String(r.quality_score),
              r.quality_tier,
              String(r.maintenance_score),
              String(r.adoption_score),
              String(r.maturity_score),
              String(r.community_score),
              r.domain,
              r.stack_layer,
              r.rule,
            ]),
          ),
        );
        process.stdout.write(`${ratings.length} rated as of ${asOf}\n`);
      }
      if (input.problems.length > 0) {
        process.stderr.write(
          `projintel rate: ${input.problems.length} line(s) set aside, ${ratings.length} rated. Fix the lines named above and run again.\n`,
        );
        process.exitCode = 1;
      }
    });
}
