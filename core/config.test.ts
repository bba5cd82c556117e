// Config: defaults, PROJINTEL_* overrides with `__` nesting, flag precedence, and errors naming the variable.
import { describe, expect, it } from "vitest";
import { envOverrides, loadConfig, statePaths } from "./config.ts";
import { ConfigError } from "./errors.ts";

describe("loadConfig", () => {
  it("fills every default", () => {
    const config = loadConfig({ env: {} });
    expect(config.stateDir).toBe("var");
    expect(config.port).toBe(8787);
    expect(config.host).toBe("127.0.0.1");
    expect(config.quota).toEqual({
      anonymous: 100,
      free: 1000,
      email: 10_000,
      keyCreations: 10,
      store: "embedded",
    });
    expect(config.redis).toEqual({ url: "redis://127.0.0.1:6379", commandTimeoutMs: 500 });
    expect(config.serverSecret).toBeUndefined();
    expect(config.trustProxyHops).toBe(0);
    expect(config.simUrl).toBeUndefined();
    expect(config.github.tokens).toEqual([]);
    expect(config.publish.minShareOfPrevious).toBe(0.9);
    expect(config.warehouseMemoryLimit).toBe("1GB");
  });

  it("makes the release's links point where serve listens unless PROJINTEL_PUBLISH__BASE_URL says otherwise", () => {
    const baseUrl = (env: Record<string, string>) => loadConfig({ env }).publish.baseUrl;
    expect(baseUrl({})).toBe("http://localhost:8787");
    expect(baseUrl({ PROJINTEL_PORT: "8899" })).toBe("http://localhost:8899");
    expect(baseUrl({ PROJINTEL_HOST: "0.0.0.0", PROJINTEL_PORT: "9000" })).toBe("http://localhost:9000");
    expect(baseUrl({ PROJINTEL_HOST: "10.0.0.5" })).toBe("http://10.0.0.5:8787");
    expect(baseUrl({ PROJINTEL_HOST: "fd00::5" })).toBe("http://[fd00::5]:8787");
    expect(baseUrl({ PROJINTEL_PORT: "8899", PROJINTEL_PUBLISH__BASE_URL: "https://api.example.org/" })).toBe(
      "https://api.example.org",
    );
    expect(() => loadConfig({ env: { PROJINTEL_PUBLISH__BASEURL: "https://api.example.org" } })).toThrow(
      "Unknown setting PROJINTEL_PUBLISH__BASEURL.",
    );
  });

  it("reads nested overrides from the environment", () => {
    const config = loadConfig({
      env: {
        PROJINTEL_QUOTA__ANONYMOUS: "5",
        PROJINTEL_QUOTA__FREE: "50",
        PROJINTEL_QUOTA__EMAIL: "500",
        PROJINTEL_PORT: "9999",
        PROJINTEL_STATE_DIR: "/tmp/state",
        PROJINTEL_SIM_URL: "http://127.0.0.1:9000/",
        PROJINTEL_GITHUB__TOKENS: "t1, t2,,t3",
        PROJINTEL_HTTP__TIMEOUT_MS: "1500",
        PROJINTEL_PUBLISH__CANONICAL_PAGES: "false",
        HOME: "/root",
      },
    });
    expect(config.quota).toMatchObject({ anonymous: 5, free: 50, email: 500 });
    expect(config.port).toBe(9999);
    expect(config.stateDir).toBe("/tmp/state");
    expect(config.simUrl).toBe("http://127.0.0.1:9000");
    expect(config.github.tokens).toEqual(["t1", "t2", "t3"]);
    expect(config.http.timeoutMs).toBe(1500);
    expect(config.publish.canonicalPages).toBe(false);
  });

  it("lets explicit overrides (flags) win over the environment", () => {
    const config = loadConfig({
      env: { PROJINTEL_PORT: "9999" },
      overrides: { port: 1234, quota: { free: 7 } },
    });
    expect(config.port).toBe(1234);
    expect(config.quota).toMatchObject({ anonymous: 100, free: 7, email: 10_000 });
  });

  it.each([
    [{ PROJINTEL_QUOTA__ANONYMOUS: "-5" }, "Invalid setting PROJINTEL_QUOTA__ANONYMOUS"],
    [{ PROJINTEL_QUOTA__ANONYMOUS: "2.5" }, "Invalid setting PROJINTEL_QUOTA__ANONYMOUS"],
    [{ PROJINTEL_PORT: "abc" }, "Invalid setting PROJINTEL_PORT"],
    [{ PROJINTEL_PORT: "70000" }, "Invalid setting PROJINTEL_PORT"],
    [{ PROJINTEL_SIM_URL: "not a url" }, "Invalid setting PROJINTEL_SIM_URL"],
    [{ PROJINTEL_LOG_LEVEL: "loud" }, "Invalid setting PROJINTEL_LOG_LEVEL"],
    [{ PROJINTEL_WAREHOUSE_MEMORY_LIMIT: "lots" }, "Invalid setting PROJINTEL_WAREHOUSE_MEMORY_LIMIT"],
    [{ PROJINTEL_QUOTA__STORE: "memcached" }, "Invalid setting PROJINTEL_QUOTA__STORE"],
    [{ PROJINTEL_REDIS__URL: "http://127.0.0.1:6379" }, "Invalid setting PROJINTEL_REDIS__URL"],
    [{ PROJINTEL_SERVER_SECRET: "short" }, "Invalid setting PROJINTEL_SERVER_SECRET"],
    [{ PROJINTEL_QUOTA__ANON: "5" }, "Unknown setting PROJINTEL_QUOTA__ANON"],
    [{ PROJINTEL_COLOUR: "red" }, "Unknown setting PROJINTEL_COLOUR"],
  ])("rejects %o with a message naming the variable", (env, message) => {
    expect(() => loadConfig({ env })).toThrow(ConfigError);
    expect(() => loadConfig({ env })).toThrow(message);
  });

  it("maps variable names to nested keys", () => {
    expect(envOverrides({ PROJINTEL_HTTP__PER_HOST_CONCURRENCY: "4", OTHER: "x" })).toEqual({
      http: { perHostConcurrency: "4" },
    });
  });

  it("puts every state file under the state folder", () => {
    const paths = statePaths({ stateDir: "/srv/pi" });
    expect(paths).toMatchObject({
      root: "/srv/pi",
      warehouse: "/srv/pi/warehouse.duckdb",
      releases: "/srv/pi/releases",
      quotas: "/srv/pi/quotas.jsonl",
      quotaLock: "/srv/pi/quotas.lock",
      keys: "/srv/pi/keys.jsonl",
      secret: "/srv/pi/server-secret",
    });
  });
});
