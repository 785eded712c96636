import type { Filter } from 'qsfilter';
import type { Page } from './store';

/**
 * The work a find asks of the database, in rough units, from the checked filter alone
 * (before it runs): each test on an item's own field 1, each test on a child array's
 * elements 4 (every element of every item is tested), each sort key 2 (the matches are
 * sorted by values read out of the JSON), every 50 items of the page 1 (each is sent).
 * The example requests cost 2 to 12; the heavy query of issue 26 (48 child-array
 * parameters of 8 to 14 patterns, six sort keys, 500 items) about 2,000.
 */
export function queryCost(filter: Filter | undefined, page: Page): number {
  let cost = Math.ceil(page.limit / 50);
  for (const condition of filter?.conditions ?? []) cost += condition.tests.length * (condition.array === undefined ? 1 : 4);
  return cost + 2 * (filter?.sort.length ?? 0);
}

/** A find that costs more than this (`queryCost`) is heavy: it goes through the gate's heavy lane. */
export const HEAVY_COST = 40;

/**
 * Keeps heavy queries from taking the database from the others (SPEC §14.4): the
 * decision of issue 26, made here. Moving PGlite off the event loop (worker.ts) keeps
 * the 400s fast, but the embedded database still runs one query at a time: five clients
 * repeating a heavy query would hold it nearly all the time. So heavy queries pass one
 * at a time, and after one that held the database for d ms the next waits 2d ms, in
 * which only cheap queries run: heavy work gets at most a third of the database's time
 * while cheap work is waiting, and cheap queries never wait for the gate. A heavy query
 * waits its turn rather than failing (none is refused for being heavy; the statement
 * timeout bounds each one's own running time). The same gate stands before a Postgres
 * server's pool, where it bounds heavy queries to one connection of the pool.
 */
export class HeavyGate {
  readonly #waiting: (() => void)[] = [];
  #busy = false;
  #openAt = 0;
  #timer: NodeJS.Timeout | undefined;

  /** Runs `task`, at once when it is cheap, in the heavy lane's turn when it is heavy. */
  async run<T>(heavy: boolean, task: () => Promise<T>): Promise<T> {
    if (!heavy) return task();
    await this.#turn();
    const started = performance.now();
    try {
      return await task();
    } finally {
      const held = performance.now() - started;
      this.#openAt = performance.now() + 2 * held;
      this.#busy = false;
      this.#wake();
    }
  }

  #turn(): Promise<void> {
    return new Promise((resolve) => {
      this.#waiting.push(resolve);
      this.#wake();
    });
  }

  #wake(): void {
    if (this.#busy || this.#waiting.length === 0) return;
    const wait = this.#openAt - performance.now();
    if (wait > 0) {
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.#wake();
      }, wait);
      return;
    }
    this.#busy = true;
    this.#waiting.shift()!();
  }
}
