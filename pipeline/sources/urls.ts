// Where each source lives: the configured public APIs, or — when a simulator is configured — paths under it
// (docs/contracts.md: each source under its own prefix, e.g. /github, /pypi, /npm). The only place that knows.
import type { Config } from "../../core/config.ts";

export interface SourceUrls {
  githubGraphql: string;
  githubRest: string;
  pypi: string;
  pypiStats: string;
  npm: string;
  npmDownloads: string;
  dockerhub: string;
  huggingface: string;
  hackernews: string;
  arxiv: string;
  /** True when every base points at the simulator. */
  simulated: boolean;
}

export function sourceUrls(
  config: Pick<
    Config,
    "simUrl" | "github" | "pypi" | "npm" | "dockerhub" | "huggingface" | "hackernews" | "arxiv"
  >,
): SourceUrls {
  const sim = config.simUrl;
  if (sim) {
    return {
      githubGraphql: `${sim}/github/graphql`,
      githubRest: `${sim}/github`,
      pypi: `${sim}/pypi`,
      pypiStats: `${sim}/pypistats`,
      npm: `${sim}/npm`,
      npmDownloads: `${sim}/npm-downloads`,
      dockerhub: `${sim}/dockerhub`,
      huggingface: `${sim}/huggingface`,
      hackernews: `${sim}/hn`,
      arxiv: `${sim}/arxiv`,
      simulated: true,
    };
  }
  return {
    githubGraphql: config.github.graphqlUrl,
    githubRest: config.github.restUrl,
    pypi: config.pypi.url,
    pypiStats: config.pypi.statsUrl,
    npm: config.npm.registryUrl,
    npmDownloads: config.npm.downloadsUrl,
    dockerhub: config.dockerhub.url,
    huggingface: config.huggingface.url,
    hackernews: config.hackernews.url,
    arxiv: config.arxiv.url,
    simulated: false,
  };
}
