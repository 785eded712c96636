import { constants } from 'node:buffer';
import { readFile } from 'node:fs/promises';
import { check } from '../../check/check';
import { jsonText } from '../../text/quote';
import { compile } from '../../eval/compile';
import { sortItems } from '../../eval/sort';
import { PAGING_PARAMS } from '../../schema/define';
import { loadSchema, type SchemaOptions } from '../schema';
import { printDiagnostics } from '../terminal';
import { EXIT, InputError, reason, UsageError } from '../usage';

/** The options of `qsfilter filter`, for `util.parseArgs`. */
export const FILTER_OPTIONS = {
  resource: { type: 'string', short: 'r' },
  schema: { type: 'string', short: 's' },
  'case-insensitive': { type: 'boolean', short: 'i' },
  pretty: { type: 'boolean' },
  compact: { type: 'boolean' },
} as const;

/** The options of `runFilter`, as parsed. */
export interface FilterOptions extends SchemaOptions {
  readonly 'case-insensitive'?: boolean | undefined;
  readonly pretty?: boolean | undefined;
  readonly compact?: boolean | undefined;
}

/**
 * `qsfilter filter <query> [file]`: reads a JSON array from the file (or stdin when
 * there is none, or it is `-`) and prints the matching items, in the order the query
 * sorts them (and only the page it asks for, when it sends limit or offset), as one JSON array,
 * indented on a terminal (or with `--pretty`), on one line otherwise (or with
 * `--compact`). The query is checked before any input is read.
 */
export async function runFilter(query: string, file: string | undefined, options: FilterOptions): Promise<number> {
  if (options.pretty === true && options.compact === true) throw new UsageError('give --pretty or --compact, not both');
  const schema = await loadSchema(options);
  const result = check(query, schema);
  if (!result.ok) {
    printDiagnostics(result.errors);
    return EXIT.invalidQuery;
  }
  const source = file === undefined || file === '-' ? 'standard input' : file;
  const items = parseItems(await readInput(file, source), source);
  const filter = result.value;
  const caseInsensitive = options['case-insensitive'] === true;
  const sorted = sortItems(items.filter(compile(filter, { caseInsensitive })), filter, { caseInsensitive });
  // A page is taken only when the query asks for one: a default page size would cut a file short without a word.
  const page = filter.page !== undefined && PAGING_PARAMS.some((name) => Object.hasOwn(filter.params, name)) ? filter.page : undefined;
  const output = page === undefined ? sorted : sorted.slice(page.offset, page.offset + page.limit);
  const pretty = options.pretty === true || (options.compact !== true && process.stdout.isTTY === true);
  process.stdout.write(`${stringify(output, pretty)}\n`);
  return EXIT.ok;
}

/**
 * The matches as one JSON text. JSON.parse reads any depth, but JSON.stringify recurses:
 * an item nested some thousands deep overflows its stack, and a huge output passes the
 * longest string. Both are the input's doing, not a bug: an input error, exit 2.
 */
function stringify(output: unknown[], pretty: boolean): string {
  try {
    // Data from elsewhere is shown as the query is: no raw control reaches the terminal.
    return jsonText(output, pretty ? 2 : undefined);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new InputError(`the matching items cannot be written as JSON (${reason(error)}): an item nests too deeply, or the output is too long`);
  }
}

/**
 * The most bytes of input read: the longest string Node can hold (512 MiB on 64-bit).
 * Standard input is refused as soon as it passes it, rather than buffered for ever.
 */
const MAX_INPUT_BYTES = constants.MAX_STRING_LENGTH;

async function readInput(file: string | undefined, source: string): Promise<Buffer> {
  if (file !== undefined && file !== '-') {
    let bytes: Buffer;
    try {
      bytes = await readFile(file);
    } catch (error) {
      throw new UsageError(`cannot read the input file ${JSON.stringify(file)}: ${reason(error)}`);
    }
    if (bytes.length > MAX_INPUT_BYTES) throw tooLarge(source);
    return bytes;
  }
  // Waiting for a JSON array typed by hand is never what was meant.
  if (process.stdin.isTTY === true) throw new UsageError('no input: give a JSON file, or pipe a JSON array to standard input');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    size += (chunk as Buffer).length;
    if (size > MAX_INPUT_BYTES) throw tooLarge(source);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(source: string): InputError {
  return new InputError(`the input (${source}) is larger than ${MAX_INPUT_BYTES} bytes, the most this command reads`);
}

/** UTF-8, strictly: a byte that is no UTF-8 is refused, not turned into U+FFFD and written out changed. A BOM is dropped. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function parseItems(bytes: Buffer, source: string): unknown[] {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new InputError(`the input (${source}) is not UTF-8 text`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new InputError(`the input (${source}) is not JSON: ${reason(error)}`);
  }
  if (!Array.isArray(data)) {
    const kind = data === null ? 'null' : typeof data === 'object' ? 'an object' : `a ${typeof data}`;
    throw new InputError(`the input (${source}) must be a JSON array of items, not ${kind}`);
  }
  return data;
}
