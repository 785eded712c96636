/** Exit statuses of the `qsfilter` command. */
export const EXIT = {
  /** The query is valid (and, for `filter`, the matches were written). */
  ok: 0,
  /** The query is invalid: its diagnostics were written. */
  invalidQuery: 1,
  /** The command line, a schema file or the input could not be used. */
  usage: 2,
  /** A bug: an exception escaped (sysexits' EX_SOFTWARE). */
  internal: 70,
} as const;

/** A command line that cannot be run: the message and the short usage go to stderr, exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
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
       qsfilter filter <query> [file.json] (--resource <name> | --schema <file>) [--case-insensitive] [--pretty | --compact]
       qsfilter resources [name] [--json]
Run "qsfilter --help" for more.`;

/** The full help of `qsfilter --help`. */
export const HELP = `qsfilter: check and run the filter language of financial-data API query strings.

Usage:
  qsfilter check <query> (--resource <name> | --schema <file>) [--json]
      Check a query. Prints its canonical form and what each filter means;
      on a bad query prints every problem with a caret under it.
  qsfilter filter <query> [file.json] (--resource <name> | --schema <file>) [options]
      Read a JSON array from file.json (or standard input, also as "-") and print
      the items that match the query, as one JSON array.
  qsfilter resources [name] [--json]
      List the built-in resources, their filterable fields and plain parameters.

Options:
  -r, --resource <name>    a resource of the built-in catalog (see "qsfilter resources")
  -s, --schema <file>      a JSON file in the shape of defineSchema's argument:
                           {"fields": {"amount": "number", ...}, "params": ["limit"]}
      --json               check, resources: print JSON (check: the filter and the
                           canonical query, or the application/problem+json body)
  -i, --case-insensitive   filter: compare text and ids case-insensitively
      --pretty             filter: indent the output (the default on a terminal)
      --compact            filter: one line of output (the default otherwise)
  -h, --help               show this help
  -v, --version            show the version

The query is written as it would follow "?" in a URL, percent-encoded; quote it for
the shell:  qsfilter check 'totalAmount=gte:100;lte:200&customerRef.id=42' -r invoices

Exit status: 0 valid query, 1 invalid query, 2 usage or input error.
Colour: only on a terminal, never when NO_COLOR is set; FORCE_COLOR=1 forces it.`;
