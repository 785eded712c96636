import { diagnostic, type Diagnostic, type Location, type Span } from '../diagnostics/diagnostic';
import { excerpt, quote } from '../text/quote';
import type { Limits } from '../input/limits';
import type { Sort, SortKey } from './ast';
import { filterSortLexer, filterSortParser, pathOf } from './grammar';
import { PATH_HINT, pathProblem, reservedNames } from './path';

/**
 * The outcome of reading one sort parameter: its node, or every problem of it and the
 * node of the keys that are well-formed (`partial`), which a validator can still check
 * against a schema, so that all problems of the parameter come out at once.
 */
type SortOutcome =
  | { readonly sort: Sort; readonly problems?: undefined; readonly partial?: undefined }
  | { readonly sort?: undefined; readonly problems: Diagnostic[]; readonly partial: Sort };

/**
 * Reads the value of the sort parameter (reference §9): sort keys joined by `,`, each a path
 * with a leading `-` for descending. The Chevrotain lexer and parser read a well-formed
 * value; anything else is explained key by key, so that every problem is reported with
 * its span. A path may appear once; at most `maxClauses` keys.
 */
export function readSort(key: string, value: string, limits: Limits, example: SortExample = API_EXAMPLE): SortOutcome {
  const where: Location = { param: key, in: 'value', text: value };
  const pieces = value.split(',');
  if (pieces.length > limits.maxClauses) {
    // Past the limit, no key goes further: none is lexed or explained (reference §7).
    const cut = pieces.slice(0, limits.maxClauses).join(',').length;
    const limit = diagnostic(
      'LIMIT_EXCEEDED',
      `Parameter ${quote(key)} has more than ${limits.maxClauses} sort keys.`,
      where,
      { start: cut + 1, end: value.length },
      `Sort by at most ${limits.maxClauses} fields: the first key decides the order, the next ones only break ties.`,
    );
    return { problems: [limit], partial: { type: 'Sort', key, value, keys: [] } };
  }
  const problems: Diagnostic[] = [];
  let keys: readonly SortKey[] | undefined;
  const lexed = filterSortLexer().tokenize(value);
  if (lexed.errors.length === 0) {
    const parser = filterSortParser();
    const parsed = parser.parseSort(lexed.tokens);
    if (parser.errors.length === 0) keys = parsed;
  }
  if (keys === undefined) {
    // Only a value that did not parse is split by hand, to say what is wrong with each key.
    const good: SortKey[] = [];
    let start = 0;
    for (const piece of pieces) {
      const problem = explainKey(piece, start, where, value === '', example);
      if (problem !== undefined) problems.push(problem);
      else good.push(sortKeyOf(piece, start));
      start += piece.length + 1;
    }
    if (problems.length === 0) {
      // Every value that does not parse has a key that explains why; this is a safety net.
      problems.push(diagnostic('INVALID_SORT', `Parameter ${quote(key)} is not a list of sort keys.`, where, { start: 0, end: value.length }, sortHint(key, example)));
    }
    keys = good;
  }
  const seen = new Set<string>();
  for (const sortKey of keys) {
    const path = sortKey.path.names.map((n) => n.value).join('.');
    const reserved = reservedNames(sortKey.path, where, 'Sort by');
    if (reserved !== undefined) problems.push(...reserved);
    if (seen.has(path)) {
      problems.push(
        diagnostic(
          'INVALID_SORT',
          `Parameter ${quote(key)} sorts by ${quote(path)} twice.`,
          where,
          sortKey.span,
          `Name each field once: the first key decides the order, the next ones only break ties.`,
        ),
      );
    }
    seen.add(path);
  }
  const sort: Sort = { type: 'Sort', key, value, keys };
  // Every property own, set or not: one added to Object.prototype must not read as one of them.
  if (problems.length === 0) return { sort, problems: undefined, partial: undefined };
  // The keys without a problem of their own can still be checked against a schema. Keys
  // come in value order, so one pass over the sorted problem offsets finds them.
  const starts = problems.map((p) => p.span!.start).sort((a, b) => a - b);
  let next = 0;
  const fine = keys.filter((k) => {
    while (next < starts.length && starts[next]! < k.span.start) next++;
    return !(next < starts.length && starts[next]! < k.span.end);
  });
  return { sort: undefined, problems, partial: { ...sort, keys: fine } };
}

/**
 * The sort keys that the hints show (`orderBy=-postedDate,totalAmount`): a schema's own
 * sortable paths when `check` knows the schema, asked for only when a hint is written.
 */
export type SortExample = () => readonly string[];

/** The example of the API document: for `parse`, which knows no schema, and a schema that sorts by nothing. */
export const API_SORT_KEYS: readonly string[] = ['issueDate', 'totalAmount'];
const API_EXAMPLE: SortExample = () => API_SORT_KEYS;

