import type { Filter } from 'qsfilter';
import { StoreUnavailable, type Page } from './store';
import { QUERY_CANCELED } from './worker';

/**
 * The work a find asks of the database, in rough units, from the checked filter alone
 * (before it runs): each test on an item's own field 1, each test on a child array's
 * elements 4 (every element of every item is tested), each sort key 2 (the matches are
 * sorted by values read out of the JSON), every 50 items of the page 1 (each is sent).
 * The example requests cost 2 to 12; the heavy query of issue 26 (`HEAVY_REQUEST`: 34
 * child-array parameters of 8 to 14 patterns, six sort keys and the cursor's, 500 items)
 * 1,508.
 */
export function queryCost(filter: Filter | undefined, page: Page): number {
  let cost = Math.ceil(page.limit / 50);
  for (const condition of filter?.conditions ?? []) cost += condition.tests.length * (condition.array === undefined ? 1 : 4);
  return cost + 2 * (filter?.sort.length ?? 0);
}

/** Work that costs more than this (`queryCost`) is heavy: it waits in the heavy lane. */
export const HEAVY_COST = 40;

/**
 * The longest a piece of work waits for its turn, by lane: past it, it is refused as
 * busy. A cheap query then runs for milliseconds, so it is answered within 2 s; a heavy
 * one may run up to the statement timeout (2 s by default), so it is answered within 9
 * s, and the app answers within 10 s in any case (the store's `answerTimeoutMs`; SPEC
 * §14.4: 2 s and 12 s, whatever the load).
 */
export const MAX_WAIT_MS = { cheap: 1500, heavy: 7000 } as const;

/**
 * `QUEUE_LENGTH` and `HEAVY_QUEUE_LENGTH` when unset. The few clients of SPEC §14.4's
 * load (5 connections repeating a heavy query) fit in the heavy lane and wait their turn;
 * with 4, one of them was refused whenever it came back while the lane paused, and
 * sending its query again at once (each refusal costs the server the query's check,
 * 0.7 ms for a 4 KB one) took a sixth of a core from the ordinary requests.
 */
export const DEFAULT_QUEUE_LENGTH = { cheap: 64, heavy: 5 } as const;

/** Options of `StoreQueue`. */
export interface StoreQueueOptions {
  /** How many pieces of work run at once: what the database can take (a pool's size; 1 for the embedded PGlite). */
  readonly concurrency: number;
  /** How many pieces of work may wait in each lane (`QUEUE_LENGTH`, `HEAVY_QUEUE_LENGTH`); a lane that is full refuses more at once. */
  readonly length?: { readonly cheap: number; readonly heavy: number };
  /** The database's statement timeout (`STATEMENT_TIMEOUT_MS`), named in the answer to work that ran past it. */
  readonly statementTimeoutMs: number;
  /** The clock that times heavy work, in ms (`performance.now` by default; a test gives its own). */
  readonly now?: () => number;
}

type Lane = 'cheap' | 'heavy';

/** A piece of work waiting for its turn. */
interface Waiter {
  start(): void;
  timer?: NodeJS.Timeout;
}

/**
 * The one queue every piece of store work waits in (SPEC §14.4: load is shed, never
 * queued without bound). Work runs `concurrency` at a time, and waits in one of two
 * lanes, each bounded in length (a full lane refuses more work at once) and in time (work
 * still waiting after `MAX_WAIT_MS` is refused then): both refusals are a
 * `StoreUnavailable` that says the server is busy, and the app answers it with a 503.
 *
 * Heavy work (`HEAVY_COST`) must not take the database from the rest (issue 26): it runs
 * one piece at a time, and after one that held the database for d ms the next waits 2d
 * ms, in which only cheap work runs: heavy work gets at most a third of the database's
 * time while cheap work waits. When the heavy lane's turn comes it goes first, so that a
 * stream of cheap work cannot hold it back for ever.
 *
 * Work that fails with Postgres's `query_canceled` (the statement timeout, on PGlite's
 * thread or a Postgres server) is a `StoreUnavailable` too, which tells a heavy query to
 * make itself cheaper and a cheap one only that the database is busy: a cheap query that
 * ran that long did so because of the load, not because of what it asked. Work whose
 * error carries `recovered` (a promise: PGlite's thread starting again) is answered at
 * once, and keeps its place until the database is back.
 */
export class StoreQueue {
  readonly #concurrency: number;
  readonly #length: { readonly cheap: number; readonly heavy: number };
  readonly #statementTimeoutMs: number;
  readonly #waiting: Record<Lane, Waiter[]> = { cheap: [], heavy: [] };
  #running = 0;
  #heavyRunning = false;
  /** When the heavy lane opens again (by `now`). */
  #heavyOpensAt = 0;
  #heavyTimer: NodeJS.Timeout | undefined;
  readonly #now: () => number;

  constructor({ concurrency, length = DEFAULT_QUEUE_LENGTH, statementTimeoutMs, now = () => performance.now() }: StoreQueueOptions) {
    this.#concurrency = concurrency;
    this.#length = length;
    this.#statementTimeoutMs = statementTimeoutMs;
    this.#now = now;
  }

