// The refresh plan: new repositories in full, hot ones daily, warm and cold ones spread over their periods.
import { describe, expect, it } from "vitest";
import { DEFAULT_TIERS, planRefresh, type RefreshHistory } from "./tiers.ts";

const ids = Array.from({ length: 1000 }, (_, i) => `R_${String(i).padStart(4, "0")}`);
const history = (asOf: string | null) =>
  new Map<string, RefreshHistory>(ids.map((id, i) => [id, { stars: i, details_as_of: asOf }]));
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

describe("planRefresh", () => {
  it("refreshes every repository in full when nothing is known of it", () => {
    const plan = planRefresh(ids, new Map(), "2026-03-02");
    expect([plan.full.length, plan.light.length, plan.tiers.new]).toEqual([1000, 0, 1000]);
  });

  it("puts the most starred in the hot tier, refreshed in full every day", () => {
    const plan = planRefresh(ids, history("2026-03-01"), "2026-03-02");
    expect(plan.tiers).toEqual({ hot: 50, warm: 200, cold: 750, new: 0 });
    const hot = ids.slice(950);
    for (const id of hot) expect(plan.full).toContain(id);
  });

  it("refreshes each repository in full at least once per period, and about 22% of them per night", () => {
    const lastFull = new Map<string, string>(ids.map((id) => [id, "2026-03-01"]));
    const nightly: number[] = [];
    for (let day = 1; day <= 28; day++) {
      const date = addDays("2026-03-01", day);
      const known = new Map<string, RefreshHistory>(
        ids.map((id, i) => [id, { stars: i, details_as_of: lastFull.get(id) ?? null }]),
      );
      const plan = planRefresh(ids, known, date);
      for (const id of plan.full) {
        const gap = (Date.parse(date) - Date.parse(lastFull.get(id) ?? date)) / 86_400_000;
        expect(gap).toBeLessThanOrEqual(DEFAULT_TIERS.coldDays);
        lastFull.set(id, date);
      }
      nightly.push(plan.full.length);
    }
    for (const [id, last] of lastFull) expect([id, last >= "2026-03-22"]).toEqual([id, true]);
    const mean = nightly.reduce((a, b) => a + b, 0) / nightly.length;
    // 5% daily + 20% every 3 days + 75% every 7 days = 22.4% a night
    expect(mean).toBeGreaterThan(200);
    expect(mean).toBeLessThan(250);
    expect(Math.max(...nightly)).toBeLessThan(300);
  });

  it("catches up a repository whose full refresh is a period old, whatever its phase", () => {
    const plan = planRefresh(ids, history("2026-02-20"), "2026-03-02");
    expect(plan.full.length).toBe(1000);
  });

  it("plans the same for the same inputs, in node id order", () => {
    const a = planRefresh(ids, history("2026-03-01"), "2026-03-05");
    const b = planRefresh([...ids].reverse(), history("2026-03-01"), "2026-03-05");
    expect(a).toEqual(b);
    expect(a.full).toEqual([...a.full].sort());
  });
});
