import { describe, expect, it } from 'vitest';
import { ANSI_STYLE } from '../../src/index';
import { diagnosticStyle, wantsColour } from '../../src/cli/terminal';

// A child process never has a terminal: the terminal cases are decided here, in-process.
describe('wantsColour', () => {
  const tty = { isTTY: true };
  const pipe = { isTTY: false };

  it('colours a terminal and not a pipe or file', () => {
    expect(wantsColour(tty, {})).toBe(true);
    expect(wantsColour(pipe, {})).toBe(false);
    expect(wantsColour({}, {})).toBe(false);
  });

  it('never colours when NO_COLOR is set to anything but the empty string', () => {
    expect(wantsColour(tty, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '0' })).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '1', FORCE_COLOR: '1' })).toBe(false);
    expect(wantsColour(tty, { NO_COLOR: '' })).toBe(true);
  });

  it('follows FORCE_COLOR on a pipe or a terminal alike', () => {
    expect(wantsColour(pipe, { FORCE_COLOR: '1' })).toBe(true);
    expect(wantsColour(pipe, { FORCE_COLOR: '' })).toBe(true);
    expect(wantsColour(tty, { FORCE_COLOR: '0' })).toBe(false);
    expect(wantsColour(tty, { FORCE_COLOR: 'false' })).toBe(false);
  });

  it('does not colour a dumb terminal', () => {
    expect(wantsColour(tty, { TERM: 'dumb' })).toBe(false);
  });

  it('gives the ANSI style of the renderer, or none', () => {
    expect(diagnosticStyle(tty, {})).toBe(ANSI_STYLE);
    expect(diagnosticStyle(pipe, {})).toEqual({});
  });
});
