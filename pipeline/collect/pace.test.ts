// The pacer on a fake clock: a burst up to the limit starts at once, later starts wait for the oldest to leave
// the window, concurrency is capped, and a frozen clock (sleep records only) still makes progress.
import { describe, expect, it } from "vitest";
import { createPacer } from "./pace.ts";

function fakeTime(start = 1_000_000) {
  let now = start;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
    advance: (ms: number) => {
      now += ms;
    },
    sleeps,
  };
}

describe("createPacer", () => {
  it("lets a burst up to the limit go at once, then waits for the oldest start to leave the window", async () => {
    const time = fakeTime();
    const pacer = createPacer({ limit: 3, windowMs: 60_000, now: time.now, sleep: time.sleep });
    const started: number[] = [];
    await Promise.all(
      Array.from({ length: 7 }, () => pacer.run(async () => void started.push(time.now() - 1_000_000))),
    );
    expect(started).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
    expect(time.sleeps).toEqual([60_000, 60_000]);
  });

  it("slides: starts spread over the window free their places one by one", async () => {
    const time = fakeTime();
    const pacer = createPacer({ limit: 2, windowMs: 1_000, now: time.now, sleep: time.sleep });
    const at: number[] = [];
    const go = () => pacer.run(async () => void at.push(time.now() - 1_000_000));
    await go();
    time.advance(400);
    await go();
    await go(); // the first start leaves the window at 1,000
    await go(); // the second at 1,400
    expect(at).toEqual([0, 400, 1_000, 1_400]);
    expect(time.sleeps).toEqual([600, 400]);
  });

  it("caps the calls running at once", async () => {
    const time = fakeTime();
    const pacer = createPacer({
      limit: 100,
      windowMs: 60_000,
      concurrent: 2,
      now: time.now,
      sleep: time.sleep,
    });
    let running = 0;
    let most = 0;
    const release: (() => void)[] = [];
    const calls = Array.from({ length: 5 }, () =>
      pacer.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => release.push(resolve));
        running--;
      }),
    );
    for (let done = 0; done < 5; done++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(release.length).toBe(done + Math.min(2, 5 - done));
      release[done]?.();
    }
    await Promise.all(calls);
    expect(most).toBe(2);
    expect(time.sleeps).toEqual([]);
  });

  it("counts a wait as done when the clock does not move (tests whose sleep only records)", async () => {
    const sleeps: number[] = [];
    const pacer = createPacer({
      limit: 2,
      windowMs: 60_000,
      now: () => 5_000,
      sleep: async (ms) => void sleeps.push(ms),
    });
    for (let n = 0; n < 5; n++) await pacer.run(async () => n);
    expect(sleeps).toEqual([60_000, 60_000]);
  });

  it("passes the work's result and failure through, and keeps pacing after a failure", async () => {
    const time = fakeTime();
    const pacer = createPacer({ limit: 1, windowMs: 10, now: time.now, sleep: time.sleep });
    await expect(pacer.run(async () => 42)).resolves.toBe(42);
    await expect(pacer.run(async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(pacer.run(async () => "after")).resolves.toBe("after");
    expect(time.sleeps).toEqual([10, 10]);
  });
});
