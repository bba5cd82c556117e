// How a process started from the sources loads TypeScript: the CLI (bin/projintel.js) and the query workers it forks
// (api-shim/query/worker-entry.mjs). Plain JavaScript, since it decides how the TypeScript is run. Node.js 24.3+
// strips the types itself and keeps the result in its compile cache; elsewhere tsx's loader compiles them.
import module from "node:module";

/**
 * Turns on Node.js 22.1+'s compile cache (a no-op on Node.js 20) and, unless Node strips the types from that cache
 * itself, registers tsx's loader: `compiled` asks for tsx everywhere, for modules that hold TypeScript only a compiler
 * runs (parameter properties, enums, namespaces).
 *
 * The cache keeps V8's compiled code of each module on disk (the OS temp folder, or NODE_COMPILE_CACHE), keyed by the
 * module's content, so a changed file is compiled afresh and never runs stale; NODE_DISABLE_COMPILE_CACHE=1 turns it
 * off, and with it Node's stripping.
 */
export async function loadSources({ compiled = false } = {}) {
  const cache = module.enableCompileCache?.();
  if (!compiled && stripsFromCache(cache)) return;
  // tsx's loader costs each start about 0.45 s of CPU on Node.js 20 (its hooks run on a thread of their own) and
  // 0.25 s on 24, where stripping is part of Node's own load
  const { register } = await import("tsx/esm/api");
  register();
}

/**
 * Whether Node.js strips the types itself, silently and from its compile cache: 24.3+ (before, the first module
 * stripped printed a warning on stderr, which tests and scripts read). Node.js 22 strips every module afresh at each
 * start, and so does 24 with the cache off: dearer than tsx, whose own cache keeps its output.
 */
function stripsFromCache(cache) {
  const status = module.constants?.compileCacheStatus;
  if (!process.features.typescript || !cache || !status) return false;
  if (cache.status !== status.ENABLED && cache.status !== status.ALREADY_ENABLED) return false;
  const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
  return major > 24 || (major === 24 && minor >= 3);
}
