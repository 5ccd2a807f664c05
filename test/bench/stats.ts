// Order statistics of a sample: benchmarks report medians and 95th percentiles, never means, because a
// shared 2-core machine produces outliers that a mean would smear over every figure.

/** The p-th percentile (0..100) by linear interpolation between the closest ranks. */
export function percentile(values: readonly number[], p: number): number {
    if (values.length === 0) throw new Error("percentile of an empty sample");
    const sorted = [...values].sort((a, b) => a - b);
    const rank = (p / 100) * (sorted.length - 1);
    const lower = Math.floor(rank);
    const upper = Math.ceil(rank);
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (rank - lower);
}

export function median(values: readonly number[]): number {
    return percentile(values, 50);
}

export function max(values: readonly number[]): number {
    if (values.length === 0) throw new Error("max of an empty sample");
    return Math.max(...values);
}

/** Rounds for display and for the JSON document (sub-0.01 precision is noise here). */
export function round(value: number, digits = 2): number {
    const factor = 10 ** digits;
    return Math.round(value * factor) / factor;
}
