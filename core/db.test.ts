// openDb's forks: more connections to one database, writing side by side; closing one leaves the others open.
import { describe, expect, it } from "vitest";
import { openDb } from "./db.ts";

describe("openDb fork", () => {
  it("appends to two tables at once from two connections, and closing a fork keeps the database open", async () => {
    const db = await openDb(":memory:");
    try {
      await db.run("CREATE TABLE a (k INTEGER PRIMARY KEY); CREATE TABLE b (k INTEGER PRIMARY KEY)");
      const [one, two] = await Promise.all([db.fork(), db.fork()]);
      await Promise.all([
        one.run("INSERT INTO a SELECT range FROM range(200000)"),
        two.run("INSERT INTO b SELECT range * 2 FROM range(100000)"),
      ]);
      one.close();
      two.close();
      expect(await db.all("SELECT (SELECT count(*) FROM a) AS a, (SELECT sum(k) FROM b) AS b")).toEqual([
        { a: 200_000, b: 9_999_900_000 },
      ]);
    } finally {
      db.close();
    }
  });
});
