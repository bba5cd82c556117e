// Test runner configuration: unit tests sit next to code, cross-module tests live in test/.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["**/*.test.ts"],
    exclude: ["node_modules/**", "dist/**", "var/**"],
    // Generous: a limit stops a hung test, it measures nothing. A test that publishes the fixture twice takes about
    // 50 s on a 2-core machine at load 12 (a publish ~24 s), and a busy CI machine must not turn that into a failure.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: "forks",
    // Two test files at once even on a 2-core machine (vitest's default there is one): most files wait on child
    // processes, sockets and DuckDB rather than the CPU, so the suite takes about 500 s instead of about 850 s.
    maxWorkers: 2,
  },
});
