// The example requests `projintel demo` prints once the API answers: routes of the live release, their path and
// query parameters filled with values the release holds (its manifest's examples), so each one returns data.
import { createLocalStorage } from "../core/storage.ts";

/** The routes shown, in this order: a filtered list, a search, one project. */
export const DEMO_EXAMPLE_ROUTES = ["quality", "projects", "project"] as const;

/** Example URLs of DEMO_EXAMPLE_ROUTES against `base`; a route whose parameters the release has no value for is left out. */
export async function exampleUrls(base: string, stateDir: string): Promise<string[]> {
  const [{ ROUTES }, { exampleRequest }, { readManifest, readPointer }] = await Promise.all([
    import("../publish/routes/index.ts"),
    import("../publish/routes-markdown.ts"),
    import("../publish/layout.ts"),
  ]);
  const storage = createLocalStorage(stateDir);
  const pointer = await readPointer(storage);
  const manifest = pointer && (await readManifest(storage, pointer.release_id));
  const urls: string[] = [];
  for (const name of DEMO_EXAMPLE_ROUTES) {
    const route = ROUTES.find((r) => r.name === name);
    if (!route) continue;
    const examples = manifest?.examples[route.name] ?? {};
    let missing = false;
    const request = exampleRequest(route).replace(/<(\w+)>/g, (_, param: string) => {
      const example = examples[param];
      if (example === undefined) missing = true;
      return encodeURIComponent(String(example));
    });
    if (!missing) urls.push(`${base}${request}`);
  }
  return urls;
}
