// `sources verify` with this connector's hook over test/fixtures/real/npm: every recorded body is read or
// turned into the right decision, none fails.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { verifyRecorded } from "../../verify.ts";
import { parseNpmRecorded } from "./recorded.ts";

const REAL = path.resolve(import.meta.dirname, "../../../test/fixtures/real");

describe("npm recorded responses", () => {
  it("verifies every recorded body", async () => {
    const lines = (await verifyRecorded(REAL, { npm: parseNpmRecorded })).filter((l) => l.source === "npm");
    expect(lines.map(({ file, outcome, detail }) => [file, outcome, detail])).toEqual([
      [
        "downloads-point-last-month.base62.2022-09.json",
        "ok",
        "200: base62: 1076972 downloads 2022-08-22..2022-09-20 (no headers file)",
      ],
      [
        "downloads-range.2022-02-13_2023-02-11.dayjs.json",
        "ok",
        "200: dayjs: 364 days 2022-02-13..2023-02-11 (no headers file)",
      ],
      [
        "downloads-range.2022-02-13_2023-02-11.luxon.json",
        "ok",
        "200: luxon: 364 days 2022-02-13..2023-02-11 (no headers file)",
      ],
      [
        "packument-full.custodian.2024-09.json",
        "ok",
        "200: custodian 1.3.4, 11 versions, betsmartmedia/custodian",
      ],
    ]);
  });
});
