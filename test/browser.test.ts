// The pages a person opens first, in a real headless Chromium (Debian's chromium, driven by playwright-core) against
// the shim listening on loopback: / and /docs load with no console error and no failed request, /docs shows every
// endpoint of the OpenAPI document, and its example links answer. Without a browser the test is skipped, saying
// how to install one — except in CI, which installs it (.ci/run), where a missing browser is a failure.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OpenApiDocument } from "../publish/openapi.ts";
import { launchChromium, openPage, skipWithoutChromium } from "./chromium.ts";
import { type SimApp, simApp } from "./sim-release.ts";

describe.skipIf(skipWithoutChromium)("the pages in a browser", () => {
  let sim: SimApp;
  let browser: Browser;
  let base: string;
  let doc: OpenApiDocument;

  beforeAll(async () => {
    sim = await simApp();
    base = await sim.app.listen({ port: 0, host: "127.0.0.1" });
    doc = (await sim.app.inject({ url: "/api/v1/openapi.json" })).json();
    browser = await launchChromium();
  }, 600_000);
  afterAll(async () => {
    await browser?.close();
    await sim?.close();
  });

  /** Opens a path of the shim; the console errors, page errors and failed or non-2xx requests it caused. */
  const open = (path: string) => openPage(browser, `${base}${path}`);

  it("opens / with no error, and its links lead to pages that answer", async () => {
    const { page, response, problems } = await open("/");
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe("Project Intelligence Service");
    await page.getByRole("link", { name: "API reference" }).click();
    await page.waitForURL(`${base}/docs`);
    expect(await page.locator("h1").textContent()).toContain("Project Intelligence Service");
    expect(problems).toEqual([]);
    await page.close();
  });

  it("opens /docs with no error, showing every endpoint of the OpenAPI document", async () => {
    const { page, response, problems } = await open("/docs");
    expect(response?.status()).toBe(200);
    const headings = await page.locator("article h3").allTextContents();
    const shown = headings.map((h) => h.replace(/\s+/g, " ").trim());
    const documented = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(shown.sort()).toEqual(documented.sort());
    // a documented request, followed from the page, answers with data
    await page.locator("#quality a.try").click();
    await page.waitForLoadState("load");
    const body = JSON.parse((await page.locator("body").textContent()) ?? "") as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
