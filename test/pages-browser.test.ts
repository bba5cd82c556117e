// The badges and the pages for people in a real headless Chromium against the shim on loopback: a badge parses as
// SVG, names itself, and its texts fit the widths the Verdana table gave them; /p/{owner}/{repo} and /d/{domain}
// load with no console error and no failed request, with their charts and badges drawn; a repository not tracked
// and a domain that does not exist are pages too, with links onward. Screenshots go to
// SHOTS_DIR (/tmp/shots by default). Skipped without Chromium, except in CI (as test/browser.test.ts).
import { mkdir } from "node:fs/promises";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badgeSideWidth } from "../core/svg/badge.ts";
import { DOMAINS } from "../schemas/index.ts";
import { launchChromium, openPage, SHOTS_DIR, skipWithoutChromium } from "./chromium.ts";
import { type SimApp, simApp } from "./sim-release.ts";

describe.skipIf(skipWithoutChromium)("badges and pages in a browser", () => {
  let sim: SimApp;
  let browser: Browser;
  let base: string;
  let project: { full_name: string; domain: string; score: number; tier: string };

  beforeAll(async () => {
    sim = await simApp();
    base = await sim.app.listen({ port: 0, host: "127.0.0.1" });
    const [row] = await sim.db.all<typeof project>(
      `SELECT full_name, domain, quality_score::INTEGER AS score, quality_tier AS tier FROM projects
       WHERE downloads_monthly > 0 ORDER BY quality_score DESC, full_name LIMIT 1`,
    );
    project = row as typeof project;
    await mkdir(SHOTS_DIR, { recursive: true });
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  /** Opens a path of the shim; the console errors, page errors and failed or non-2xx requests it caused. */
  const open = (path: string) => openPage(browser, `${base}${path}`);

  /** What Chromium made of an SVG document: parse errors, size, title, and each text's natural width. */
  async function svgFacts(page: Page) {
    // run in the page (a string: this project's types have no DOM)
    return (await page.evaluate(`(() => {
      const root = document.documentElement;
      const texts = [...document.querySelectorAll("text:not([aria-hidden])")].map((text) => {
        const fitted = Number(text.getAttribute("textLength")) / 10;
        // the width the font itself gives, without the textLength that pins it
        text.removeAttribute("textLength");
        return { text: text.textContent, fitted, natural: text.getComputedTextLength() / 10 };
      });
      return {
        tag: root.tagName,
        parseErrors: document.getElementsByTagName("parsererror").length,
        width: Number(root.getAttribute("width")),
        title: document.querySelector("title")?.textContent,
        texts,
      };
    })()`)) as {
      tag: string;
      parseErrors: number;
      width: number;
      title: string | undefined;
      texts: { text: string; fitted: number; natural: number }[];
    };
  }

  /** The natural sizes of the page's images: an image that failed to load is 0 wide. */
  async function imageSizes(page: Page): Promise<[number, number][]> {
    return (await page.evaluate("[...document.images].map((i) => [i.naturalWidth, i.naturalHeight])")) as [
      number,
      number,
    ][];
  }

  it("renders a badge as SVG, named, each text fitted to the width measured for it", async () => {
    for (const [url, label, message] of [
      [`/badges/${project.full_name}.svg`, "AI quality", `${project.score} ${project.tier}`],
      ["/badges/nobody/nothing.svg", "AI quality", "not tracked"],
    ] as const) {
      const { page, response, problems } = await open(url);
      expect(response?.headers()["content-type"]).toBe("image/svg+xml");
      const facts = await svgFacts(page);
      expect([facts.tag, facts.parseErrors, facts.title]).toEqual(["svg", 0, `${label}: ${message}`]);
      expect(facts.width).toBe(badgeSideWidth(label) + badgeSideWidth(message));
      expect(facts.texts.map((t) => [t.text, t.fitted])).toEqual([
        [label, badgeSideWidth(label) - 10],
        [message, badgeSideWidth(message) - 10],
      ]);
      // the font this machine has (DejaVu Sans without Verdana) sets each text within 15% of the table's width,
      // so pinning it with textLength never squeezes or stretches it visibly
      for (const t of facts.texts) expect(Math.abs(t.natural - t.fitted) / t.fitted).toBeLessThan(0.15);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("opens a project's page with no error, its charts and badges drawn", async () => {
    const { page, response, problems } = await open(`/p/${project.full_name}`);
    expect(response?.status()).toBe(200);
    expect(await page.locator("h1").textContent()).toContain(project.full_name);
    expect(await page.locator(".chart svg").count()).toBe(2);
    expect(await page.locator(".chart svg path.series").count()).toBe(2);
    // the badges are images that loaded: their natural width is the SVG's
    const widths = (await imageSizes(page)).map(([w]) => w);
    expect(widths).toHaveLength(2);
    for (const w of widths) expect(w).toBeGreaterThan(60);
    await page.screenshot({ path: path.join(SHOTS_DIR, "project-page.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens a domain's page with no error, a trend line per row", async () => {
    const { page, response, problems } = await open(`/d/${project.domain}`);
    expect(response?.status()).toBe(200);
    const rows = await page.locator("tbody tr").count();
    expect(rows).toBeGreaterThan(0);
    expect(await page.locator("td.trend svg").count()).toBe(rows);
    // its first link leads to a project's page that answers
    await page.locator("tbody tr td a").first().click();
    await page.waitForLoadState("load");
    expect(await page.locator(".chart svg").count()).toBe(2);
    await page.goBack();
    await page.screenshot({ path: path.join(SHOTS_DIR, "domain-page.png"), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("shows a page, not JSON, for a repository not tracked and a domain that does not exist", async () => {
    const missing = `${base}/p/nobody/nothing`;
    const { page, response, problems } = await open("/p/nobody/nothing");
    expect([response?.status(), response?.headers()["content-type"]]).toEqual([
      404,
      "text/html; charset=utf-8",
    ]);
    expect(await page.locator("h1").textContent()).toBe("Not found 404");
    expect(await page.locator("main p").textContent()).toBe(
      'No tracked project "nobody/nothing"; find its slug with /api/v1/projects?q=<name>.',
    );
    expect(
      await page.locator("main a").evaluateAll((links) => links.map((a) => a.getAttribute("href"))),
    ).toEqual(["/api/v1/projects?q=nothing", "/", "/docs"]);
    await page.screenshot({ path: path.join(SHOTS_DIR, "not-tracked-page.png"), fullPage: true });
    // the only problem is the page's own status
    expect(problems.filter((p) => !p.endsWith(missing) && !p.includes("status of 404"))).toEqual([]);
    await page.close();
    // a mistyped domain lists every domain's page; the first one opens
    const domain = await open("/d/astrology");
    expect(domain.response?.status()).toBe(422);
    expect(await domain.page.locator("h1").textContent()).toBe("No such domain 422");
    await domain.page.locator("main a").first().click();
    await domain.page.waitForLoadState("load");
    expect(await domain.page.locator("h1").textContent()).toBe(`${DOMAINS[0]} AI quality leaderboard`);
    await domain.page.close();
  });

  it("shows the badges as a README would, in an <img>", async () => {
    const page = await browser.newPage();
    const trend = `${base}/badges/${project.full_name}/trend.svg`;
    await page.setContent(
      `<p><img src="${base}/badges/${project.full_name}.svg"> <img src="${trend}"> <img src="${base}/badges/nobody/nothing.svg"></p>`,
      { waitUntil: "load" },
    );
    const sizes = await imageSizes(page);
    expect(sizes.map(([, h]) => h)).toEqual([20, 20, 20]);
    expect(sizes[2]?.[0]).toBe(badgeSideWidth("AI quality") + badgeSideWidth("not tracked"));
    await page.screenshot({
      path: path.join(SHOTS_DIR, "badges.png"),
      clip: { x: 0, y: 0, width: 520, height: 40 },
    });
    await page.close();
  });
});
