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
 * The progress bar of `qsfilter filter` on stderr: bytes read of the file's size, items
 * per second and matches, on one line redrawn at most five times a second, and cleared
 * at the end, so that nothing of it is left in the terminal's scrollback. Only numbers
 * of ours are drawn, never text from the input.
 */
export class Progress {
  private shown = false;
  private last = 0;
  private readonly started: number;

  constructor(
    private readonly terminal: ProgressTerminal,
    private readonly total: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
    this.last = this.started;
  }

  /** Redraws the bar, unless it was drawn less than `REDRAW_MS` ago. */
  update(bytes: number, items: number, matches: number): void {
    const now = this.now();
    // A terminal that says it has no columns (a pseudo-terminal never sized) gets the usual 80.
    if (now - this.last < REDRAW_MS) return;
    this.last = now;
    this.terminal.write(`${CLEAR_LINE}${progressLine(bytes, this.total, items, matches, (now - this.started) / 1000, this.terminal.columns || 80)}`);
    this.shown = true;
  }

  /** Takes the bar off the terminal (before other output, and at the end). */
  clear(): void {
    if (!this.shown) return;
    this.terminal.write(CLEAR_LINE);
    this.shown = false;
  }
}

/**
 * Whether `qsfilter filter` shows a progress bar: only when stderr is a terminal and the
 * input is a file of known size (a pipe has no total to measure against), and not when
 * `--no-progress` turned it off.
 */
export function wantsProgress(stderr: { readonly isTTY?: boolean }, size: number | undefined, off: boolean): size is number {
  return !off && stderr.isTTY === true && size !== undefined && size > 0;
}

/** One line of progress: `[=====>     ]  45%  460 MB of 1.0 GB  120,345 items/s  3,400 matches`, cut to the width. */
export function progressLine(bytes: number, total: number, items: number, matches: number, seconds: number, columns: number): string {
  const ratio = total > 0 ? Math.min(bytes / total, 1) : 1;
  const rate = seconds > 0 ? Math.round(items / seconds) : 0;
  const text = `${String(Math.floor(ratio * 100)).padStart(3)}%  ${size(bytes)} of ${size(total)}  ${count(rate)} items/s  ${count(matches)} ${matches === 1 ? 'match' : 'matches'}`;
  // The bar takes what the numbers leave of the line, 10 to 30 cells; the last column stays empty (no wrap).
  const width = Math.max(0, Math.min(30, columns - text.length - 4));
  if (width < 10) return text.slice(0, Math.max(0, columns - 1));
  const done = Math.round(ratio * width);
  const bar = done >= width ? '='.repeat(width) : `${'='.repeat(done)}>${' '.repeat(width - done - 1)}`;
  return `[${bar}] ${text}`;
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
