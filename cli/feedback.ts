// `projintel feedback list`: the feedback POST /api/v1/feedback stored in the state folder, for operators: as a
// table (newest last, long messages cut) or as JSON with every field, contact included (it is theirs to answer).
import type { Command } from "commander";
import { statePaths } from "../core/config.ts";
import { ConfigError } from "../core/errors.ts";
import { createContext } from "./context.ts";
import { withStateDirFlag } from "./options.ts";

const MAX_MESSAGE_CHARS = 60;
const SINCE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/;

export function registerFeedback(program: Command): void {
  const feedback = program
    .command("feedback")
    .description("Read the feedback sent to POST /api/v1/feedback.");
  withStateDirFlag(feedback.command("list"))
    .description("List stored feedback, oldest first.")
    .option("--json", "print a JSON array of every stored field, contact included")
    .option(
      "--since <date>",
      "only feedback received on or after this date or date-time (UTC), e.g. 2026-11-01",
    )
    .addHelpText(
      "after",
      `
Feedback is kept in <state>/feedback.jsonl, one JSON object a line, written before the API answers.
Examples:
  projintel feedback list
  projintel feedback list --since 2026-11-20 --json`,
    )
    .action(async (flags: { stateDir?: string; json?: boolean; since?: string }) => {
      if (flags.since !== undefined && !SINCE.test(flags.since)) {
        throw new ConfigError(
          `--since must be a date (YYYY-MM-DD) or an ISO date-time, got "${flags.since}".`,
        );
      }
      const { config } = createContext(flags);
      const { feedbackFile, readFeedback } = await import("../api-shim/feedback/store.ts");
      const records = await readFeedback(feedbackFile(statePaths(config).root), normalised(flags.since));
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(records, null, 2)}\n`);
        return;
      }
      for (const r of records) {
        const message = r.message.replace(/\s+/g, " ");
        const cut =
          message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 1)}…` : message;
        const about = [r.project, r.contact && `from ${r.contact}`].filter(Boolean).join(", ");
        process.stdout.write(
          `${r.received_at}  ${r.id}  ${r.kind.padEnd(7)}  ${cut}${about ? `  (${about})` : ""}\n`,
        );
      }
      process.stdout.write(`${records.length} feedback${flags.since ? ` since ${flags.since}` : ""}\n`);
    });
}

/** --since as the stored received_at compares: a date is its midnight UTC; a date-time in UTC. */
function normalised(since: string | undefined): string | undefined {
  if (since === undefined) return undefined;
  if (since.length === 10) return `${since}T00:00:00+00:00`;
  const time = new Date(since);
  if (Number.isNaN(time.getTime())) throw new ConfigError(`--since is not a valid date-time: "${since}".`);
  return `${time.toISOString().slice(0, 19)}+00:00`;
}
