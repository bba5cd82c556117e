// A shim for the quota-store benchmark: `projintel serve` with the quota store named on the command line, `none`
// being a no-op store (the store-less baseline). Usage: node --import tsx bench/quota-shim.ts STATE_DIR none|embedded|redis
// (Redis from PROJINTEL_REDIS__URL) — prints "listening on URL", stops on SIGTERM.

import type { QuotaStore } from "../api-shim/quota/quota.ts";
import { startServer } from "../api-shim/server.ts";
import { nextUtcMidnight } from "../core/clock.ts";
import { loadConfig } from "../core/config.ts";

const [stateDir, store] = process.argv.slice(2) as [string, "none" | "embedded" | "redis"];
/** Counts nothing: every request is the caller's first of the day. */
const noQuota: QuotaStore = {
  hit: (_key, limit, now) => ({ limit, count: 1, remaining: limit - 1, resetAt: nextUtcMidnight(now) }),
  hitOnce: (_key, _item, limit, now) => ({
    limit,
    count: 1,
    remaining: limit - 1,
    resetAt: nextUtcMidnight(now),
  }),
  peek: (_key, limit, now) => ({ limit, count: 0, remaining: limit, resetAt: nextUtcMidnight(now) }),
  close: async () => {},
};
const config = loadConfig({
  env: process.env,
  overrides: {
    stateDir,
    port: 0,
    logLevel: "warn",
    quota: { anonymous: 1_000_000_000, store: store === "redis" ? "redis" : "embedded" },
  },
});
const server = await startServer({ config, ...(store === "none" ? { quotas: noQuota } : {}) });
process.stdout.write(`listening on ${server.url}\n`);
process.on("SIGTERM", () => void server.close().then(() => process.exit(0)));
