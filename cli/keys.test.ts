// `projintel keys` as an operator runs it: list with today's counts, show, revoke by prefix — never printing a key.
import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServerSecret } from "../api-shim/keys/secret.ts";
import { openKeyStore } from "../api-shim/keys/store.ts";
import { openEmbeddedQuotaStore } from "../api-shim/quota/quota.ts";
import { fixedClock } from "../core/clock.ts";
import { statePaths } from "../core/config.ts";

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "bin", "projintel.js");

let stateDir: string;
let keys: { free: string; email: string };
let prefixes: { free: string; email: string };
beforeAll(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), "cli-keys-"));
  const paths = statePaths({ stateDir });
  const secret = await loadServerSecret(undefined, paths.secret);
  const store = await openKeyStore({
    file: paths.keys,
    secret,
    limits: { free: 1000, email: 10_000 },
    clock: fixedClock("2026-03-02T10:00:00Z"),
  });
  const free = await store.create("free");
  const email = await store.create("email", "ops@example.com");
  keys = { free: free.key, email: email.key };
  prefixes = { free: free.record.prefix, email: email.record.prefix };
  // today's counts as a shim writes them
  const quotas = await openEmbeddedQuotaStore({ file: paths.quotas, secret });
  for (let i = 0; i < 3; i++) quotas.hit(store.quotaKey(email.record), 10_000, new Date());
  await quotas.close();
});
afterAll(() => rm(stateDir, { recursive: true, force: true }));

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [CLI, "keys", ...args, "--state-dir", stateDir], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "" },
    timeout: 30_000,
  });
  const printed = result.stdout + result.stderr;
  for (const key of Object.values(keys)) expect(printed).not.toContain(key.slice(12));
  expect(printed).not.toContain("ops@example.com");
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("projintel keys", () => {
  it("lists keys with their plan, limit, creation, revocation and today's count", () => {
    expect(run("list")).toEqual({
      code: 0,
      stdout: [
        "prefix        plan   daily_limit  created                   revoked  today",
        "------------  -----  -----------  ------------------------  -------  -----",
        `${prefixes.free}  free   1000         2026-03-02T10:00:00.000Z  -        0`,
        `${prefixes.email}  email  10000        2026-03-02T10:00:00.000Z  -        3`,
        "2 keys",
        "",
      ].join("\n"),
      stderr: "",
    });
  });

  it("shows one key by prefix, and says when none matches", () => {
    const shown = run("show", prefixes.email.slice(0, 10));
    expect(shown.code).toBe(0);
    expect(shown.stdout.split("\n").slice(2)).toEqual([
      `${prefixes.email}  email  10000        2026-03-02T10:00:00.000Z  -        3`,
      "1 key",
      "",
    ]);
    expect(run("show", "pis_nothing")).toMatchObject({
      code: 1,
      stderr: "projintel: No key starts with pis_nothing. projintel keys list shows every key's prefix.\n",
    });
  });

  it("revokes a key by prefix, once", async () => {
    const revoked = run("revoke", prefixes.free);
    expect(revoked).toMatchObject({
      code: 0,
      stdout: `Revoked ${prefixes.free} (free plan, created 2026-03-02T10:00:00.000Z).\n`,
    });
    expect(run("revoke", prefixes.free).stdout).toMatch(
      new RegExp(`^${prefixes.free} was already revoked at `),
    );
    const paths = statePaths({ stateDir });
    const store = await openKeyStore({
      file: paths.keys,
      secret: await loadServerSecret(undefined, paths.secret),
      limits: { free: 1000, email: 10_000 },
      clock: fixedClock("2026-03-02T10:00:00Z"),
    });
    expect(store.verify(keys.free)).toBeUndefined();
    expect(store.verify(keys.email)).toMatchObject({ limit: 10_000 });
  });

  it("explains itself in --help", () => {
    const help = spawnSync(process.execPath, [CLI, "keys", "--help"], { encoding: "utf8" });
    expect(help.stdout).toContain("Usage: projintel keys");
    expect(help.stdout).toContain("projintel keys revoke pis_Ab3dE5gH");
  });
});
