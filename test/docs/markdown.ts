/**
 * The code of the README and of every page of docs/, as `test/docs.test.ts` reads it.
 * Every fenced block tagged `ts` is a snippet; the blocks right after it (nothing but blank lines between) tagged `json`,
 * `js`, `sql`, `text` or nothing are what it prints. An HTML comment right before a
 * block gives it marks, `key: value` pairs joined by `;`:
 *
 * - `id: name`: later snippets can run after this one;
 * - `after: name, name`: the snippet runs in the scope of those snippets (and of what they
 *   run after), as if it followed them: their declarations are its own, and it may
 *   redeclare a name, as an inner block does. Ids are shared by all pages: a snippet may
 *   follow one of an earlier page (in the order of docs/README.md);
 * - `given: name, name as alias`: names from `test/docs/given.ts`, what the page's text
 *   says a reader already has (a `pg` Pool, a Kysely database, a data store);
 * - `fragment: why`: neither compiled nor run (the test counts these): on a snippet, or on
 *   any other block that no test reads (a shell command of a clone);
 * - `file: name`, on a block: the file of that name in the directory where the page's
 *   `$ qsfilter` transcripts run, with the block as its content;
 * - `request: GET /path?query`, on an output block: the response every server of the
 *   section's snippets gives to that request (shown headers and body);
 * - `handler: GET /path?query`, on a `json` block: the filter the servers of the section
 *   hand to their handler for that request.
 */

/** One fenced block. */
export interface Block {
  /** The page it is on, from the package's root: `README.md`, `docs/cli.md`. */
  readonly page: string;
  /** The info string: `ts`, `json`, `` for none. */
  readonly info: string;
  readonly text: string;
  /** The page's line (1-based) of the block's first line of text. */
  readonly line: number;
  /** The page's line of its closing fence. */
  readonly end: number;
  readonly marks: Marks;
  /** The heading of level 2 the block is under (`The adapters`), or `` before the first. */
  readonly section: string;
}

/** The marks of a block, each key at most once. */
export interface Marks {
  readonly id?: string;
  readonly after?: readonly string[];
  readonly given?: readonly string[];
  readonly fragment?: string;
  readonly file?: string;
  readonly request?: string;
  readonly handler?: string;
}

/** A `ts` block and the output blocks that follow it. */
export interface Snippet extends Block {
  readonly outputs: readonly Block[];
}

const MARK_KEYS = ['id', 'after', 'given', 'fragment', 'file', 'request', 'handler'] as const;
type MarkKey = (typeof MARK_KEYS)[number];
const LIST_KEYS: readonly MarkKey[] = ['after', 'given'];
/** A line that is an HTML comment of marks (from the fixed keys, never from a page's text). */
const MARK_LINE = new RegExp(`^<!--\\s*((?:${MARK_KEYS.join('|')})\\s*:.*?)\\s*-->\\s*$`);

/** The info strings of output blocks. */
export const OUTPUT_INFOS: readonly string[] = ['', 'text', 'json', 'js', 'sql'];
const SNIPPET_INFOS: readonly string[] = ['ts', 'typescript'];

/** Where a line of a page is, as an editor takes it: `docs/cli.md:12`. */
export function at(page: string, line: number): string {
  return `${page}:${line}`;
}

/** Every fenced block of a page's Markdown text, with its marks. */
export function blocksOf(markdown: string, page: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  let pending: Record<string, unknown> = {};
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^## (.*)$/.exec(line);
    if (heading) section = heading[1]!.trim();
    const mark = MARK_LINE.exec(line);
    if (mark) {
      pending = { ...pending, ...parseMarks(mark[1]!, at(page, i + 1)) };
      continue;
    }
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) {
      if (line.trim() !== '') pending = {};
      continue;
    }
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^```\s*$/.test(lines[end]!)) end++;
    if (end === lines.length) throw new Error(`${at(page, i + 1)}: a fenced block that is never closed`);
    blocks.push({ page, info: fence[1]!, text: lines.slice(start, end).join('\n'), line: start + 1, end: end + 1, marks: pending as Marks, section });
    pending = {};
    i = end;
  }
  return blocks;
}

function parseMarks(text: string, where: string): Record<string, unknown> {
  const marks: Record<string, unknown> = {};
  for (const part of text.split(';')) {
    const colon = part.indexOf(':');
    const key = part.slice(0, colon).trim() as MarkKey;
    const value = part.slice(colon + 1).trim();
    if (colon === -1 || !MARK_KEYS.includes(key) || value === '') throw new Error(`${where}: "${part.trim()}" is not a mark (${MARK_KEYS.join(', ')})`);
    if (key in marks) throw new Error(`${where}: the mark "${key}" is given twice`);
    marks[key] = LIST_KEYS.includes(key) ? value.split(',').map((name) => name.trim()) : value;
  }
  return marks;
}

/** The snippets of a page's Markdown text, each with the output blocks right after it. */
export function snippetsOf(markdown: string, page: string): Snippet[] {
  const blocks = blocksOf(markdown, page);
  const lines = markdown.split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i]!;
    if (!SNIPPET_INFOS.includes(block.info)) continue;
    const outputs: Block[] = [];
    let previousEnd = block.end;
    for (let j = i + 1; j < blocks.length; j++) {
      const next = blocks[j]!;
      // Right after: between the closing fence and the next opening fence, only blank lines.
      const between = lines.slice(previousEnd, next.line - 2);
      if (!OUTPUT_INFOS.includes(next.info) || between.some((l) => l.trim() !== '') || Object.keys(next.marks).length > 0) break;
      outputs.push(next);
      previousEnd = next.end;
    }
    snippets.push({ ...block, outputs });
  }
  return snippets;
}