/**
 * `key=-first,second`, and what it means: the hints' example of a sort. The paths are a
 * schema's, as long as it likes: each is cut as any name in a hint is (reference §12).
 */
function exampleSort(key: string, example: SortExample): { query: string; meaning: string } {
  const paths = example();
  const [first, ...rest] = paths.map((path) => excerpt(path));
  return {
    query: excerpt([`${key}=-${paths[0]}`, ...paths.slice(1)].join(',')),
    meaning: `by ${first} descending${rest.length === 0 ? '' : `, then by ${rest.join(', then by ')}`}`,
  };
}

/** A second sort parameter in one query: one order is asked for, once. */
export function repeatedSort(key: string, value: string, example: SortExample = API_EXAMPLE): Diagnostic {
  const { query, meaning } = exampleSort(key, example);
  return diagnostic(
    'INVALID_SORT',
    `Parameter ${quote(key)} is given more than once.`,
    { param: key, in: 'value', text: value },
    { start: 0, end: value.length },
    `Send one ${excerpt(key)}, its keys joined by ",": ${query} sorts ${meaning}.`,
  );
}

/** The node of a well-formed key (`-?path`) that starts at `start` in the value. */
function sortKeyOf(piece: string, start: number): SortKey {
  const descending = piece.startsWith('-');
  const offset = descending ? 1 : 0;
  return {
    type: 'SortKey',
    path: pathOf(piece.slice(offset), piece.length - offset, start + offset),
    direction: descending ? 'desc' : 'asc',
    span: { start, end: start + piece.length },
  };
}

/** A sort key spelled with a word for its direction: `x desc`, `x:asc`. */
const DIRECTION_WORD = /^(-?)([A-Za-z_][A-Za-z0-9_.]*?)[ :](asc|desc)$/i;

function sortHint(key: string, example: SortExample): string {
  return `Join sort keys with ",": a field path, with a leading "-" to sort descending (${exampleSort(key, example).query}).`;
}

/** What is wrong with one comma-separated piece of a sort value that did not parse, if anything. */
function explainKey(piece: string, start: number, where: Location, wholeValueEmpty: boolean, example: SortExample): Diagnostic | undefined {
  const key = where.param;
  const at = (span: Span): Span => ({ start: start + span.start, end: start + span.end });
  if (piece === '') {
    return wholeValueEmpty
      ? diagnostic(
          'INVALID_SORT',
          `Parameter ${quote(key)} names no field to sort by.`,
          where,
          { start: 0, end: 0 },
          `Give the fields to sort by, joined by ",": ${exampleSort(key, example).query} sorts ${exampleSort(key, example).meaning}; no sign sorts ascending.`,
        )
      : diagnostic(
          'INVALID_SORT',
          `Parameter ${quote(key)} has an empty sort key.`,
          where,
          { start, end: start },
          'Join sort keys with one ",", with none at the start or the end.',
        );
  }
  const span = { start, end: start + piece.length };
  if (piece.startsWith('--')) {
    return diagnostic(
      'INVALID_SORT',
      `Parameter ${quote(key)} has the sort key ${quote(piece)}, with more than one "-".`,
      where,
      span,
      `One "-" sorts descending (${excerpt(`${key}=${piece.replace(/^-+/, '-')}`)}); no sign sorts ascending.`,
    );
  }
  const path = piece.startsWith('-') ? piece.slice(1) : piece;
  const offset = piece.length - path.length;
  if (path.startsWith(' ') && pathProblem(path.trimStart()) === undefined) {
    return diagnostic(
      'INVALID_SORT',
      `Parameter ${quote(key)} has the sort key ${quote(piece)}, which starts with a space.`,
      where,
      span,
      `A "+" sent unencoded arrives as a space, and no sign is needed: ${excerpt(`${key}=${path.trimStart()}`)} sorts ascending, ${excerpt(`${key}=-${path.trimStart()}`)} descending.`,
    );
  }
  const word = DIRECTION_WORD.exec(piece);
  if (word !== null && pathProblem(word[2]!) === undefined) {
    const descending = word[3]!.toLowerCase() === 'desc';
    return diagnostic(
      'INVALID_SORT',
      `Parameter ${quote(key)} has the sort key ${quote(piece)}, which spells out a direction.`,
      where,
      span,
      `The direction is a sign, not a word: write ${excerpt(`${key}=${descending ? '-' : ''}${word[2]}`)} (a leading "-" sorts descending).`,
    );
  }
  const problem = pathProblem(path);
  if (problem === undefined) return undefined;
  return diagnostic(
    'INVALID_SORT',
    `Parameter ${quote(key)} has the sort key ${quote(piece)}, which is not a field path: ${problem.reason}.`,
    where,
    at({ start: offset + problem.span.start, end: offset + problem.span.end }),
    path.includes('-') ? `Only a leading "-" means descending. ${PATH_HINT}` : PATH_HINT,
  );
}
