import { measure } from 'mitata';
import { median } from './format';

/**
 * How long one call of each function takes (median, in nanoseconds), measured by mitata
 * in interleaved rounds.
 *
 * The machine is shared (2 cores, other work comes and goes), so the functions of one
 * comparison are not measured one after the other: each round measures every one of
 * them briefly, in a rotating order, and the result is the median over the rounds of
 * mitata's per-round median. A burst of background load then hits all sides of a
 * ratio alike instead of one of them.
 *
 * mitata itself warms up with a couple of calls only, which would leave a function that
 * takes 100 µs in the interpreter for much of a short measurement: every function
 * first runs for a fixed time, long enough for TurboFan to optimize what it will.
 */
export async function compare<K extends string>(
  fns: Readonly<Record<K, () => unknown>>,
  options: { readonly quick: boolean; readonly slow?: boolean },
): Promise<Record<K, number>> {
  const names = Object.keys(fns) as K[];
  const slow = options.slow === true;
  const rounds = options.quick ? (slow ? 3 : 5) : 15;
  const perCall = {} as Record<K, number>;
  for (const name of names) {
    // A slow call is itself a loop of 100k predicate calls: a few are enough to optimize it.
    const until = performance.now() + (slow ? 0 : options.quick ? 100 : 400);
    let calls = 0;
    let t0 = performance.now();
    for (; calls < (slow ? 3 : 10) || performance.now() < until; calls++) {
      if (calls === 2) t0 = performance.now();
      fns[name]();
    }
    perCall[name] = ((performance.now() - t0) * 1e6) / Math.max(1, calls - 2);
  }
  globalThis.gc?.();
  const samples = Object.fromEntries(names.map((n) => [n, [] as number[]])) as Record<K, number[]>;
  for (let r = 0; r < rounds; r++) {
    // Passes over 100k items are sensitive to the heap's state: after other code left
    // garbage behind, the same pass measured up to 2x slower until a full GC. Every round
    // of slow cases starts from a collected heap.
    if (slow) globalThis.gc?.();
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      const stats = await measure(fns[name], {
        gc: false,
        min_cpu_time: (options.quick ? 15 : 60) * 1e6,
        // A slow case is a pass over 100k items: a few calls per round are enough.
        min_samples: slow ? (options.quick ? 1 : 2) : 12,
        // mitata batches 4096 calls per sample below 65 µs a call, which makes 12 samples
        // of a 7 µs function take 0.4 s: batches are sized to about 0.2 ms instead.
        batch_samples: Math.max(4, Math.min(4096, 4 * Math.round(50_000 / perCall[name]))),
      });
      samples[name].push(stats.p50);
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(samples[n])])) as Record<K, number>;
}

/** Keeps results alive so that the JIT cannot drop the work that made them. */
export let sink = 0;
export function consume(value: unknown): void {
  sink = (sink + (typeof value === 'number' ? value : value === undefined ? 0 : 1)) | 0;
}
