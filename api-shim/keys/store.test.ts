// The key store: durable records without keys or e-mail addresses, lookups by HMAC, revocation seen by another
// process's store, and the server secret made once with mode 0600.
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixedClock } from "../../core/clock.ts";
import { mistyped } from "./keys.testing.ts";
import { keyedHash, loadServerSecret } from "./secret.ts";
import { openKeyStore } from "./store.ts";

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "keys-"));
  file = path.join(dir, "keys.jsonl");
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const SECRET = "s".repeat(64);
const clock = fixedClock("2026-03-02T10:00:00Z");
const open = (refreshMs = 0) =>
  openKeyStore({ file, secret: SECRET, limits: { free: 1000, email: 10_000 }, clock, refreshMs });

describe("key store", () => {
  it("stores only the key's HMAC, its prefix, its plan and a keyed hash of the e-mail address", async () => {
    const store = await open();
    const { key, record } = await store.create("email", "Dev@Example.com");
    expect(record).toEqual({
      hash: keyedHash(SECRET, key),
      prefix: key.slice(0, 12),
      plan: "email",
      created: "2026-03-02T10:00:00.000Z",
      contact: keyedHash(SECRET, "email:dev@example.com"),
    });
    const text = await readFile(file, "utf8");
    expect(text).toBe(`${JSON.stringify({ op: "create", ...record })}\n`);
    expect(text).not.toContain(key);
    expect(text.toLowerCase()).not.toContain("example.com");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it("verifies a key to its plan's quota, and refuses unknown and revoked keys", async () => {
    const store = await open();
    const free = await store.create("free");
    const email = await store.create("email", "a@b.co");
    expect(store.verify(free.key)).toEqual({ quotaKey: `key:${free.record.hash}`, limit: 1000 });
    expect(store.verify(email.key)).toEqual({ quotaKey: `key:${email.record.hash}`, limit: 10_000 });
    expect(store.verify(mistyped(free.key))).toBeUndefined();
    await store.revoke(free.record.hash);
    expect(store.verify(free.key)).toBeUndefined();
    expect(store.list().map((r) => [r.prefix, r.revoked])).toEqual([
      [free.record.prefix, "2026-03-02T10:00:00.000Z"],
      [email.record.prefix, undefined],
    ]);
  });

  it("reads back keys and revocations written by another process's store", async () => {
    const shim = await open();
    const operator = await open();
    const { key, record } = await operator.create("free");
    expect(shim.verify(key)).toBeUndefined(); // this lookup starts the refresh
    await shim.refresh();
    expect(shim.verify(key)).toEqual({ quotaKey: `key:${record.hash}`, limit: 1000 });
    await operator.revoke(record.hash);
    await shim.refresh();
    expect(shim.verify(key)).toBeUndefined();
    // a restart reads everything
    const restarted = await open();
    expect(restarted.list()).toEqual([{ ...record, revoked: "2026-03-02T10:00:00.000Z" }]);
  });

  it("makes the server secret once, mode 0600, and prefers the configured one", async () => {
    const secretFile = path.join(dir, "state", "server-secret");
    const made = await loadServerSecret(undefined, secretFile);
    expect(made).toMatch(/^[0-9a-f]{64}$/);
    expect((await stat(secretFile)).mode & 0o777).toBe(0o600);
    expect(await loadServerSecret(undefined, secretFile)).toBe(made);
    expect(await loadServerSecret("c".repeat(32), secretFile)).toBe("c".repeat(32));
  });
});
