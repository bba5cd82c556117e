// What the badges say and how they are coloured, the shields.io endpoint document, and the Markdown to paste.
import { describe, expect, it } from "vitest";
import {
  type BadgeFacts,
  badgeMarkdown,
  badgePath,
  badgeSvg,
  ownerRepoOfSlug,
  qualityBadgeText,
  shieldsEndpointJson,
  shieldsEndpointSchema,
  trendBadgeText,
} from "./badges.ts";

const facts = (over: Partial<BadgeFacts> = {}): BadgeFacts => ({
  quality_score: 77,
  quality_tier: "established",
  lifecycle_stage: "growing",
  momentum: {
    score: 0.4,
    stars_7d_delta: 1234,
    stars_30d_delta: 4000,
    growth_7d_pct: 3,
    growth_30d_pct: 10,
    downloads_change_pct_30d: null,
  },
  ...over,
});

describe("the quality badge", () => {
  it('says "AI quality | 77 established", green', () => {
    const text = qualityBadgeText(facts());
    expect([text.label, text.message, text.color]).toEqual([
      "AI quality",
      "77 established",
      { name: "green", hex: "#97ca00" },
    ]);
    const svg = badgeSvg(text);
    expect(svg).toContain("<title>AI quality: 77 established</title>");
    expect(svg).toContain('fill="#97ca00"');
  });
  it("is coloured by tier", () => {
    const colors = (["verified", "established", "emerging", "experimental"] as const).map(
      (tier) => qualityBadgeText(facts({ quality_tier: tier })).color.name,
    );
    expect(colors).toEqual(["brightgreen", "green", "yellow", "orange"]);
  });
  it('is a grey "not tracked" for a repository not tracked', () => {
    const text = qualityBadgeText(undefined);
    expect([text.message, text.color.hex]).toEqual(["not tracked", "#9f9f9f"]);
  });
});

describe("the trend badge", () => {
  it("says the stars gained in 7 days and the lifecycle stage", () => {
    expect(trendBadgeText(facts()).message).toBe("+1.2k growing");
    expect(trendBadgeText(facts()).color.name).toBe("brightgreen");
    const faded = facts({ lifecycle_stage: "dormant" });
    faded.momentum = { ...faded.momentum, stars_7d_delta: 0 };
    expect([trendBadgeText(faded).message, trendBadgeText(faded).color.name]).toEqual([
      "+0 dormant",
      "lightgrey",
    ]);
  });
  it("says n/a while the count of 7 days ago is unknown", () => {
    const young = facts({ lifecycle_stage: "emerging" });
    young.momentum = { ...young.momentum, stars_7d_delta: null };
    expect(trendBadgeText(young).message).toBe("n/a emerging");
  });
});

describe("the shields.io endpoint document", () => {
  it("has schemaVersion, label, message and a shields colour name", () => {
    const json = JSON.parse(
      shieldsEndpointJson(qualityBadgeText(facts({ quality_tier: "verified", quality_score: 91 }))),
    );
    expect(json).toEqual({
      schemaVersion: 1,
      label: "AI quality",
      message: "91 verified",
      color: "brightgreen",
      cacheSeconds: 3600,
    });
    expect(shieldsEndpointSchema.parse(json)).toEqual(json);
  });
});

describe("paths and Markdown", () => {
  it("links the badge to the project's page", () => {
    expect(badgeMarkdown("https://api.example.org/", "Acme/tool.js")).toBe(
      "[![AI quality](https://api.example.org/badges/Acme/tool.js.svg)](https://api.example.org/p/Acme/tool.js)",
    );
    expect(badgePath("acme/tool", "trend")).toBe("/badges/acme/tool/trend.svg");
    expect(badgePath("acme/tool", "json")).toBe("/badges/acme/tool.json");
  });
  it("splits a slug at its first --", () => {
    expect(ownerRepoOfSlug("my-org--tool--x")).toEqual({ owner: "my-org", repo: "tool--x" });
  });
});
