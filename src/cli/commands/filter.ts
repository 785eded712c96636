import { check } from '../../check/check';
import type { Filter } from '../../filter/filter';
import { jsonQuote } from '../../text/quote';
import { compile } from '../../eval/compile';
import { PAGING_PARAMS } from '../../schema/define';
import { Progress, wantsProgress } from '../progress';
import { loadSchema, type SchemaOptions } from '../schema';
import { InputOrder, SortedPage, type Collector, type PageBounds } from '../stream/page';
import { openInput } from '../stream/read';
import { ItemSplitter } from '../stream/split';
import { ItemWriter, type OutputFormat } from '../stream/output';
import { printDiagnostics } from '../terminal';
import { EXIT, UsageError } from '../usage';

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
}

/** The most characters of JSON one item (one NDJSON line) may hold: 16 Mi. */
export const MAX_ITEM_CHARS = 16 * 1024 * 1024;

/** The most levels one item may nest: well within what `JSON.stringify` can write back. */
export const MAX_ITEM_DEPTH = 1000;

/**
 * `qsfilter filter <query> [file]`: streams the items of the file (or stdin when there
 * is none, or it is `-`): a JSON array, NDJSON, or the array at `--path` in one object.
 * It writes the matches as they come (a JSON array, NDJSON, or their number), and with
 * `orderBy` keeps only the page's best matches; so memory stays bounded whatever the
 * input's size. The query is checked before any input is read.
 */
export async function runFilter(query: string, file: string | undefined, options: FilterOptions): Promise<number> {
  const format = outputFormat(options);
  const path = options.path === undefined ? undefined : pathOption(options.path);
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

  const input = await openInput(file);
  const progress = wantsProgress(process.stderr, input.size, options['no-progress'] === true) ? new Progress(process.stderr, input.size) : undefined;
  // On a terminal that shows both, the bar leaves the line before output is written.
  const writer = new ItemWriter(format, pretty, process.stdout, progress !== undefined && process.stdout.isTTY === true ? () => progress.clear() : undefined);
  const page = pageOf(filter);
  // A count does not depend on the order: only a written sort needs the page's best items held.
  const collector: Collector = filter.sort.length > 0 && format !== 'count'
    ? new SortedPage(page, filter, { caseInsensitive })
    : new InputOrder(page, (item, position) => writer.add(item, position));
  let matched = 0;
  let first: unknown;
  const splitter = new ItemSplitter({
    path,
    maxItemChars: MAX_ITEM_CHARS,
    maxDepth: MAX_ITEM_DEPTH,
    onItem: (item, number, line, chars) => {
      if (number === 1) first = item;
      if (!matches(item)) return;
      matched++;
      collector.add(item, { item: number, line }, chars);
    },
  });
  try {
    for await (const { text, bytes } of input.texts) {
      splitter.push(text);
      // The page is written whole: the rest of the input cannot change it (as `head` stops reading).
      if (collector.full) break;
      await writer.drained();
      progress?.update(bytes, splitter.count, matched);
    }
    if (!collector.full) splitter.end();
  } finally {
    progress?.clear();
  }
  for (const [item, position] of collector.finish()) writer.add(item, position);
  await writer.end();
  if (matched === 0 && splitter.ndjson && splitter.count === 1) noteOneObject(first);
  return options['exit-status'] === true && writer.count === 0 ? EXIT.nothingMatched : EXIT.ok;
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
