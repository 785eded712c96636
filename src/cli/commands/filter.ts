import { check } from '../../check/check';
import type { Filter } from '../../filter/filter';
import { jsonQuote } from '../../text/quote';
import { compile } from '../../eval/compile';
import { itemOrder } from '../../eval/sort';
import { PAGING_PARAMS } from '../../spec/spec';
import { Progress, wantsProgress } from '../progress';
import { loadSchema, type SchemaOptions } from '../schema';
import { SORT_MEMORY, SortedMatches } from '../sort/sorted';
import { TempDir } from '../sort/temp';
import { InputOrder, type Collector, type PageBounds } from '../stream/page';
import { openInput, type Input } from '../stream/read';
import { ItemSplitter } from '../stream/split';
import { ItemWriter, type OutputFormat } from '../stream/output';
import { printDiagnostics } from '../terminal';
import { EXIT, InputError, UsageError } from '../usage';

/** The options of `qsfilter filter`, for `util.parseArgs`. */
export const FILTER_OPTIONS = {
  resource: { type: 'string', short: 'r' },
  schema: { type: 'string', short: 's' },
  'case-insensitive': { type: 'boolean', short: 'i' },
  path: { type: 'string' },
  ndjson: { type: 'boolean' },
  count: { type: 'boolean' },
  'exit-status': { type: 'boolean', short: 'e' },
  pretty: { type: 'boolean' },
  compact: { type: 'boolean' },
  'no-progress': { type: 'boolean' },
  'temp-dir': { type: 'string' },
  'sort-memory': { type: 'string' },
} as const;

/** The options of `runFilter`, as parsed. */
export interface FilterOptions extends SchemaOptions {
  readonly 'case-insensitive'?: boolean | undefined;
  readonly path?: string | undefined;
  readonly ndjson?: boolean | undefined;
  readonly count?: boolean | undefined;
  readonly 'exit-status'?: boolean | undefined;
  readonly pretty?: boolean | undefined;
  readonly compact?: boolean | undefined;
  readonly 'no-progress'?: boolean | undefined;
  readonly 'temp-dir'?: string | undefined;
  readonly 'sort-memory'?: string | undefined;
}

/** The most characters of JSON one item (one NDJSON line) may hold: 16 Mi. */
export const MAX_ITEM_CHARS = 16 * 1024 * 1024;

/** The most levels one item may nest: well within what `JSON.stringify` can write back. */
export const MAX_ITEM_DEPTH = 1000;

/**
 * `qsfilter filter <query> [file]`: streams the items of the file (or stdin when there
 * is none, or it is `-`): a JSON array, NDJSON, or the array at `--path` in one object.
 * It writes the matches as they came (a JSON array, NDJSON, or their number): in input
 * order as they come, or with `orderBy` through a sort that spills to temporary files
 * past `--sort-memory`; so memory stays bounded whatever the input's size. The query is
 * checked before any input is read. After an input error, what was found before it is
 * written (a JSON array left open), then the error is reported.
 */
export async function runFilter(query: string, file: string | undefined, options: FilterOptions): Promise<number> {
  const format = outputFormat(options);
  const path = options.path === undefined ? undefined : pathOption(options.path);
  const memory = options['sort-memory'] === undefined ? SORT_MEMORY : sizeOption(options['sort-memory']);
  const schema = await loadSchema(options);
  const result = check(query, schema);
  if (!result.ok) {
    printDiagnostics(result.errors);
    return EXIT.invalidQuery;
  }
  const filter = result.value;
  const caseInsensitive = options['case-insensitive'] === true;
  const matches = compile(filter, { caseInsensitive });
  const pretty = format === 'array' && (options.pretty === true || (options.compact !== true && process.stdout.isTTY === true));
  // A count does not depend on the order: only a written sort needs the matches held.
  const sorted = filter.sort.length > 0 && format !== 'count';
  const temp = sorted ? new TempDir(options['temp-dir']) : undefined;

  const input = openInput(file);
  const progress = wantsProgress(process.stderr, options['no-progress'] === true) ? new Progress(process.stderr) : undefined;
  // On a terminal that shows both, the bar leaves the line before output is written.
  const writer = new ItemWriter(format, pretty, process.stdout, progress !== undefined && process.stdout.isTTY === true ? () => progress.clear() : undefined);
  const page = pageOf(filter);
  const collector: Collector = temp !== undefined
    ? new SortedMatches(page, itemOrder(filter.sort, caseInsensitive), { memory, temp, onMerge: progress === undefined ? undefined : (...args) => progress.merge(...args) })
    : new InputOrder(page, writer);
  let matched = 0;
  let first: unknown;
  const splitter = new ItemSplitter({
    path,
    maxItemChars: MAX_ITEM_CHARS,
    maxDepth: MAX_ITEM_DEPTH,
    onItem: (item, number, line, text) => {
      if (number === 1) first = item;
      if (!matches(item)) return;
      matched++;
      collector.add(item, text, { item: number, line });
    },
  });
  try {
    let failure: InputError | undefined;
    try {
      await read(input, splitter, collector, async (bytes) => {
        await writer.drained();
        if (input.size !== undefined && input.size > 0) progress?.read(bytes, input.size, splitter.count, matched);
      });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      failure = error;
    } finally {
      progress?.clear();
    }
    // What was found before an input error is written all the same, then the error is reported.
    await collector.finish(writer);
    progress?.clear();
    await writer.end(failure === undefined);
    if (failure !== undefined) throw failure;
  } finally {
    collector.close();
  }
  if (matched === 0 && splitter.ndjson && splitter.count === 1) noteOneObject(first);
  return options['exit-status'] === true && writer.count === 0 ? EXIT.nothingMatched : EXIT.ok;
}

