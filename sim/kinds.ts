// The trajectory kinds of a repository (index order is stored in RepoParams.kind), in a file of their own so
// modules that decide a kind (repo-params.ts, popular.ts) and those that read it share one definition.
export const TRAJECTORIES = ["rising", "steady", "fading", "dormant", "finished"] as const;
export type Trajectory = (typeof TRAJECTORIES)[number];
export const RISING = 0;
export const STEADY = 1;
export const FADING = 2;
export const DORMANT = 3;
export const FINISHED = 4;
