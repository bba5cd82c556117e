// Headless Chromium for the browser tests: where it is (CHROMIUM_PATH, else Debian's package), whether those tests
// run (wherever it is, and always in CI, which installs it, so a missing one fails there rather than skipping),
// launching it, and opening a page while collecting what went wrong on it.
import { existsSync } from "node:fs";
import { type Browser, chromium, type Page, type Response } from "playwright-core";

export const chromiumPath = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
].find((p): p is string => p !== undefined && existsSync(p));

/** A browser test is skipped only outside CI on a machine without Chromium. */
export const skipWithoutChromium = chromiumPath === undefined && process.env.CI !== "true";
if (skipWithoutChromium) {
  console.warn(
    "Skipping the browser tests: no Chromium found. Install it with `apt-get install -y chromium` (or set CHROMIUM_PATH).",
  );
}

/** Where the browser tests save their screenshots. */
export const SHOTS_DIR = process.env.SHOTS_DIR ?? "/tmp/shots";

export function launchChromium(): Promise<Browser> {
  if (chromiumPath === undefined) {
    throw new Error("No Chromium found: CI installs it (apt-get install -y chromium), or set CHROMIUM_PATH.");
  }
  return chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox", "--disable-gpu"] });
}

export interface OpenedPage {
  page: Page;
  response: Response | null;
  /** Console errors, page errors, and failed or non-2xx requests the page caused. */
  problems: string[];
}

/** Opens `url` in a new page of `browser`, recording what went wrong on it. */
export async function openPage(
  browser: Browser,
  url: string,
  viewport?: { width: number; height: number },
): Promise<OpenedPage> {
  const page = await browser.newPage(viewport ? { viewport } : {});
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("requestfailed", (r) => problems.push(`failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  const response = await page.goto(url, { waitUntil: "load" });
  return { page, response, problems };
}
