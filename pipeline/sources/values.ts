// Small value conversions shared by the connectors' toRows functions.

/**
 * A timestamp as UTC ISO 8601. DuckDB drops a zone offset when it reads a TIMESTAMP from JSON, so anything
 * not already in UTC ("Z") is converted here; UTC strings pass untouched to keep their full precision.
 */
export function utc(value: string): string;
export function utc(value: string | null | undefined): string | null;
export function utc(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value.endsWith("Z")) return value;
  return new Date(value).toISOString();
}

/** An optional text where "" means absent, as GitHub and PyPI both send it. */
export function text(value: string | null | undefined): string | null {
  return value === undefined || value === null || value === "" ? null : value;
}
