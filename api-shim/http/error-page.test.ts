// Which clients get a page for people's errors as HTML: the browsers following a link, never a program.
import { describe, expect, it } from "vitest";
import { prefersHtml } from "./error-page.ts";

describe("prefersHtml", () => {
  it.each([
    [
      "Chromium",
      "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
      true,
    ],
    ["Firefox", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true],
    ["Safari", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true],
    ["HTML preferred by q", "application/json;q=0.5, text/html", true],
    ["a JSON client", "application/json", false],
    ["JSON preferred by q", "text/html;q=0.5, application/json", false],
    ["a tie", "application/json, text/html", false],
    ["application/* over HTML", "application/*, text/html;q=0.9", false],
    ["curl", "*/*", false],
    ["HTML refused", "text/html;q=0", false],
    ["no Accept", undefined, false],
  ])("%s: %s → %s", (_client, accept, html) => {
    expect(prefersHtml(accept)).toBe(html);
  });
});
