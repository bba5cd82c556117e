// Gone rows: only NOT_FOUND answers at a nodes position count, each row names the last known owner/name,
// and the rows carry exactly the columns of raw_github_gone's DDL.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openDb, runSqlFile } from "../../../core/db.ts";
import { RAW_DDL_DIR } from "../../collect/load.ts";
import { GONE_TABLE, goneBatchId, goneRows, notFoundIds } from "./gone.ts";

const meta = { runDate: "2026-03-01", fetchedAt: new Date("2026-03-01T03:00:00Z") };

describe("gone repositories", () => {
  it("are the ids answered NOT_FOUND at their position, not other errors", () => {
    const errors = [
      {
        type: "NOT_FOUND",
        path: ["nodes", 2],
        message: "Could not resolve to a node with the global id of 'R_c'.",
      },
      {
        type: "FORBIDDEN",
        path: ["nodes", 0],
        message: "Resource protected by organization SAML enforcement.",
      },
      { type: "NOT_FOUND", path: ["repository"], message: "Could not resolve to a Repository." },
      { message: "Something went wrong." },
    ];
    expect([...notFoundIds(errors, ["R_a", "R_b", "R_c"])]).toEqual(["R_c"]);
    expect(notFoundIds(undefined, ["R_a"]).size).toBe(0);
  });

  it("become rows with the last known name, sorted, in the batch beside the refresh batch", () => {
    const names = new Map([
      ["R_b", "acme/beta"],
      ["R_a", "acme/alpha"],
    ]);
    expect(goneRows(new Set(["R_b", "R_a", "R_x"]), names, meta)).toEqual([
      {
        run_date: "2026-03-01",
        node_id: "R_a",
        full_name: "acme/alpha",
        reason: "not_found",
        fetched_at: "2026-03-01T03:00:00.000Z",
      },
      {
        run_date: "2026-03-01",
        node_id: "R_b",
        full_name: "acme/beta",
        reason: "not_found",
        fetched_at: "2026-03-01T03:00:00.000Z",
      },
      {
        run_date: "2026-03-01",
        node_id: "R_x",
        full_name: null,
        reason: "not_found",
        fetched_at: "2026-03-01T03:00:00.000Z",
      },
    ]);
    expect([goneBatchId("raw_github_repos.00003"), goneBatchId("raw_github_repos.light.00000")]).toEqual([
      "raw_github_gone.00003",
      "raw_github_gone.light.00000",
    ]);
  });

  it("carry exactly the columns of the raw table", async () => {
    const db = await openDb(":memory:");
    await runSqlFile(db, path.join(RAW_DDL_DIR, `${GONE_TABLE}.sql`));
    const columns = (await db.all<{ column_name: string }>(`DESCRIBE ${GONE_TABLE}`)).map(
      (c) => c.column_name,
    );
    db.close();
    expect(Object.keys(goneRows(["R_a"], new Map(), meta)[0] ?? {})).toEqual(columns);
  });
});
