#!/usr/bin/env node
// The `projintel` executable: runs the TypeScript sources, so a fresh clone runs after `npm install` without a build
// step (`npm run build` emits dist/ for deployments that want plain JS). Node.js 24.3+ strips the types itself and
// keeps the result in its compile cache; elsewhere, and for the commands below, tsx's loader compiles them.
import module from "node:module";

/**
 * Commands whose modules hold TypeScript that only a compiler runs, not Node's type stripping (parameter properties:
 * the simulator's GraphQL views, the query pool's error). cli/start.test.ts checks every other command's modules
 * strip, and that each command here still needs the compiler.
 */
const COMPILED_COMMANDS = new Set(["sim", "serve", "mcp", "demo"]);

// Node.js 22.1+ keeps V8's compiled code of the modules it loads on disk (the OS temp folder, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), keyed by each module's content, so a changed
// file is compiled afresh and never runs stale: each command starts sooner from its second run on (docs/cli.md).
// Node.js 20 has no such cache; the call is skipped there.
const cache = module.enableCompileCache?.();
if (!stripsFromCache(cache) || COMPILED_COMMANDS.has(process.argv[2] ?? "")) {
  // tsx's loader costs each start about 0.45 s of CPU on Node.js 20 (its hooks run on a thread of their own) and
  // 0.25 s on 24, where stripping is part of Node's own load
  const { register } = await import("tsx/esm/api");
  register();
}
await import("../cli/main.ts");

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
