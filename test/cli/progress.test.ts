import { describe, expect, it } from 'vitest';
import { mergeLine, Progress, progressLine, wantsProgress } from '../../src/cli/progress';

// A child process never has a terminal: the bar is tested here, in-process, on a fake one.
function terminal(columns = 100) {
  const writes: string[] = [];
  return { writes, isTTY: true, columns, write: (text: string) => (writes.push(text), true) };
}

describe('the progress bar', () => {
  it('shows the bytes read of the total, items per second and matches, within the width', () => {
    const line = progressLine(460_200_000, 1_020_000_000, 240_000, 3400, 2, 100);
    expect(line).toBe('[==============>               ]  45%  460.2 MB of 1.02 GB  120,000 items/s  3,400 matches');
    expect(line.length).toBeLessThan(100);
    expect(progressLine(1_020_000_000, 1_020_000_000, 10, 1, 1, 100)).toMatch(/^\[=+\] 100% {2}1.02 GB of 1.02 GB {2}10 items\/s {2}1 match$/);
    // A narrow terminal: the numbers alone, cut to the width.
    expect(progressLine(5, 10, 1, 0, 1, 30)).toBe(' 50%  5 B of 10 B  1 items/s ');
  });

  it('redraws at most five times a second, and clears its line at the end', () => {
    let now = 0;
    const tty = terminal();
    const progress = new Progress(tty, () => now);
    for (now = 0; now <= 1000; now += 10) progress.read(now, 1000, now, 0);
    expect(tty.writes).toHaveLength(5);
    expect(tty.writes.every((text) => text.startsWith('\r\x1b[K['))).toBe(true);
    progress.clear();
    expect(tty.writes.at(-1)).toBe('\r\x1b[K');
    progress.clear();
    expect(tty.writes).toHaveLength(6);
  });

  it('draws 80 columns wide on a terminal that reports 0 (a pseudo-terminal never sized)', () => {
    let now = 0;
    const tty = terminal(0);
    const progress = new Progress(tty, () => now);
    now = 250;
    progress.read(500, 1000, 10, 1);
    expect(tty.writes).toEqual([`\r\x1b[K${progressLine(500, 1000, 10, 1, 0.25, 80)}`]);
    expect(tty.writes[0]).toContain('[');
  });

  it('draws nothing, and clears nothing, on an input read faster than the first redraw', () => {
    let now = 0;
    const tty = terminal();
    const progress = new Progress(tty, () => now);
    now = 150;
    progress.read(1000, 1000, 10, 1);
    progress.clear();
    expect(tty.writes).toEqual([]);
  });

  it('shows a sort\'s merge: matches merged of how many, in which pass, how fast, its rate from the merge\'s start', () => {
    expect(mergeLine(1200, 4800, 12, 1, 1, 2, 100)).toBe('[========>                     ]  25%  merging 12 runs  1,200 of 4,800 matches  600 matches/s');
    // In passes, the bar is of the whole merge: pass 2 of 4 half done is 37%.
    expect(mergeLine(2400, 4800, 64, 2, 4, 1, 120)).toMatch(/^\[=+>? +\] {2}37% {2}merging 64 runs \(pass 2 of 4\) {2}2,400 of 4,800 matches {2}2,400 matches\/s$/);
    expect(mergeLine(4800, 4800, 2, 4, 4, 1, 120)).toMatch(/^\[=+\] 100% {2}merging 2 runs \(pass 4 of 4\)/);
    let now = 0;
    const tty = terminal(120);
    const progress = new Progress(tty, () => now);
    now = 10_000;
    progress.read(10, 100, 1, 1);
    // The merge's first line is drawn at once, however soon after the last.
    now = 10_001;
    progress.merge(0, 100, 3, 1, 1);
    expect(tty.writes.at(-1)).toBe(`\r\x1b[K${mergeLine(0, 100, 3, 1, 1, 0, 120)}`);
    now = 10_100;
    progress.merge(20, 100, 3, 1, 1);
    expect(tty.writes).toHaveLength(2);
    now = 12_001;
    progress.merge(50, 100, 3, 1, 1);
    expect(tty.writes.at(-1)).toBe(`\r\x1b[K${mergeLine(50, 100, 3, 1, 1, 2, 120)}`);
  });

  it('is shown only on a terminal, unless --no-progress', () => {
    expect(wantsProgress({ isTTY: true }, false)).toBe(true);
    expect(wantsProgress({ isTTY: false }, false)).toBe(false);
    expect(wantsProgress({}, false)).toBe(false);
    expect(wantsProgress({ isTTY: true }, true)).toBe(false);
  });
});
