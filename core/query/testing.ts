// Queries the tests of the runner, POST /api/v1/query and MCP run_query share.

/**
 * A struct nested `levels` times over a field name of `keyLength` characters, with no row: its column type alone is
 * about 2^levels × keyLength bytes (an attacker's answer of megabytes that the row caps never see).
 */
export function nestedStructSql(levels: number, keyLength = 1000): string {
  const nested = Array.from(
    { length: levels },
    (_, i) => `t${i + 1} AS (SELECT {'a': s, 'b': s} AS s FROM t${i})`,
  ).join(", ");
  return `WITH t0 AS (SELECT {'${"k".repeat(keyLength)}': 1} AS s), ${nested} SELECT s FROM t${levels} WHERE false`;
}
