// The demo replays the nights its state folder has not seen, up to 35 of them, ending on the demo's date.
import { describe, expect, it } from "vitest";
import { firstNight } from "./demo.ts";

describe("firstNight", () => {
  it("replays the whole history on a fresh state folder", () => {
    expect(firstNight("2026-11-22", 35, undefined)).toBe("2026-10-19");
  });
  it("replays only the nights after the last one seen", () => {
    expect(firstNight("2026-11-22", 35, "2026-11-20")).toBe("2026-11-21");
  });
  it("runs only the demo's date again when it was seen already", () => {
    expect(firstNight("2026-11-22", 35, "2026-11-22")).toBe("2026-11-22");
  });
  it("starts afresh at most 35 nights back after a long pause", () => {
    expect(firstNight("2026-11-22", 35, "2026-01-01")).toBe("2026-10-19");
  });
});
