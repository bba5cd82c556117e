// `projintel report`: a night's run report (runs/<date>/manifest.json) for people: plain text, Markdown (the
// nightly workflow appends it to the GitHub Actions job summary) or JSON. A publish report (--publish) is folded in.
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { Command } from "commander";
import { statePaths } from "../core/config.ts";
import { AppError } from "../core/errors.ts";
import { readTextIfExists } from "../core/files.ts";
import type { RunManifest } from "../nightly/manifest.ts";
import { createContext, dayFlag } from "./context.ts";
import { withStateDirFlag } from "./options.ts";
import { printSummary } from "./summary.ts";

type Json = Record<string, unknown>;

/** The newest night with a run manifest, or undefined when none ran yet. */
async function latestRun(runsDir: string): Promise<string | undefined> {
  const nights = await readdir(runsDir).catch(() => [] as string[]);
  return nights
    .filter((n) => /^\d{4}-\d{2}-\d{2}$/.test(n))
    .sort()
    .at(-1);
}

async function readJson(file: string, what: string, hint: string): Promise<Json> {
  const text = await readTextIfExists(file);
  if (text === undefined) throw new AppError(`No ${what} at ${file}.`, { hint });
  try {
    return JSON.parse(text) as Json;
  } catch {
    throw new AppError(`The ${what} at ${file} is not valid JSON.`, {
      hint: "Run the stage again to rewrite it.",
    });
  }
}

const seconds = (ms: unknown) => (typeof ms === "number" ? `${(ms / 1000).toFixed(1)} s` : "-");
const cell = (v: unknown) =>
  v === undefined || v === null ? "-" : typeof v === "object" ? JSON.stringify(v) : String(v);

/** The run report as Markdown: status, stage times, sources, shards, tiers and the release. */
export function reportMarkdown(manifest: RunManifest & Json): string {
  const out: string[] = [`## Nightly run ${manifest.run_date}: ${manifest.status}`, ""];
  if (manifest.error) out.push(`**Error:** ${manifest.error}`, "");
  const durations = Object.entries(manifest.durations_ms ?? {});
  if (durations.length > 0) {
    out.push(
      "| stage | wall |",
      "|---|---|",
      ...durations.map(([stage, ms]) => `| ${stage} | ${seconds(ms)} |`),
      "",
    );
  }
  const collect = manifest.collect as (Json & { sources?: Json[] }) | undefined;
  if (collect?.sources?.length) {
    out.push("| source | status | requests | rows | wall |", "|---|---|---|---|---|");
    for (const s of collect.sources)
      out.push(
        `| ${cell(s.source)} | ${cell(s.status)} | ${cell(s.requests)} | ${cell(s.rows)} | ${seconds(s.duration_ms)} |`,
      );
    out.push("");
    const points = collect.github_graphql_points;
    if (typeof points === "number" && typeof collect.repos_total === "number" && collect.repos_total > 0)
      out.push(
        `GitHub GraphQL points: ${points} (${(points / collect.repos_total).toFixed(3)} a repository)`,
        "",
      );
  }
  const shards = manifest.shards as Json | undefined;
  if (shards) out.push(`Shards: ${cell(shards)}`, "");
  const score = manifest.score as Json | undefined;
  if (score?.by_tier) {
    const tiers = Object.entries(score.by_tier as Json);
    out.push(
      `Scored ${cell(score.repos)} repositories: ${tiers.map(([t, n]) => `${t} ${cell(n)}`).join(", ")}`,
      "",
    );
  }
  const publish = manifest.publish as Json | undefined;
  if (publish?.releaseId) {
    out.push(
      `Release \`${cell(publish.releaseId)}\` is live: ${cell(publish.projects)} projects, ${cell(publish.files)} files, ` +
        `${(Number(publish.bytes) / 1_048_576).toFixed(1)} MiB${publish.writes ? ` (writes ${cell(publish.writes)})` : ""}.`,
      "",
    );
  } else if (manifest.status !== "failed") {
    out.push("No release was published by this run.", "");
  } else {
    out.push("The release pointer was not moved: yesterday's release stays live.", "");
  }
  return `${out.join("\n")}\n`;
}

export function registerReport(program: Command): void {
  withStateDirFlag(program.command("report"))
    .description("Print a night's run report (runs/<date>/manifest.json) as text, Markdown or JSON.")
    .option("--date <YYYY-MM-DD>", "the night (default the newest run in the state folder)")
    .option("--publish <file>", "a publish report (publish --report-json) to fold in")
    .option("--markdown", "print Markdown (for a GitHub Actions job summary)")
    .option("--json", "print JSON")
    .addHelpText(
      "after",
      `
Examples:
  projintel report
  projintel report --date 2026-11-24 --publish publish-report.json --markdown >> "$GITHUB_STEP_SUMMARY"`,
    )
    .action(async (flags) => {
      const { config } = createContext(flags);
      const runs = statePaths(config).runs;
      const date = dayFlag("date", flags.date) ?? (await latestRun(runs));
      if (!date) {
        throw new AppError(`No run report in ${runs}.`, {
          hint: "Run `projintel nightly` (or collect and score) first.",
        });
      }
      const manifest = (await readJson(
        path.join(runs, date, "manifest.json"),
        `run report for ${date}`,
        "Check --date and --state-dir; `ls <state>/runs` lists the nights that ran.",
      )) as RunManifest & Json;
      if (flags.publish) {
        manifest.publish = (await readJson(
          path.resolve(flags.publish),
          "publish report",
          "Pass the file `projintel publish --report-json` wrote.",
        )) as unknown as RunManifest["publish"];
      }
      if (flags.markdown) process.stdout.write(reportMarkdown(manifest));
      else if (flags.json) process.stdout.write(`${JSON.stringify(manifest, null, 2)}\n`);
      else printSummary(manifest);
    });
}
