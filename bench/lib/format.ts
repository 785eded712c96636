/** Number formatting shared by the scenarios, so every table reads the same way. */

/** A duration in nanoseconds, with a unit that keeps 3 significant digits. */
export function duration(ns: number): string {
  if (ns < 1e3) return `${ns.toPrecision(3)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

/** A ratio as `3.21x`. */
export function times(ratio: number): string {
  return `${ratio < 10 ? ratio.toFixed(2) : ratio.toPrecision(3)}x`;
}

/** A byte count, binary units. */
export function bytes(n: number): string {
  if (Math.abs(n) < 1024) return `${Math.round(n)} B`;
  if (Math.abs(n) < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** The geometric mean: the fair average of ratios. */
export function geomean(values: readonly number[]): number {
  return Math.exp(values.reduce((s, v) => s + Math.log(v), 0) / values.length);
}

/** The median of a list (not modified). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
