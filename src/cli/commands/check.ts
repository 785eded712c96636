import { check } from '../../check/check';
import { format } from '../../filter/format';
import type { Filter } from '../../filter/filter';
import { PAGING_PARAMS, type Schema } from '../../spec/spec';
import { escaped, jsonQuote, jsonText } from '../../text/quote';
import { toProblemDetails } from '../../diagnostics/problem';
import { explain, explainOrder } from '../explain';
import { loadSchema, type SchemaOptions } from '../schema';
import { printDiagnostics } from '../terminal';
import { EXIT } from '../usage';

/** The options of `qsfilter check`, for `util.parseArgs`. */
export const CHECK_OPTIONS = {
  resource: { type: 'string', short: 'r' },
  schema: { type: 'string', short: 's' },
  json: { type: 'boolean' },
} as const;

/** What `qsfilter check --json` prints for a valid query. */
export interface CheckReport {
  /** The canonical query string (`format`). */
  readonly query: string;
  /** One sentence per filter condition, all of which must hold; then the order and the page, if any. */
  readonly explanation: readonly string[];
  readonly filter: Filter;
}

/**
 * `qsfilter check <query>`: on a valid query, prints the canonical query and what each
 * condition means (exit 0); on an invalid one, every diagnostic with its caret line
 * (exit 1). With `--json`, the `CheckReport` or the problem details body, on stdout.
 */
export async function runCheck(query: string, options: SchemaOptions & { readonly json?: boolean | undefined }): Promise<number> {
  const schema = await loadSchema(options);
  const result = check(query, schema);
  if (options.json === true) {
    const body = result.ok ? report(result.value) : toProblemDetails(result.errors);
    process.stdout.write(`${jsonText(body, 2)}\n`);
  } else if (result.ok) {
    process.stdout.write(summary(result.value, schema));
  } else {
    printDiagnostics(result.errors);
  }
  return result.ok ? EXIT.ok : EXIT.invalidQuery;
}

function report(filter: Filter): CheckReport {
  return { query: format(filter), explanation: [...explain(filter), ...explainOrder(filter)], filter };
}

/**
 * The account of a valid query for people: canonical form, one sentence per condition,
 * the order and the page, and the other request parameters.
 */
function summary(filter: Filter, schema: Schema): string {
  const lines = [format(filter), ''];
  const sentences = explain(filter);
  if (sentences.length === 0) lines.push('No filters: every item matches.');
  else {
    lines.push(sentences.length === 1 ? 'Matches the items where' : 'Matches the items where all of these hold:');
    for (const sentence of sentences) lines.push(`  ${sentence}`);
  }
  lines.push(...explainOrder(filter));
  // The sort and paging parameters were just explained; the others are passed through.
  const explained = new Set<string>([schema.sortParam, ...(filter.page === undefined ? [] : PAGING_PARAMS)]);
  const params = Object.entries(filter.params).filter(([key]) => !explained.has(key));
  if (params.length > 0) {
    lines.push('Request parameters, not filters:');
    for (const [key, value] of params) {
      lines.push(`  ${escaped(key)} = ${(typeof value === 'string' ? [value] : value).map(jsonQuote).join(', ')}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
