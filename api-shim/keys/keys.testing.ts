// Test helper for keys: a key with its last character changed (always to another one, so the result is never the key).

/** `key` with its last character replaced by a different one: a key of the right shape whose checksum fails. */
export function mistyped(key: string): string {
  return `${key.slice(0, -1)}${key.endsWith("x") ? "y" : "x"}`;
}
