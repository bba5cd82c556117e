// Axes for the charts: "nice" tick values covering a range of data, and short labels for counts.

/** Up to about `count` round tick values (1, 2 or 5 times a power of ten apart) covering min..max. */
export function niceTicks(min: number, max: number, count = 4): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max) || max < min) {
    throw new RangeError(`ticks need finite min <= max, got ${min} and ${max}`);
  }
  if (max === min) return [min];
  const rough = (max - min) / count;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= rough) as number;
  // integer multiples of the step, rounded to its decimals, so 0.05 steps do not drift into 0.15000000000000002
  const decimals = Math.max(0, -Math.floor(Math.log10(step)));
  const ticks: number[] = [];
  for (let k = Math.floor(min / step); k <= Math.ceil(max / step); k++) {
    ticks.push(Number((k * step).toFixed(decimals)));
  }
  return ticks;
}

/** A count in at most four characters and a suffix: 999, 1.2k, 35k, 1.2M, 3.4B. */
export function formatCompact(n: number): string {
  const sign = n < 0 ? "-" : "";
  const a = Math.abs(n);
  const units: [number, string][] = [
    [1e9, "B"],
    [1e6, "M"],
    [1e3, "k"],
  ];
  for (const [size, suffix] of units) {
    if (a >= size) {
      const v = a / size;
      return `${sign}${v >= 10 ? Math.round(v) : Math.round(v * 10) / 10}${suffix}`;
    }
  }
  return `${sign}${Number.isInteger(a) ? a : Math.round(a * 10) / 10}`;
}
