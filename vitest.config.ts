// Test runner configuration: unit tests sit next to code, cross-module tests live in test/. Two projects: the unit
// tests share a worker's loaded modules between files, the cross-module tests and the files listed below do not.
import { defineConfig } from "vitest/config";

const EXCLUDE = ["node_modules/**", "dist/**", "var/**"];

/**
 * The files that get a fresh process each (vitest's `isolate`); every other test file shares its worker's process and
 * loaded modules with the files that worker ran before it (`isolate: false`), which saves each of the ~220 unit files
 * a process start and the import of its module graph (zod, DuckDB, Fastify, the AWS SDK), about a second each here.
 * The rule: a file is isolated when it lives in test/ (the cross-module tests: real servers, child processes,
 * browsers, s3rver and nginx, a process's whole life per file), or when it changes process-wide state it does not put
 * back (environment variables, the working directory, globals, fake timers, process listeners) or asserts on state
 * another file could change (the process's own memory, its open handles). Each file listed here says why. A unit file
 * that does any of these belongs in this list; `vi.spyOn` needs no entry (vitest restores mocks after every file).
 */
const ISOLATED = [
  "test/**/*.test.ts",
  // asserts the process's own RSS stays under 300 MiB while a query is stopped (186 MiB alone): in a shared worker the
  // RSS would include every module and buffer the files before it left
  "api-shim/query/pool.test.ts",
];

export default defineConfig({
  test: {
    // Generous: a limit stops a hung test, it measures nothing. A test that publishes the fixture twice takes about
    // 50 s on a 2-core machine at load 12 (a publish ~24 s), and a busy CI machine must not turn that into a failure.
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: "forks",
    // Two test files at once even on a 2-core machine (vitest's default there is one): most files wait on child
    // processes, sockets and DuckDB rather than the CPU, so the suite takes about 500 s instead of about 850 s.
    maxWorkers: 2,
    // vitest queues one project's files after the other's, in name order: "isolated" (the longest files) first, so
    // the shared project's many short files fill both workers at the end.
    projects: [
      { extends: true, test: { name: "isolated", include: ISOLATED, exclude: EXCLUDE, isolate: true } },
      {
        extends: true,
        test: {
          name: "shared",
          include: ["**/*.test.ts"],
          exclude: [...EXCLUDE, ...ISOLATED],
          isolate: false,
        },
      },
    ],
  },
});
