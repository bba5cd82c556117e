// Test runner configuration: unit tests sit next to code, cross-module tests live in test/.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**", "var/**"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // Two test files at once even on a 2-core machine (vitest's default there is one): most files wait on child
    // processes, sockets and DuckDB rather than the CPU, so the suite takes about 500 s instead of about 850 s.
    maxWorkers: 2,
  },
});
