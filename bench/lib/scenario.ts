/**
 * What a scenario file (`bench/*.bench.ts`) hands the runner: tables of medians and
 * ratios, and the goals it measured. A scenario runs in its own process (see
 * `child.ts`), so the JIT state one leaves behind cannot flatter or hurt the next.
 */

/** One table of results: the runner prints it, and writes it to RESULTS.md with `--write`. */
export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: readonly (readonly string[])[];
  readonly notes?: readonly string[];
}

/** One goal of `bench/RESULTS.md`, measured: `pass` is what the runner prints as PASS or MISS. */
export interface Goal {
  readonly goal: string;
  readonly target: string;
  readonly actual: string;
  readonly pass: boolean;
}

export interface Report {
  readonly tables: readonly Table[];
  readonly goals: readonly Goal[];
  readonly notes?: readonly string[];
}

export interface RunOptions {
  /** `npm run bench -- --quick`: fewer samples and spawns, same checks. */
  readonly quick: boolean;
}

export interface Scenario {
  readonly name: string;
  readonly title: string;
  run(options: RunOptions): Promise<Report>;
}

/** Marks a bench file's default export as a scenario the runner can drive. */
export function defineScenario(scenario: Scenario): Scenario {
  return scenario;
}

/**
 * Both sides of a comparison gave different answers: the timing would compare a wrong
 * result with a right one, so the whole run stops.
 */
export class Mismatch extends Error {
  override readonly name = 'Mismatch';
}

/** Throws `Mismatch` unless the two values are deeply equal (as JSON, keys sorted). */
export function assertSame(what: string, expected: unknown, actual: unknown): void {
  const a = canonical(expected);
  const b = canonical(actual);
  if (a !== b) throw new Mismatch(`${what}\n  expected: ${a.slice(0, 600)}\n  actual:   ${b.slice(0, 600)}`);
}

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}
