// How a result value becomes JSON: DuckDB's own JSON conversion, with whole numbers kept as numbers when exact.
import {
  type DuckDBType,
  DuckDBTypeId,
  type DuckDBValueConverter,
  type Json,
  JsonDuckDBValueConverter,
} from "@duckdb/node-api";

const WIDE_INTEGERS = new Set([
  DuckDBTypeId.BIGINT,
  DuckDBTypeId.UBIGINT,
  DuckDBTypeId.HUGEINT,
  DuckDBTypeId.UHUGEINT,
]);

/**
 * JSON values: DuckDB's JSON conversion, except that 64- and 128-bit integers (count(*), sum()) and decimals
 * become numbers when exact, since callers expect `"count": 3`, not `"3"`; larger ones stay strings.
 */
export const jsonValue: DuckDBValueConverter<Json> = (value, type: DuckDBType, converter) => {
  if (value !== null && WIDE_INTEGERS.has(type.typeId)) {
    const n = BigInt(String(value));
    return n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER)
      ? Number(n)
      : n.toString();
  }
  if (value !== null && type.typeId === DuckDBTypeId.DECIMAL) return Number(String(value));
  return JsonDuckDBValueConverter(value, type, converter);
};
