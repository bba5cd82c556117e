// `projintel classify [FILE]`: classify repositories given as JSON lines with the score stage's own SQL and print
// domain, subcategory, stack layer and the deciding rule; --eval measures the rules against labelled lines.
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { AppError } from "../core/errors.ts";

interface ClassifyFlags {
  json?: boolean;
  eval?: boolean;
}

async function readInput(file: string | undefined): Promise<{ text: string; source: string }> {
  if (file === undefined || file === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return { text: Buffer.concat(chunks).toString("utf8"), source: "stdin" };
  }
  try {
    return { text: await readFile(file, "utf8"), source: file };
  } catch (error) {
    throw new AppError(`Cannot read ${file}: ${(error as Error).message}`, {
      hint: "Pass a file of JSON lines, or - (or nothing) to read standard input.",
    });
  }
}

/** Pads each column to its widest cell, so the rows line up under the header. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => (r[c] ?? "").length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, c) => (c === cells.length - 1 ? cell : cell.padEnd(widths[c] as number)))
      .join("  ")
      .trimEnd();
  return `${[line(header), ...rows.map(line)].join("\n")}\n`;
}

export function registerClassify(program: Command): void {
  program
    .command("classify")
    .argument("[file]", "JSON lines to classify; - or nothing reads standard input")
    .option("--json", "print one JSON object a line instead of a table")
    .option(
      "--eval",
      "compare with the domain / also_ok / stack_layer labels of each line; print accuracy and misses",
    )
    .description(
      "Classify repositories into one of the 30 domains, a subcategory and a stack layer, with the rule that decided — the same SQL and data/taxonomy.json the score stage uses.",
    )
    .addHelpText(
      "after",
      `
Input: one JSON object a line with full_name ("owner/name"), description, topics (list), language, and
optionally pypi_package, npm_package, dependencies (list of package names). Lines of
test/fixtures/labelled-repos.jsonl also carry domain, also_ok and stack_layer, which --eval uses.
Examples:
  echo '{"full_name":"acme/vecs","description":"A vector database in Rust","topics":[]}' | projintel classify
  projintel classify test/fixtures/labelled-repos.jsonl --eval
Exit codes: 0 classified, 1 a line is not valid input (the message names the line), 2 bad usage.`,
    )
    .action(async (file: string | undefined, flags: ClassifyFlags) => {
      const { classifyRepos, evaluateClassifications, parseClassifyInput } = await import(
        "../pipeline/classify.ts"
      );
      const { text, source } = await readInput(file);
      const rows = parseClassifyInput(text, source);
      const results = await classifyRepos(rows);
      if (flags.eval) {
        const report = evaluateClassifications(rows, results);
        const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
        if (flags.json) {
          process.stdout.write(`${JSON.stringify(report)}\n`);
          return;
        }
        process.stdout.write(
          formatTable(
            ["full_name", "domain", "expected", "layer", "expected_layer", "rule"],
            report.misses.map((m) => [
              m.full_name,
              m.domain,
              [m.expected_domain ?? "", ...m.also_ok].join("|"),
              m.stack_layer,
              m.expected_layer ?? "",
              m.rule,
            ]),
          ),
        );
        process.stdout.write(
          `${report.rows} labelled: domain ${report.domain_correct} correct (${pct(report.domain_accuracy)}), stack layer ${report.layer_correct} correct (${pct(report.layer_accuracy)})\n`,
        );
        return;
      }
      if (flags.json) {
        for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
        return;
      }
      process.stdout.write(
        formatTable(
          ["full_name", "domain", "subcategory", "stack_layer", "rule"],
          results.map((r) => [r.full_name, r.domain, r.subcategory ?? "-", r.stack_layer, r.rule]),
        ),
      );
    });
}
