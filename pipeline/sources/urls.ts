// Where each source lives: the configured public APIs, or — when a simulator is configured — paths under it
// (docs/contracts.md: GitHub at /github, PyPI at /pypi, pypistats at /pypistats). The only place that knows.
import type { Config } from "../core/config.ts";

export interface SourceUrls {
  githubGraphql: string;
  githubRest: string;
  pypi: string;
  pypiStats: string;
  /** True when every base points at the simulator. */
  simulated: boolean;
}

export function sourceUrls(config: Pick<Config, "simUrl" | "github" | "pypi">): SourceUrls {
  const sim = config.simUrl;
  if (sim) {
    return {
      githubGraphql: `${sim}/github/graphql`,
      githubRest: `${sim}/github`,
      pypi: `${sim}/pypi`,
      pypiStats: `${sim}/pypistats`,
      simulated: true,
    };
  }
  return {
    githubGraphql: config.github.graphqlUrl,
    githubRest: config.github.restUrl,
    pypi: config.pypi.url,
    pypiStats: config.pypi.statsUrl,
    simulated: false,
  };
}
