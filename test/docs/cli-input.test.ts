import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli';
import { pages } from './pages';

// Issue 23, item 12: the README said the command refuses input "more than 512 MiB" while
// the command said "larger than 536870888 bytes". A cap on the command's input may be
// stated in the docs only as the command states it in its own help: a figure of the docs
// that the help does not give (or a cap the help does not have) fails here.

const UNITS: Readonly<Record<string, number>> = { bytes: 1, byte: 1, B: 1, KB: 1e3, MB: 1e6, GB: 1e9, KiB: 2 ** 10, MiB: 2 ** 20, GiB: 2 ** 30 };
const SIZE = /(\d[\d,]*(?:\.\d+)?)\s*(bytes?|B|KB|MB|GB|KiB|MiB|GiB)\b/g;

/** Every size a text states (`512 MiB`, `536870888 bytes`), in bytes. */
function sizesIn(text: string): number[] {
  return [...text.matchAll(SIZE)].map((m) => Number(m[1]!.replaceAll(',', '')) * UNITS[m[2]!]!);
}

/**
 * The paragraphs of a page that speak of the command's input: on the command line's page,
 * each that says "input"; elsewhere, each that names `qsfilter filter` and says "input".
 */
function inputParagraphs(page: string, text: string): string[] {
  return text
    .split(/\n\s*\n/)
    .filter((p) => /\binput\b/i.test(p) && (page === 'docs/cli.md' || p.includes('qsfilter filter')))
    .filter((p) => !p.startsWith('```'));
}

/** The sizes the docs state of the command's input that the command's help does not state. */
function unstated(docs: readonly { page: string; text: string }[], help: string): string[] {
  const stated = new Set(sizesIn(help));
  return docs.flatMap(({ page, text }) =>
    inputParagraphs(page, text).flatMap((p) => [...p.matchAll(SIZE)].filter((m) => !stated.has(sizesIn(m[0])[0]!)).map((m) => `${page}: "${m[0]}"`)),
  );
}

describe('what the docs say of the command\'s input', () => {
  it('states a cap only as the command\'s help does', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(unstated(pages(), help.stdout)).toEqual([]);
  });

  it('fails on the sentence the README had, whatever the help says of 536870888 bytes', () => {
    const before = 'reads its input as strict UTF-8: bytes that are not UTF-8, more than\n512 MiB, or matches nested too deep are input errors (exit 2). See `qsfilter filter`.';
    expect(unstated([{ page: 'README.md', text: before }], '')).toEqual(['README.md: "512 MiB"']);
    expect(unstated([{ page: 'README.md', text: before }], 'larger than 536870888 bytes')).toEqual(['README.md: "512 MiB"']);
    expect(unstated([{ page: 'docs/cli.md', text: 'input above 512 MiB' }], 'input above 536,870,912 bytes')).toEqual([]);
  });
});
