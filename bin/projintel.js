#!/usr/bin/env node
// The `projintel` executable: loads the TypeScript sources through tsx, so a fresh clone runs after
// `npm install` without a build step (`npm run build` emits dist/ for deployments that want plain JS).
import { register } from "tsx/esm/api";

register();
await import("../cli/main.ts");
