// `projintel rate FILE [--as-of D] [--json] [--diff OLD]`: score and classify a list of repositories from their
// figures (a best-of projects.csv or JSON) with the nightly's own SQL; what the file lacks, repeats or dates goes to
// stderr once, lines that cannot be rated by number; --diff compares against a previous --json output.
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { isoDay, parseIsoDay } from "../core/clock.ts";
import { AppError, ConfigError } from "../core/errors.ts";
import { formatTable } from "./classify.ts";

interface RateFlags {
  asOf?: string;
  json?: boolean;
  diff?: string;
  history?: boolean;
  transitions?: boolean;
}

/** Duplicates named on stderr; past this many, the rest are counted. */
const DUPLICATES_NAMED = 10;

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

const say = (text: string) => process.stderr.write(`projintel rate: ${text}\n`);

export function registerRate(program: Command): void {
  program
    .command("rate")
    .argument(
      "<file>",
      "best-of projects.csv, or JSON (lines, an array) of repositories' figures; - reads standard input",
    )
    .option(
      "--as-of <date>",
      "the day the figures were read (YYYY-MM-DD), which ages count to; default the file's own date (see below)",
    )
    .option("--json", "print one JSON object a line (score, tier, components, classification, explanation)")
    .option(
      "--diff <old.jsonl>",
      "compare with a previous --json output instead: the projects whose tier moves, before→after, and a summary",
    )
    .option(
      "--history",
      "FILE is a list's dated history (snapshot_date column, or a folder of best-of <date>_projects.csv): replay each date as a night (cli/rate-history.ts)",
    )
    .option("--transitions", "with --history: print the changes of lifecycle stage instead of every night")
    .description(
      "Score and classify repositories from their figures through the nightly's own SQL: quality score and tier, the four components, domain, subcategory, stack layer, the deciding rule and the explanation a project detail gives.",
    )
    .addHelpText(
      "after",
      `
Input: best-of-generator's projects.csv (recognised by its github_id and star_count columns; category,
projectrank and show are never read), or JSON lines, a JSON array or one object, keyed by the score's inputs or
best-of's column names (full_name or github_id required, owner/name or a GitHub URL; numbers may be given as
text; other keys are ignored and named; a field left out is unknown): see "Rating a list of repositories" in
docs/analytics.md. A repository listed twice is rated once, from its first line.
Said once on stderr: the inputs of the score the file gives for no row and what that costs, repeated
repositories, and the day rated as of. Without --as-of that day is the date in the file's name (best-of's
<date>_projects.csv), else its latest updated_at, else the latest date it holds (a warning), else today (a
warning); an --as-of before a date the file holds is refused.
--diff OLD.jsonl prints the projects whose tier differs from OLD.jsonl (a previous rate --json), score and
components before→after, then the tier moves and the median score change; with --json, one JSON document.
Examples:
  projintel rate test/fixtures/reality/best-of-ml-python-2025-06-26.csv
  echo '{"full_name":"acme/vecs","description":"A vector database","stars":1200,"pushed_at":"2026-11-01"}' | projintel rate - --json
  projintel rate test/fixtures/reality/best-of-ml-python-2025-06-26.csv --diff bench/results/scdiff-base.jsonl
  projintel rate test/fixtures/reality/best-of-ml-python-history-A.csv.gz --history --json
Exit codes: 0 every line naming a repository rated, 1 a line was set aside (named on stderr), the file is
unreadable or holds no rows, 2 bad usage (an --as-of that is not a day or is before the file's dates).`,
    )
    .action(async (file: string, flags: RateFlags) => {
      if (flags.history || flags.transitions) {
        if (!flags.history || flags.asOf !== undefined || flags.diff !== undefined) {
          throw new ConfigError(
            "--transitions goes with --history, and --history takes neither --as-of nor --diff.",
            "A history dates its own rows: run projintel rate FILE --history [--json] [--transitions].",
          );
        }
        const { rateHistory } = await import("./rate-history.ts");
        return rateHistory(file, flags);
      }
      if (flags.asOf !== undefined && !parseIsoDay(flags.asOf)) {
        throw new ConfigError(
          `--as-of ${flags.asOf} is not a date.`,
          "Give the day as YYYY-MM-DD, e.g. 2025-06-26.",
        );
      }
      const { distinctRows, parseRateInput } = await import("../pipeline/lists/rate-input.ts");
      const { resolveAsOf } = await import("../pipeline/lists/rate-as-of.ts");
      const { describeMissed, missedInputs } = await import("../pipeline/lists/rate-unknown.ts");
      const { rateRepos } = await import("../pipeline/lists/rate.ts");
      const { diffRatings, formatDiff, parseRatings } = await import("../pipeline/lists/rate-diff.ts");
      // a previous output that cannot be read fails before any rating
      const previous = flags.diff ? parseRatings(await readInput(flags.diff), flags.diff) : null;
      const source = file === "-" ? "stdin" : file;
      const input = parseRateInput(await readInput(file), source);
      const asOf = resolveAsOf(input, {
        flag: flags.asOf,
        file: file === "-" ? undefined : file,
        today: isoDay(new Date()),
      });
      for (const p of input.problems) say(`line ${p.line}: ${p.reason}`);
      const { rows, duplicates } = distinctRows(input.rows);
      if (duplicates.length > 0) {
        const named = duplicates
          .slice(0, DUPLICATES_NAMED)
          .map((d) => `${d.full_name} (lines ${d.lines.join(", ")}${d.differ ? ", figures differ" : ""})`);
        const more =
          duplicates.length > DUPLICATES_NAMED ? `, and ${duplicates.length - DUPLICATES_NAMED} more` : "";
        say(
          `${duplicates.length} repositor${duplicates.length === 1 ? "y is" : "ies are"} listed more than once, rated once from the first line: ${named.join("; ")}${more}.`,
        );
      }
      const missed = describeMissed(missedInputs(input));
      if (missed.length > 0) {
        say(
          `${source} lacks these inputs of the score (no column, or no value in any row), so every row is scored without them:`,
        );
        for (const line of missed) process.stderr.write(`  ${line}\n`);
        say("scores and tiers can be lower than with the figures: add them to rate as a night does.");
      }
      if (input.ignored.length > 0) say(`keys no rating reads, ignored: ${input.ignored.join(", ")}.`);
      if (asOf.note) say(asOf.note);
      const ratings = await rateRepos(rows, asOf.day);
      if (previous && flags.diff) {
        const diff = diffRatings(previous, ratings);
        if (flags.json)
          process.stdout.write(`${JSON.stringify({ as_of: asOf.day, previous: flags.diff, ...diff })}\n`);
        else {
          const text = formatDiff(diff, flags.diff);
          if (text.rows.length > 0) process.stdout.write(formatTable(text.header, text.rows));
          process.stdout.write(`${text.summary.join("\n")}\n`);
        }
      } else if (flags.json) {
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
        process.stdout.write(`${ratings.length} rated as of ${asOf.day}\n`);
      }
      if (input.problems.length > 0) {
        say(
          `${input.problems.length} line(s) set aside, ${ratings.length} rated. Fix the lines named above and run again.`,
        );
        process.exitCode = 1;
      }
    });
}
