// The checked-in split of the labelled repositories: every row sits in the file its name's hash picks, no name twice.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseClassifyInput } from "./classify.ts";
import { HOLDOUT_FILE, isHeldOut, TUNING_FILE } from "./labelled-split.ts";

const names = (file: string) => parseClassifyInput(readFileSync(file, "utf8")).map((r) => r.full_name);

describe("the labelled split", () => {
  it("holds out the rows whose hash picks them (12 of 90), and tunes on the other 78", () => {
    const tuning = names(TUNING_FILE);
    const holdout = names(HOLDOUT_FILE);
    expect([tuning.length, holdout.length]).toEqual([78, 12]);
    expect(tuning.filter(isHeldOut)).toEqual([]);
    expect(holdout.every(isHeldOut)).toBe(true);
    expect(new Set([...tuning, ...holdout]).size).toBe(90);
  });

  it("hashes the lower-cased name, so the split does not depend on how a name is cased", () => {
    expect(isHeldOut("Owner/Repo")).toBe(isHeldOut("owner/repo"));
  });
});
