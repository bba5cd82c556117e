// `sources verify` with this connector's hook over test/fixtures/real/arxiv: every recorded body is read or
// turned into the right decision, none fails.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyRecorded } from "../../verify.ts";
import { parseArxivRecorded } from "./recorded.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real");

describe("arxiv recorded responses", () => {
  it("verifies every recorded body", async () => {
    const lines = (await verifyRecorded(REAL, { arxiv: parseArxivRecorded })).filter(
      (l) => l.source === "arxiv",
    );
    expect(lines.map(({ file, outcome, detail }) => [file, outcome, detail])).toEqual([
      ["query-id_list-0000.0000.empty.2026-04.xml", "ok", "200: 0 of 0 papers [] (no headers file)"],
      [
        "query-id_list-1605.08386.new-backend.2026-04.xml",
        "ok",
        "200: 1 of 1 papers [1605.08386] (no headers file)",
      ],
      ["query-id_list-2101.05225.2022-01.xml", "ok", "200: 1 of 1 papers [2101.05225] (no headers file)"],
      [
        "query-id_list-abc.error-400.2026-04.xml",
        "decision",
        "fail: 400 refused (arXiv error: incorrect id format for abc) (status 400 from the file name)",
      ],
    ]);
  });
});
