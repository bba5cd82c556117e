#!/usr/bin/env node
// The `projintel` executable: runs the TypeScript sources, so a fresh clone runs after `npm install` without a build
// step (`npm run build` emits dist/ for deployments that want plain JS). How the sources load: core/load-sources.mjs
// (Node.js 24.3+ strips the types itself; elsewhere, and for the commands below, tsx's loader compiles them).
import { loadSources } from "../core/load-sources.mjs";

/**
 * Commands whose modules hold TypeScript that only a compiler runs, not Node's type stripping (parameter properties:
 * the simulator's GraphQL views). cli/start.test.ts checks every other command's modules strip, and that each command
 * here still needs the compiler.
 */
const COMPILED_COMMANDS = new Set(["sim"]);

await loadSources({ compiled: COMPILED_COMMANDS.has(process.argv[2] ?? "") });
await import("../cli/main.ts");
