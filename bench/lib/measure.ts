import { measure } from 'mitata';

/**
 * Median time of one call of `fn`, in nanoseconds. mitata warms up with a couple of
 * calls only, which leaves a function that takes 100 µs running in the interpreter for
 * much of a short measurement; so `fn` first runs for a fixed time (long enough for
 * TurboFan to have optimized what it will), then mitata measures (batched samples until
 * `min_cpu_time` is spent). Quick runs warm up and measure for less: their medians are
 * noisier, never differently defined.
 */
export async function medianNs(fn: () => unknown, options: { quick: boolean; slow?: boolean }): Promise<number> {
  const warmupUntil = performance.now() + (options.quick ? 150 : 600);
  for (let calls = 0; calls < 20 || performance.now() < warmupUntil; calls++) fn();
  const stats = await measure(fn, {
    min_cpu_time: (options.quick ? 150 : 1000) * 1e6,
    // One call of a slow case is a pass over 100k items: a few samples are enough.
    min_samples: options.slow === true ? (options.quick ? 4 : 10) : 12,
  });
  return stats.p50;
}

/** Keeps results alive so that the JIT cannot drop the work that made them. */
export let sink = 0;
export function consume(value: unknown): void {
  sink = (sink + (typeof value === 'number' ? value : value === undefined ? 0 : 1)) | 0;
}
