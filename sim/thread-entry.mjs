// Worker-thread entry of sim/thread.ts. Run from the sources, the TypeScript loader (tsx) must be registered in
// this thread first; the built dist/ holds plain JavaScript beside this file.
import { existsSync } from "node:fs";

const built = new URL("./thread-worker.js", import.meta.url);
if (existsSync(built)) {
  await import(built.href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("./thread-worker.ts");
}
