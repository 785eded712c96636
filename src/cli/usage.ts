/** Exit statuses of the `qsfilter` command. */
export const EXIT = {
  /** The query is valid (and, for `filter`, the matches were written). */
  ok: 0,
  /** The query is invalid: its diagnostics were written. */
  invalidQuery: 1,
  /** The command line, a schema file or the input could not be used. */
  usage: 2,
  /** `filter --exit-status`: the query is valid, but no item was written (nothing matched, or the page is past the last match). */
  nothingMatched: 3,
  /** A bug: an exception escaped (sysexits' EX_SOFTWARE). */
  internal: 70,
} as const;

/**
 * A command line that cannot be run: the message and the short usage go to stderr, exit 2.
 * With `synopsis: false` (an unknown or malformed option), the message alone, on one line.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly synopsis: boolean;

  constructor(message: string, options: { readonly synopsis?: boolean } = {}) {
    super(message);
    this.synopsis = options.synopsis ?? true;
  }
}

/** Input that cannot be used (not JSON, not an array): only the message goes to stderr, exit 2. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** The message of an error, without its stack: what a usage or input error quotes. */
export function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The synopsis, shown after a usage error. */
export const USAGE = `Usage: qsfilter check <query> (--resource <name> | --schema <file>) [--json]
       qsfilter filter <query> [file | -] (--resource <name> | --schema <file>) [--path <a.b>]
                       [--ndjson | --count] [--exit-status] [--case-insensitive] [--pretty | --compact] [--no-progress]
                       [--temp-dir <dir>] [--sort-memory <size>]
       qsfilter resources [name] [--json]
Run "qsfilter --help" for more.`;

/** The full help of `qsfilter --help`. */
export const HELP = `qsfilter: check and run the filter language of financial-data API query strings.

Usage:
  qsfilter check <query> (--resource <name> | --schema <file>) [--json]
      Check a query. Prints its canonical form and what each filter means;
      on a bad query prints every problem with a caret under it.
  qsfilter filter <query> [file | -] (--resource <name> | --schema <file>) [options]
      Stream the items of a file (or of standard input, also as "-") and print those
      that match the query, as they came (numbers, escapes and key order kept), in its
      orderBy and page when it sends them. The input is a JSON array, NDJSON (one JSON
      value a line: read so when it does not start with "["), or one object holding
      the array at --path. Memory stays bounded at any input size: with orderBy, the
      matches past --sort-memory are sorted in runs written to a temporary directory
      and merged (removed at the end, on an error and on Ctrl-C). An item may hold
      16 Mi characters of JSON and nest 1000 levels deep.
  qsfilter resources [name] [--json]
      List the built-in resources, their filterable fields and plain parameters.

Options:
  -r, --resource <name>    a resource of the built-in catalog (see "qsfilter resources")
  -s, --schema <file>      a JSON file in the shape of defineSchema's argument:
                           {"fields": {"amount": "number", ...}, "params": ["limit"]}
      --json               check, resources: print JSON (check: the filter and the
                           canonical query, or the application/problem+json body)
  -i, --case-insensitive   filter: compare text and ids case-insensitively
      --path <a.b>         filter: read the array at this key path of the input's
                           object (--path data for the example server's answers)
      --ndjson             filter: write one item a line instead of a JSON array
                           (reading NDJSON needs no option: it is detected)
      --count              filter: write only the number of items it would write
  -e, --exit-status        filter: exit 3 when no item is written (nothing matched)
      --pretty             filter: indent the JSON array (the default on a terminal)
      --compact            filter: the JSON array on one line (the default otherwise)
      --no-progress        filter: no progress bar (one is shown on stderr when it is
                           a terminal, while a file is read and while a sort merges)
      --temp-dir <dir>     filter: where orderBy's sort writes its runs (default: TMPDIR,
                           else the system's temporary directory)
      --sort-memory <size> filter: the matches orderBy's sort holds in memory before it
                           writes a run, in bytes or with K, M, G (default 16M)
  -h, --help               show this help
  -V, --version            show the version (also -v)

The query is written as it would follow "?" in a URL, percent-encoded; quote it for
the shell. Examples:
  qsfilter check 'totalAmount=gte:100;lte:200&customerRef.id=42' -r invoices
  qsfilter check 'amount=lt:5' --schema schema.json --json
  qsfilter filter 'totalAmount=gte:100&orderBy=-totalAmount&limit=10' invoices.ndjson -r invoices
  qsfilter filter 'vendorName=%25acme%25' vendors.json -r vendors -i --pretty
  qsfilter filter 'customerRef.id=42' invoices.json -r invoices --ndjson > matches.ndjson
  qsfilter filter 'totalAmount=gt:0' answer.json --path data -r invoices --count
  qsfilter filter 'status=open' bills.json -r bills --count -e --no-progress
  qsfilter filter 'limit=5' - -r vendors --compact < vendors.json
  qsfilter filter 'orderBy=-totalAmount' big.ndjson -r invoices --ndjson --temp-dir /var/tmp --sort-memory 64M
  qsfilter resources invoices --json

Exit status: 0 valid query, 1 invalid query, 2 usage or input error (the input is not
JSON or not UTF-8, is cut short, or has an item over the limits: the message names the
item and its line, and the matches before it are written), 3 with --exit-status when no
item was written, 70 a bug (please report it).
Colour: only on a terminal, never when NO_COLOR is set; FORCE_COLOR=1 forces it.`;
