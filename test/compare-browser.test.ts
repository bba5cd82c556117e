// The comparison page (/compare?projects=…) in a real headless Chromium against the shim on loopback: it loads with
// no console error and no failed request, its table has a column per tracked project, and both charts draw a curve
// per project, downloads only on the nights they are known. The screenshot goes to SHOTS_DIR (/tmp/shots by default). Skipped without Chromium, except in CI.
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openPage, SHOTS_DIR, skipWithoutChromium } from "./chromium.ts";
import { type SimApp, simApp } from "./sim-release.ts";

describe.skipIf(skipWithoutChromium)("the comparison page in a browser", () => {
  let sim: SimApp;
  let browser: Browser;
  let base: string;
  let projects: { full_name: string }[];

  beforeAll(async () => {
    sim = await simApp();
    base = await sim.app.listen({ port: 0, host: "127.0.0.1" });
    // three projects of one domain with downloads: the best-scored domain's top three
    projects = await sim.db.all<{ full_name: string }>(
      `SELECT full_name FROM projects WHERE downloads_monthly > 0 AND domain = (
         SELECT domain FROM projects WHERE downloads_monthly > 0 GROUP BY domain HAVING count(*) >= 3
         ORDER BY max(quality_score) DESC, domain LIMIT 1)
       ORDER BY quality_score DESC, full_name LIMIT 3`,
    );
    await mkdir(SHOTS_DIR, { recursive: true });
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  it("opens with no error, a column per project, a curve per project in both charts", async () => {
    expect(projects).toHaveLength(3);
    const names = [...projects.map((p) => p.full_name), "nobody/nothing"];
    const { page, response, problems } = await openPage(
      browser,
      `${base}/compare?projects=${names.join(",")}`,
      { width: 1100, height: 900 },
    );
    expect(response?.status()).toBe(200);
    expect(await page.locator("table.compare thead th a").allTextContents()).toEqual(
      projects.map((p) => p.full_name),
    );
    expect(await page.locator(".chart svg").count()).toBe(2);
    expect(await page.locator(".chart svg path.series").count()).toBe(6);
    // each star curve is drawn: a path with at least one segment
    const lengths = (await page.evaluate(
      `[...document.querySelectorAll(".chart svg path.series")].map((p) => p.getTotalLength())`,
    )) as number[];
    expect(lengths.slice(0, 3).filter((l) => l > 0)).toHaveLength(3);
    // the simulated world's registries are read on its last night only, so each downloads curve is that night alone:
    // a dot at the plot's right edge (x 868), never a line climbing from the 0 of the nights before
    const downloads = await page
      .locator(".chart svg path.series")
      .evaluateAll((paths) => paths.slice(3).map((p) => p.getAttribute("d")));
    expect(downloads).toHaveLength(3);
    for (const d of downloads) expect(d).toMatch(/^M868 [\d.]+h0$/);
    expect(await page.locator("script").count()).toBe(0);
    await page.screenshot({ path: path.join(SHOTS_DIR, "compare.png"), fullPage: true });
    // its links lead to the projects' pages and to the JSON, which answer
    await page.locator("table.compare thead th a").first().click();
    await page.waitForLoadState("load");
    expect(await page.locator("h1").textContent()).toContain(projects[0]?.full_name);
    expect(problems).toEqual([]);
    await page.close();
  });
});