/**
 * Feeds the input to the splitter until its end, or until the page is written whole (the
 * rest of the input cannot change it: as `head` stops reading). Bytes that are not UTF-8
 * end it with an input error that names the byte, after the text before it was read.
 */
async function read(input: Input, splitter: ItemSplitter, collector: Collector, between: (bytes: number) => Promise<void>): Promise<void> {
  for await (const piece of input.pieces) {
    splitter.push(piece.text, piece.offset);
    if (piece.invalid !== undefined) {
      const { offset, byte } = piece.invalid;
      throw new InputError(`the input (${input.source}) is not UTF-8: the byte 0x${byte.toString(16).padStart(2, '0')} at offset ${offset} (${splitter.where()}) is not`);
    }
    if (collector.full) return;
    await between(piece.bytes);
  }
  splitter.end();
}

/**
 * An object read whole as the one item of NDJSON, which matched nothing, but holds an
 * array: most likely an API's answer (`{"data": [...]}`) given without --path.
 */
function noteOneObject(item: unknown): void {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return;
  const key = Object.keys(item).find((name) => Array.isArray((item as Record<string, unknown>)[name]));
  if (key === undefined) return;
  process.stderr.write(`qsfilter: note: the input is one object, read as one NDJSON item; for the items in its array ${jsonQuote(key)}, give --path ${jsonQuote(key)}\n`);
}

function outputFormat(options: FilterOptions): OutputFormat {
  if (options.pretty === true && options.compact === true) throw new UsageError('give --pretty or --compact, not both');
  if (options.ndjson === true && options.count === true) throw new UsageError('give --ndjson or --count, not both');
  const format = options.count === true ? 'count' : options.ndjson === true ? 'ndjson' : 'array';
  if (format !== 'array' && options.pretty === true) throw new UsageError(`--pretty indents a JSON array: not with --${format}`);
  return format;
}

/**
 * `--sort-memory 64M`: bytes, with K, M or G for KiB, MiB, GiB; at least 1 KiB (a test's
 * size, that makes even a small input spill), at most what a buffer can hold.
 */
function sizeOption(text: string): number {
  const match = /^(\d{1,12})([KMG]?)$/i.exec(text);
  const bytes = match === null ? Number.NaN : Number(match[1]) * 1024 ** 'BKMG'.indexOf((match[2] || 'B').toUpperCase());
  if (!(bytes >= 1024 && bytes <= 2 ** 31)) throw new UsageError(`--sort-memory ${jsonQuote(text)} is not a size from 1K to 2G: give bytes, or a number and K, M or G, as in --sort-memory 64M`);
  return bytes;
}

/** `--path a.b`: the names on the way to the array, each one not empty. */
function pathOption(text: string): string[] {
  const names = text.split('.');
  if (names.some((name) => name === '')) throw new UsageError(`--path ${jsonQuote(text)} has an empty name: give names joined by ".", as in --path data or --path result.items`);
  return names;
}

/**
 * The page to write: the one the query asks for, when it sends limit or offset; else
 * every match. A default page size would cut a file short without a word.
 */
function pageOf(filter: Filter): PageBounds {
  const asked = filter.page !== undefined && PAGING_PARAMS.some((name) => Object.hasOwn(filter.params, name));
  return asked ? { offset: filter.page!.offset, limit: filter.page!.limit } : { offset: 0, limit: Infinity };
}
