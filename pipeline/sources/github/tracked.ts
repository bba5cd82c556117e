// How long a repository stays tracked without a row, on its own: scoring, shards and state snapshots read it
// without loading the GitHub connector (its HTTP client and schemas), which a `state push` never needs.

/** A repository without a row for this many days stops being tracked (its rows stay in history). */
export const TRACKED_FOR_DAYS = 14;
