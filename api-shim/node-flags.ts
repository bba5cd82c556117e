// The Node.js flags a shim is started with: package.json's start script, the serving command of docs/production.md
// and the benchmarks all give them (api-shim/node-flags.test.ts checks the first two).
//
// --min-semi-space-size=16 keeps V8's young generation at 16 MB, the size a busy shim grows it to. Without a floor V8
// shrinks it to 1 MB when the process is idle for a few seconds (its memory reducer), and under a server's load it
// never grows it back: a request's objects die young, and V8 grows the young generation only when many survive. The
// shim then scavenges five times as often, and each request cost 20% more CPU for the rest of the process's life
// (measured on /api/v1/quality?domain=rag, 22 KB: 18-19 µs before a 10-second idle spell, 22-26 µs after; with the
// floor, no change). It cannot be set from inside the process (V8 sizes the heap before any JavaScript runs) nor
// through NODE_OPTIONS, which Node.js 20 to 24 refuse it in.
//
// --no-memory-reducer keeps V8 from collecting the whole heap to shrink it after an idle spell (about 8 s after the
// last full collection while allocation is low, two or three in a row). A server that has been through those serves
// about a fifth slower for the rest of its life, while an identical process beside it, loaded the same way, does not:
// measured with node:http itself sending a 4.5-KB page beside a shim, the two loaded in turn a second at a time with
// pauses of about 20 s, the shim's throughput against it went from 0.90-1.03 to 1.11-1.37 right after node:http's
// first memory-reducing collection, in two runs out of two; with the flag on both, 0.82-1.09 all along. A shim keeps
// its heap's size through a quiet hour instead (tens of MB).
export const SHIM_NODE_FLAGS = ["--min-semi-space-size=16", "--no-memory-reducer"] as const;
