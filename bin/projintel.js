#!/usr/bin/env node
// The `projintel` executable: loads the TypeScript sources through tsx, so a fresh clone runs after
// `npm install` without a build step (`npm run build` emits dist/ for deployments that want plain JS).
import module from "node:module";
import { register } from "tsx/esm/api";

// Node.js 22.1+ keeps V8's compiled code of the modules it loads on disk (the OS temp folder, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off), keyed by each module's content, so a changed
// file is compiled afresh and never runs stale: each command starts sooner from its second run on (docs/cli.md).
// Node.js 20 has no such cache; the call is skipped there.
module.enableCompileCache?.();
register();
await import("../cli/main.ts");
