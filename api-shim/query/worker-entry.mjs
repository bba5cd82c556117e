// Entry of a query worker process (forked by worker-process.ts). Run from the sources, the TypeScript is loaded as
// the CLI's is (core/load-sources.mjs: Node's own type stripping on 24.3+, else tsx); the built dist/ holds plain
// JavaScript beside this file.
import { existsSync } from "node:fs";

const built = new URL("./worker.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { loadSources } = await import("../../core/load-sources.mjs");
  await loadSources();
  await import("./worker.ts");
}
