// `projintel feedback list` as an operator runs it, over a feedback file as the shim writes it (with a last line
// cut short by a crash): the table, --since, --json with every field, and the exit code of a bad --since.
import { spawnSync } from "node:child_process";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feedbackFile } from "../api-shim/feedback/store.ts";
import { makeTempDir } from "../pipeline/public-testing.ts";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");
const OLD = {
  id: "fb_1",
  received_at: "2026-11-19T10:00:00+00:00",
  kind: "bug",
  message: "Old one",
  caller: "a1",
};
const NEW = {
  id: "fb_2",
  received_at: "2026-11-20T10:00:00+00:00",
  kind: "data",
  message: "acme/ragkit is a vector database,\nnot a RAG framework at all, and has been since 2024 at least.",
  project: "acme/ragkit",
  contact: "me@example.com",
  caller: "a1",
};
let temp: Awaited<ReturnType<typeof makeTempDir>>;

function feedback(args: string[]) {
  const result = spawnSync(process.execPath, [CLI, "feedback", "list", "--state-dir", temp.dir, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
    timeout: 30_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(async () => {
  temp = await makeTempDir();
  const lines = [JSON.stringify(OLD), JSON.stringify(NEW), '{"id":"fb_3","received_at":"2026-11-2'];
  await writeFile(feedbackFile(temp.dir), lines.join("\n"));
});
afterAll(() => temp.remove());

describe("projintel feedback list", () => {
  it("prints one line per feedback, oldest first, skipping a line cut short", () => {
    expect(feedback([])).toEqual({
      code: 0,
      stdout: [
        "2026-11-19T10:00:00+00:00  fb_1  bug      Old one",
        "2026-11-20T10:00:00+00:00  fb_2  data     acme/ragkit is a vector database, not a RAG framework at al…  (acme/ragkit, from me@example.com)",
        "2 feedback",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("filters with --since and prints every field with --json", () => {
    const result = feedback(["--since", "2026-11-20", "--json"]);
    expect([result.code, JSON.parse(result.stdout)]).toEqual([0, [NEW]]);
    expect(JSON.parse(feedback(["--since", "2026-11-20T10:00:01Z", "--json"]).stdout)).toEqual([]);
  });

  it("exits 2 on a --since that is not a date", () => {
    const result = feedback(["--since", "yesterday"]);
    expect([result.code, result.stderr]).toEqual([
      2,
      'projintel: --since must be a date (YYYY-MM-DD) or an ISO date-time, got "yesterday".\n',
    ]);
  });
});
