// Stage lines as `projintel demo` prints them, and the throttled progress log of long work.
import { describe, expect, it } from "vitest";
import { memoryLogger } from "./log.ts";
import { formatCount, formatSeconds, formatStageLine, stageLines, startProgress } from "./progress.ts";

describe("stage lines", () => {
  it("pads the stage, then the text and the elapsed seconds", () => {
    expect(formatStageLine("publish", "1,430 files", 2345)).toBe("  publish   1,430 files (2.3 s)\n");
    expect(formatStageLine("serve", "http://127.0.0.1:8787")).toBe("  serve     http://127.0.0.1:8787\n");
  });
  it("formats counts and seconds as people read them", () => {
    expect(formatCount(2722)).toBe("2,722");
    expect(formatSeconds(98_049)).toBe("98.0 s");
  });
  it("writes one line per call to the stream", () => {
    const written: string[] = [];
    const line = stageLines({ write: (text: string) => written.push(text) });
    line("score", "2,722 projects", 500);
    expect(written).toEqual(["  score     2,722 projects (0.5 s)\n"]);
  });
});

describe("startProgress", () => {
  it("logs start, throttled progress and done with counts", () => {
    const logger = memoryLogger();
    let t = 0;
    const progress = startProgress(logger, "task", 4, { everyMs: 10, now: () => t });
    t = 5;
    progress.tick();
    t = 12;
    progress.tick(2);
    progress.done({ rows: 3 });
    expect(logger.lines.map(({ time: _, ...rest }) => rest)).toEqual([
      { level: "info", msg: "task: started", task: "task", done: 0, total: 4, percent: 0, elapsed_ms: 0 },
      { level: "info", msg: "task: progress", task: "task", done: 3, total: 4, percent: 75, elapsed_ms: 12 },
      {
        level: "info",
        msg: "task: done",
        task: "task",
        done: 3,
        total: 4,
        percent: 75,
        elapsed_ms: 12,
        rows: 3,
      },
    ]);
  });
});
