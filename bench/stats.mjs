/** Small statistics helpers for the benchmarks: medians with min and max, percentiles. */

export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1], n: sorted.length };
}

export function percentile(sortedValues, p) {
  if (!sortedValues.length) return NaN;
  const i = Math.min(sortedValues.length - 1, Math.max(0, Math.ceil((p / 100) * sortedValues.length) - 1));
  return sortedValues[i];
}

export const fmt = (n, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
export const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(2)}×` : 'n/a');

/** Division that reads as "no figure" rather than Infinity when the divisor is missing. */
export const div = (a, b) => (b > 0 ? a / b : NaN);
/** median (min–max) of a summarize() result. */
export const range = (s, d = 1) => `${fmt(s.median, d)} (${fmt(s.min, d)}–${fmt(s.max, d)})`;
export const fx = (r) => (Number.isFinite(r) ? `${r.toFixed(2)}×` : 'n/a');
export const pct = (r) => (Number.isFinite(r) ? `${(r * 100).toFixed(0)} %` : 'n/a');
export const kfmt = (n) => (n >= 1000 ? `${n / 1000}k` : String(n));

/** The figures the targets and the report both start from: CLI timings, sizes, the write runs. */
export function keyFigures(results, SIZES, CONNS) {
  return {
    c: results.cli,
    small: SIZES[0],
    big: SIZES[SIZES.length - 1],
    w50: results.writes[CONNS],
    w1: results.writes[1],
    ads: results.adsWrites,
  };
}
