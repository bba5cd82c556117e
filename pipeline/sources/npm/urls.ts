// Where npm lives: the registry (packuments) and the downloads API are different hosts.
import type { CollectContext } from "../types.ts";

export interface NpmUrls {
  npm: string;
  npmDownloads: string;
}

export const npmUrls = (ctx: CollectContext): NpmUrls => ctx.urls;
