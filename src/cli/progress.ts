/** A terminal, as far as the progress bar needs one. */
export interface ProgressTerminal {
  readonly isTTY?: boolean;
  readonly columns?: number;
  write(text: string): boolean;
}

/** The least time between two redraws, in milliseconds: five a second at most. */
const REDRAW_MS = 200;

const CLEAR_LINE = '\r\x1b[K';

/**
 * The progress bar of `qsfilter filter` on stderr, on one line redrawn at most five times
 * a second, and cleared at the end, so that nothing of it is left in the terminal's
 * scrollback. While a file is read: bytes read of its size, items per second and
 * matches; while a sort merges its runs: matches merged of how many, and how fast. Only
 * numbers of ours are drawn, never text from the input.
 */
export class Progress {
  private shown = false;
  private last: number;
  private readonly started: number;
  private merging: number | undefined;

  constructor(
    private readonly terminal: ProgressTerminal,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    this.last = this.started;
  }

  /** While reading a file of `total` bytes. */
  read(bytes: number, total: number, items: number, matches: number): void {
    this.draw(this.started, (seconds, columns) => progressLine(bytes, total, items, matches, seconds, columns));
  }

  /**
   * While merging the runs of a sort: `done` of `total` matches, in merge `pass` of
   * `passes`. The merge's first line is drawn at once: it says what the wait is now for.
   */
  merge(done: number, total: number, runs: number, pass: number, passes: number): void {
    if (this.merging === undefined) {
      this.merging = this.now();
      this.last = -Infinity;
    }
    this.draw(this.merging, (seconds, columns) => mergeLine(done, total, runs, pass, passes, seconds, columns));
  }

  /** Takes the bar off the terminal (before other output, and at the end). */
  clear(): void {
    if (!this.shown) return;
    this.terminal.write(CLEAR_LINE);
    this.shown = false;
  }

  /** Redraws the bar, unless it was drawn less than `REDRAW_MS` ago. */
  private draw(since: number, line: (seconds: number, columns: number) => string): void {
    const now = this.now();
    if (now - this.last < REDRAW_MS) return;
    this.last = now;
    // A terminal that says it has no columns (a pseudo-terminal never sized) gets the usual 80.
    this.terminal.write(`${CLEAR_LINE}${line((now - since) / 1000, this.terminal.columns || 80)}`);
    this.shown = true;
  }
}

/**
 * Whether `qsfilter filter` shows a progress bar: only when stderr is a terminal, and not
 * when `--no-progress` turned it off. Reading shows it for a file of known size only (a
 * pipe has no total to measure against); a sort's merge always knows its total.
 */
export function wantsProgress(stderr: { readonly isTTY?: boolean }, off: boolean): boolean {
  return !off && stderr.isTTY === true;
}

/** One line of progress: `[=====>     ]  45%  460 MB of 1.0 GB  120,345 items/s  3,400 matches`, cut to the width. */
export function progressLine(bytes: number, total: number, items: number, matches: number, seconds: number, columns: number): string {
  const rate = seconds > 0 ? Math.round(items / seconds) : 0;
  return barLine(total > 0 ? bytes / total : 1, `${size(bytes)} of ${size(total)}  ${count(rate)} items/s  ${count(matches)} ${matches === 1 ? 'match' : 'matches'}`, columns);
}

/**
 * One line of a sort's merge: `[=====>     ]  45%  merging 12 runs (pass 2 of 3)  1,234 of
 * 5,000 matches  120,345 matches/s`: the bar and percentage are of the whole merge (the
 * passes before this one done, and this one's part), the numbers of this pass.
 */
export function mergeLine(done: number, total: number, runs: number, pass: number, passes: number, seconds: number, columns: number): string {
  const rate = seconds > 0 ? Math.round(done / seconds) : 0;
  const which = passes > 1 ? ` (pass ${pass} of ${passes})` : '';
  const ratio = (pass - 1 + (total > 0 ? done / total : 1)) / passes;
  return barLine(ratio, `merging ${runs} runs${which}  ${count(done)} of ${count(total)} matches  ${count(rate)} matches/s`, columns);
}

/** The bar, the percentage and `text`: the bar takes what the text leaves of the line, 10 to 30 cells; the last column stays empty (no wrap). */
function barLine(ratio: number, text: string, columns: number): string {
  const shown = Math.min(Math.max(ratio, 0), 1);
  const line = `${String(Math.floor(shown * 100)).padStart(3)}%  ${text}`;
  const width = Math.max(0, Math.min(30, columns - line.length - 4));
  if (width < 10) return line.slice(0, Math.max(0, columns - 1));
  const done = Math.round(shown * width);
  const bar = done >= width ? '='.repeat(width) : `${'='.repeat(done)}>${' '.repeat(width - done - 1)}`;
  return `[${bar}] ${line}`;
}
function size(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 2 : 1)} ${units[unit]}`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}
