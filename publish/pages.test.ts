// The project page drawn from the hand-made fixture's detail (exact history gaps): its charts, the alternatives when a
// record lists them (issue 24 part B adds them to the detail), nothing of them when it does not, and escaping.
import { beforeAll, describe, expect, it } from "vitest";
import type { ProjectDetail } from "../schemas/project-detail.ts";
import { nightsFrom, renderProjectPage } from "./pages.ts";
import { PROJECT_DETAIL_COLLECTION } from "./routes/project.ts";
import { renderFixtureCollection, shardedRecord } from "./testing.ts";

let detail: ProjectDetail;
beforeAll(async () => {
  const files = await renderFixtureCollection(PROJECT_DETAIL_COLLECTION, "2026-11-01");
  detail = shardedRecord(files, "project-detail", "ollama--ollama") as ProjectDetail;
});

describe("renderProjectPage", () => {
  it("draws 90 nights of stars, a gap for each night without a snapshot", () => {
    const html = renderProjectPage(detail);
    expect(nightsFrom(detail.history.from, 90).at(-1)).toBe("2026-11-01");
    const stars = /data-series="stars" d="([^"]+)"/.exec(html)?.[1] ?? "";
    // one move per run of known nights
    const runs = detail.history.stars.filter(
      (v, i, all) => v !== null && (i === 0 || all[i - 1] === null),
    ).length;
    expect(stars.match(/M/g)).toHaveLength(runs);
    // the fixture's nights 47, 72, 82 and 89 stand alone: four dots
    expect([runs, stars.match(/h0/g)?.length]).toEqual([4, 4]);
    // its first snapshot (09-20) is within the 90 nights: a nightly's warehouse holds no earlier one to chart by month
    expect(detail.history_monthly.from).toBe("2026-09");
    expect(html).not.toContain("by month");
    expect(html).not.toContain("<h2>Alternatives</h2>");
  });

  it("draws downloads only on the nights they are known: none before the registries' first night", () => {
    // the fixture's registries were first read on night 82: nights 47 and 72 have a snapshot holding 0 downloads,
    // unknown in the history, so the chart has dots at nights 82 and 89 (x 583.3 and 628) and nothing at 0 before
    expect(detail.history.downloads_monthly.filter((v) => v !== null)).toEqual([2_000_000, 2_000_000]);
    const html = renderProjectPage(detail);
    // the count axis starts at zero (issue 35, item 5): two nights of 2,000,000 sit at the top (y 10), not the foot
    expect(/data-series="downloads" d="([^"]+)"/.exec(html)?.[1]).toBe("M583.3 10h0M628 10h0");
  });

  it("says when there are no downloads", () => {
    const none = detail.history.downloads_monthly.map((v) => (v === null ? null : 0));
    const html = renderProjectPage({ ...detail, history: { ...detail.history, downloads_monthly: none } });
    expect(html).not.toContain('data-series="downloads"');
    expect(html).toContain("<p>No linked package with downloads.</p>");
  });

  it("says unknown, never 0, for downloads no figure was read for; a real 0 stays 0", () => {
    const unknown = renderProjectPage({
      ...detail,
      downloads_monthly: null,
      history: { ...detail.history, downloads_monthly: detail.history.downloads_monthly.map(() => null) },
    });
    expect(unknown).toContain("Monthly downloads unknown.</p>");
    expect(unknown).toContain("<p>Monthly downloads unknown: no download figure was read for it.</p>");
    expect(unknown).not.toContain('data-series="downloads"');
    const zero = renderProjectPage({ ...detail, downloads_monthly: 0 });
    expect(zero).toContain("Monthly downloads 0.</p>");
  });

  it("lists the alternatives when the record has them, linking to their pages", () => {
    const html = renderProjectPage({
      ...detail,
      alternatives: [
        { full_name: "acme/llama-box", quality_score: 81, quality_tier: "verified", stars: 12_500 },
        { full_name: "x/<y>", quality_score: 40, quality_tier: "emerging", stars: 7 },
      ],
    } as ProjectDetail);
    expect(html).toContain("<h2>Alternatives</h2>");
    expect(html).toContain(
      '<tr><td><a href="/p/acme/llama-box">acme/llama-box</a></td><td class="num">81</td><td><span class="tier" style="background:#4c1">verified</span></td><td class="num">13k</td></tr>',
    );
    expect(html).toContain("x/&lt;y&gt;");
    expect(html).not.toContain("x/<y>");
  });
});
