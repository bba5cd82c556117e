// Entry of a query worker process (forked by worker-process.ts). Run from the sources, the TypeScript loader
// (tsx) is registered first; the built dist/ holds plain JavaScript beside this file.
import { existsSync } from "node:fs";

const built = new URL("./worker.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./worker.ts");
}