  /** How many pieces of work wait in each lane now. */
  get waiting(): { cheap: number; heavy: number } {
    return { cheap: this.#waiting.cheap.length, heavy: this.#waiting.heavy.length };
  }

  /** Runs `task`, whose cost (`queryCost`) says its lane, in its turn; rejects with `StoreUnavailable` when it is shed or runs past the statement timeout. */
  async run<T>(cost: number, task: () => Promise<T>): Promise<T> {
    const lane: Lane = cost > HEAVY_COST ? 'heavy' : 'cheap';
    await this.#turn(lane, cost);
    const started = this.#now();
    let recovered: unknown;
    try {
      return await task();
    } catch (error) {
      recovered = (error as { recovered?: unknown } | null)?.recovered;
      if ((error as { code?: unknown } | null)?.code === QUERY_CANCELED) throw this.#unavailable('timeout', lane, cost, error);
      throw error;
    } finally {
      // Work whose failure took the database down for a while (PGlite's thread starting
      // again, worker.ts) holds its place until the database is back: it is answered now.
      if (recovered instanceof Promise) void recovered.finally(() => this.#done(lane, started));
      else this.#done(lane, started);
    }
  }

  /** Makes room after a piece of work of `lane` that began at `started`, and starts what may start. */
  #done(lane: Lane, started: number): void {
    this.#running--;
    if (lane === 'heavy') {
      this.#heavyRunning = false;
      const now = this.#now();
      this.#heavyOpensAt = now + 2 * (now - started);
    }
    this.#dispatch();
  }

  /**
   * Resolves when `lane`'s work may start: at once when there is room, else in its turn.
   * Rejects at once when it must wait and its lane is full, or when it has waited its lane's longest.
   */
  #turn(lane: Lane, cost: number): Promise<void> {
    const line = this.#waiting[lane];
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
      };
      line.push(waiter);
      this.#dispatch();
      if (!line.includes(waiter)) return;
      // Still waiting, and the last in its lane (work leaves a lane from the front).
      if (line.length > this.#length[lane]) {
        line.pop();
        reject(this.#unavailable('full', lane, cost));
        return;
      }
      waiter.timer = setTimeout(() => {
        line.splice(line.indexOf(waiter), 1);
        reject(this.#unavailable('waited', lane, cost));
      }, MAX_WAIT_MS[lane]);
    });
  }

  /** Starts waiting work while there is room: heavy work first when its lane is open, then cheap work in order. */
  #dispatch(): void {
    while (this.#running < this.#concurrency) {
      const heavy = !this.#heavyRunning && this.#waiting.heavy.length > 0 && this.#now() >= this.#heavyOpensAt;
      const next = heavy ? this.#waiting.heavy.shift() : this.#waiting.cheap.shift();
      if (next === undefined) break;
      this.#running++;
      if (heavy) this.#heavyRunning = true;
      next.start();
    }
    // Heavy work waiting for its lane to open: look again then. (Once it is open, the
    // next piece of work to finish makes room for it.)
    const closedFor = this.#heavyOpensAt - this.#now();
    if (this.#heavyTimer === undefined && !this.#heavyRunning && this.#waiting.heavy.length > 0 && closedFor > 0) {
      this.#heavyTimer = setTimeout(() => {
        this.#heavyTimer = undefined;
        this.#dispatch();
      }, closedFor);
    }
  }

  /** What to answer work that was shed or ran past the statement timeout: the detail says which, and only heavy work is told to make itself cheaper. */
  #unavailable(what: 'full' | 'waited' | 'timeout', lane: Lane, cost: number, cause?: unknown): StoreUnavailable {
    const retry = Math.ceil(MAX_WAIT_MS[lane] / 1000);
    const again = `send the request again in ${retry} s`;
    const cheaper = `This query is a heavy one (cost ${cost}, where a query of cost ${HEAVY_COST} or less is cheap and is not held up by heavy ones): ${again}, or make it cheaper (fewer patterns on child arrays, fewer sort keys, a smaller limit).`;
    let detail: string;
    if (what === 'timeout') {
      const ran = `This query ran past the statement timeout (${this.#statementTimeoutMs} ms, STATEMENT_TIMEOUT_MS).`;
      detail = lane === 'heavy' ? `${ran} ${cheaper}` : `${ran} The database is busy: ${again}.`;
    } else {
      const waiting = this.#waiting[lane].length;
      const full =
        lane === 'heavy'
          ? `heavy queries run one at a time, and ${waiting === 0 ? 'none may wait' : `${waiting} are waiting already`}`
          : waiting === 0
            ? 'the database is taken, and no query may wait for it'
            : `${waiting} queries are waiting for the database already`;
      const busy = what === 'full' ? `The server is busy: ${full}.` : `The server is busy: this query waited ${MAX_WAIT_MS[lane]} ms for the database, the longest a ${lane} query waits.`;
      detail = lane === 'heavy' ? `${busy} ${cheaper}` : `${busy} Send the request again in ${retry} s.`;
    }
    return new StoreUnavailable(detail, retry, cause === undefined ? undefined : { cause });
  }
}
