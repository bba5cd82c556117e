// The drawing functions: badge widths from the Verdana table, exact paths with gaps for nulls, ticks and labels.
import { describe, expect, it } from "vitest";
import { badgeSideWidth, renderBadge } from "./badge.ts";
import { renderLineChart } from "./line-chart.ts";
import { formatCompact, niceTicks } from "./scale.ts";
import { renderSparkline } from "./sparkline.ts";
import { verdana11Width } from "./text-width.ts";
import { coord, escapeXml } from "./xml.ts";

describe("verdana11Width", () => {
  it("adds the advance widths of 11px Verdana", () => {
    // A 7.52 + I 4.63; digits 6.99 each; space 3.87
    expect(verdana11Width("AI")).toBeCloseTo(12.15, 5);
    expect(verdana11Width("77")).toBeCloseTo(13.98, 5);
    expect(verdana11Width(" ")).toBeCloseTo(3.87, 5);
    expect(verdana11Width("")).toBe(0);
  });
  it("counts a character outside ASCII as wide as M", () => {
    expect(verdana11Width("é")).toBeCloseTo(verdana11Width("M"), 5);
  });
});

describe("renderBadge", () => {
  const svg = renderBadge({ label: "AI quality", message: "77 established", color: "#007ec6" });
  it("fits each side to its text plus 5 px of padding on each side", () => {
    expect(badgeSideWidth("AI quality")).toBe(Math.ceil(verdana11Width("AI quality")) + 10);
    const width = badgeSideWidth("AI quality") + badgeSideWidth("77 established");
    // "AI quality" measures 53.32 px → 54 + 10; "77 established" 80.05 px → 81 + 10
    expect(verdana11Width("AI quality")).toBeCloseTo(53.32, 5);
    expect(verdana11Width("77 established")).toBeCloseTo(80.05, 5);
    expect(width).toBe(64 + 91);
    expect(svg).toContain(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img"`);
    expect(svg).toContain(`<rect x="64" width="91" height="20" fill="#007ec6"/>`);
  });
  it("names itself for screen readers", () => {
    expect(svg).toContain("<title>AI quality: 77 established</title>");
    expect(svg).toContain('aria-label="AI quality: 77 established"');
  });
  it("escapes text", () => {
    const odd = renderBadge({ label: "a<b", message: 'x&"y', color: "#9f9f9f" });
    expect(odd).toContain("<title>a&lt;b: x&amp;&quot;y</title>");
    expect(odd).not.toContain("a<b");
  });
});

describe("renderLineChart", () => {
  const dates = ["2026-11-20", "2026-11-21", "2026-11-22", "2026-11-23", "2026-11-24"];
  it("breaks a line at a null and draws a lone value as a dot", () => {
    const svg = renderLineChart({
      title: "stars",
      dates,
      series: [{ name: "stars", values: [0, 10, null, 30, null] }],
      width: 148,
      height: 132,
    });
    // plot 60..136 wide (19 px a night), 10..110 high; ticks 0, 10, 20, 30 → 100 px for 30
    expect(svg).toContain('d="M60 110L79 76.7M117 10h0"');
    expect(svg.match(/<path class="series"/g)).toHaveLength(1);
    expect(svg).toContain("<title>stars</title>");
    expect(svg).toContain(">2026-11-20</text>");
    expect(svg).toContain(">2026-11-22</text>");
    expect(svg).toContain(">2026-11-24</text>");
  });
  it("draws a legend and one path per series", () => {
    const svg = renderLineChart({
      title: "a and b",
      dates,
      series: [
        { name: "a", values: [1, 2, 3, 4, 5] },
        { name: "b", values: [5, 4, 3, 2, 1], color: "#123456" },
      ],
    });
    expect(svg.match(/<path class="series"/g)).toHaveLength(2);
    expect(svg).toContain('data-series="b"');
    expect(svg).toContain('stroke="#123456"');
    expect(svg).toContain('fill="#0072b2"/><text x="74" y="18"');
  });
  it("labels ticks in whole numbers when compact labels would repeat", () => {
    const svg = renderLineChart({
      title: "t",
      dates: dates.slice(0, 2),
      series: [{ name: "s", values: [112_100, 113_100] }],
      fromZero: false,
    });
    // ticks 112,000 to 113,500 by 500: compact, 112.5k and 113k would both read "113k"
    expect([...svg.matchAll(/dy="4"[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual([
      "112,000",
      "112,500",
      "113,000",
      "113,500",
    ]);
    // an axis not from zero is marked as cut
    expect(svg).toContain('<path class="axis-break"');
    expect(svg).toContain("<title>the axis starts at 112,000, not at 0</title>");
    const small = renderLineChart({
      title: "t",
      dates: dates.slice(0, 2),
      series: [{ name: "s", values: [0, 3000] }],
    });
    expect([...small.matchAll(/dy="4"[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual(["0", "1k", "2k", "3k"]);
  });
  it("starts the axis at zero, so a dormant project's 4,173 to 4,176 stars read flat", () => {
    const svg = renderLineChart({
      title: "t",
      dates,
      series: [{ name: "s", values: [4173, 4174, 4175, 4175, 4176] }],
      width: 148,
      height: 132,
    });
    expect([...svg.matchAll(/dy="4"[^>]*>([^<]+)</g)].map((m) => m[1])).toEqual(["0", "2k", "4k", "6k"]);
    expect(svg).not.toContain("axis-break");
    // 100 px for 6,000 stars: the 3 stars gained move the line half a pixel
    expect(svg).toContain('d="M60 40.5L79 40.4L98 40.4L117 40.4L136 40.4"');
  });
  it("draws a series' only value as a dot with its value", () => {
    const svg = renderLineChart({
      title: "downloads",
      dates,
      series: [{ name: "downloads", values: [null, null, null, null, 90] }],
      width: 148,
      height: 132,
    });
    // plot 60..136, 10..110; ticks 0 to 100: 90 at y 20
    expect(svg).toContain('<circle class="point" data-series="downloads" cx="136" cy="20" r="3.5"');
    expect(svg).toContain('<text class="value" x="136" y="13" text-anchor="end"');
    expect(svg).toContain(">90</text>");
    // lone values of a series with several get a dot and no label
    const two = renderLineChart({
      title: "t",
      dates,
      series: [{ name: "s", values: [5, null, null, null, 9] }],
    });
    expect(two.match(/<circle class="point"/g)).toHaveLength(2);
    expect(two).not.toContain('class="value"');
  });
  it("says there is no data rather than drawing an empty frame", () => {
    const svg = renderLineChart({
      title: "t",
      dates,
      series: [{ name: "s", values: [null, null, null, null, null] }],
    });
    expect(svg).toContain("no data for these nights");
    expect(svg).not.toContain("<path");
  });
  it("refuses a series without one value per date", () => {
    expect(() => renderLineChart({ title: "t", dates, series: [{ name: "short", values: [1] }] })).toThrow(
      "series short has 1 values for 5 dates",
    );
  });
});

describe("renderSparkline", () => {
  it("draws runs with gaps and a dot on the last known value", () => {
    const svg = renderSparkline([1, 3, null, 2], { title: "trend", width: 38, height: 24 });
    // x: 2 + i * 11.33; y: 22 - (v - 1) * 10
    expect(svg).toContain('d="M2 22L13.3 2M36 12"');
    expect(svg).toContain('<circle cx="36" cy="12" r="2"');
    expect(svg).toContain("<title>trend</title>");
  });
  it("draws on a range shared with other rows, so a flat row stays flat", () => {
    const svg = renderSparkline([0, 0.001], {
      title: "t",
      width: 38,
      height: 24,
      range: { low: 0, high: 0.1 },
    });
    // y: 22 - v / 0.1 * 20
    expect(svg).toContain('d="M2 22L36 21.8"');
  });
  it("draws only the frame for fewer than two values", () => {
    expect(renderSparkline([null, 4], { title: "t" })).not.toContain("<path");
  });
});

describe("scale and text", () => {
  it("picks round ticks", () => {
    expect(niceTicks(0, 30)).toEqual([0, 10, 20, 30]);
    expect(niceTicks(4210, 4390)).toEqual([4200, 4250, 4300, 4350, 4400]);
    expect(niceTicks(0.1, 0.3)).toEqual([0.1, 0.15, 0.2, 0.25, 0.3]);
    expect(niceTicks(5, 5)).toEqual([5]);
  });
  it("formats counts compactly", () => {
    expect([999, 1234, 35_400, 1_250_000, 3_400_000_000, -1500].map(formatCompact)).toEqual([
      "999",
      "1.2k",
      "35k",
      "1.3M",
      "3.4B",
      "-1.5k",
    ]);
  });
  it("escapes and rounds", () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    expect([1.26, -0.04, 3].map(coord)).toEqual(["1.3", "0", "3"]);
  });
});
