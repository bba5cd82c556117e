// Injected faults over a real socket: the same requests meet the same faults, every kind answers as
// documented, /_sim/* is never faulted, and /_sim/stats counts what was injected.
import { afterEach, describe, expect, it } from "vitest";
import { createFaults, FAULT_KINDS, validateFaults } from "./faults.ts";
import { type SimServer, startSimServer } from "./server.ts";
import { fetchJson } from "./testing.ts";

let sim: SimServer | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const settings = (rate: number, kinds = [...FAULT_KINDS]) => ({ rate, kinds, seed: 7, holdMs: 50 });

describe("the fault choice", () => {
  it("is a pure function of (seed, path, attempt)", () => {
    const paths = Array.from({ length: 200 }, (_, n) => `/npm/p${n % 50}`);
    const run = () => {
      const faults = createFaults(settings(0.3));
      return paths.map((path) => faults.decide(path) ?? "-");
    };
    const first = run();
    expect(run()).toEqual(first);
    const share = first.filter((kind) => kind !== "-").length / first.length;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
    expect(new Set(first)).toEqual(new Set(["-", ...FAULT_KINDS]));
  });

  it("rejects invalid settings with a message naming the field", () => {
    expect(validateFaults({ rate: 2 })).toBe("faults.rate must be a number from 0 to 1.");
    expect(validateFaults({ rate: 0.1, kinds: ["boom"] })).toMatch(/^faults.kinds must be/);
  });
});

describe("faults over HTTP", () => {
  it("answers each kind as documented and counts them in /_sim/stats", async () => {
    sim = await startSimServer({ repos: 200, seed: 5, date: "2026-01-15", faults: settings(1, ["5xx"]) });
    const server = await fetch(`${sim.url}/pypi/pypi/anything/json`);
    expect([500, 502, 503]).toContain(server.status);

    await fetch(`${sim.url}/_sim/faults`, {
      method: "POST",
      body: JSON.stringify(settings(1, ["rate_limit"])),
    });
    const limited = await fetch(`${sim.url}/npm/anything`);
    expect([
      limited.status,
      limited.headers.get("retry-after"),
      limited.headers.get("x-ratelimit-remaining"),
    ]).toEqual([429, "1", "0"]);

    await fetch(`${sim.url}/_sim/faults`, {
      method: "POST",
      body: JSON.stringify(settings(1, ["malformed"])),
    });
    const repo = sim.world.fullName(0);
    const malformed = await fetch(`${sim.url}/github/repos/${repo}`, {
      headers: { authorization: "token t" },
    });
    const text = await malformed.text();
    expect(malformed.status).toBe(200);
    expect(() => {
      const body = JSON.parse(text);
      if (typeof body.id !== "number") throw new Error("wrong type");
    }).toThrow();

    await fetch(`${sim.url}/_sim/faults`, { method: "POST", body: JSON.stringify(settings(1, ["timeout"])) });
    await expect(fetch(`${sim.url}/hn/api/v1/search_by_date?tags=story`)).rejects.toThrow();

    expect((await fetchJson(`${sim.url}/_sim/faults`)).body).toEqual(settings(1, ["timeout"]));
    const stats = await fetchJson(`${sim.url}/_sim/stats`);
    expect(stats.body.faults).toEqual({
      pypi: { "5xx": 1 },
      npm: { rate_limit: 1 },
      github: { malformed: 1 },
      hn: { timeout: 1 },
    });
    await fetch(`${sim.url}/_sim/faults`, { method: "POST", body: JSON.stringify({ rate: 0 }) });
    expect(
      (await fetch(`${sim.url}/github/repos/${repo}`, { headers: { authorization: "token t" } })).status,
    ).toBe(200);
  });

  it("refuses invalid settings with 400 and never faults /_sim/*", async () => {
    sim = await startSimServer({ repos: 50, seed: 5, date: "2026-01-15", faults: settings(1) });
    const bad = await fetchJson(`${sim.url}/_sim/faults`, {
      method: "POST",
      body: JSON.stringify({ rate: -1 }),
    });
    expect(bad).toMatchObject({
      status: 400,
      body: { error: "invalid_parameter", message: "faults.rate must be a number from 0 to 1." },
    });
    for (let n = 0; n < 5; n++) expect((await fetchJson(`${sim.url}/_sim/clock`)).status).toBe(200);
  });
});
