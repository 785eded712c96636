import { diagnostic, type Diagnostic, type Location, type Span } from '../diagnostics/diagnostic';
import { excerpt, quote } from '../text/quote';
import type { Limits } from '../input/limits';
import type { Sort, SortKey } from './ast';
import type { IRecognitionException, IToken } from './chevrotain';
import { filterLexer, filterParser } from './grammar';
import { byStart } from './parsed';
import { PATH_HINT, reservedNames } from './path';
import { Comma, Dot, JUNK } from './tokens';

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
 * with a leading `-` for descending. The Chevrotain lexer and parser read every value;
 * where they find something wrong, each key that holds an error of the parse or a run of
 * characters no path holds is explained, so that every problem is reported with its
 * span. A path may appear once; at most `maxClauses` keys.
 */
export function readSort(key: string, value: string, limits: Limits, example: SortExample = API_EXAMPLE): SortOutcome {
  const where: Location = { param: key, in: 'value', text: value };
  const lexed = filterLexer().tokenize(value, 'sort');
  const tokens = lexed.tokens;
  // Where each key starts: at the start and after each comma. An error or junk at the
  // comma after a key, or at the end, is the key's.
  const starts = [0];
  for (const token of tokens) if (token.tokenType === Comma) starts.push(token.startOffset + 1);
  if (starts.length > limits.maxClauses) {
    // Past the limit, no key goes further: none is parsed or explained (reference §7).
    const limit = diagnostic(
      'LIMIT_EXCEEDED',
      `Parameter ${quote(key)} has more than ${limits.maxClauses} sort keys.`,
      where,
      { start: starts[limits.maxClauses]!, end: value.length },
      `Sort by at most ${limits.maxClauses} fields: the first key decides the order, the next ones only break ties.`,
    );
    return { problems: [limit], partial: { type: 'Sort', key, value, keys: [] } };
  }
  const junk = lexed.groups[JUNK] ?? [];
  // The first junk of each key (junk is never at a comma).
  const keyJunk = byStart(junk, starts, (t) => t.startOffset).map((found) => found[0]);
  // A key that holds junk is explained by it: its tokens are left out of the parse, as a
  // filter key's are (filters.ts), which keeps Chevrotain's recovery from recursing.
  const parsedTokens =
    junk.length === 0 ? tokens : byStart(tokens, starts, (t) => t.startOffset).flatMap((part, k) => (keyJunk[k] === undefined ? part : part.filter((t) => t.tokenType === Comma)));
  const parser = filterParser();
  const parsed = parser.parseSort(parsedTokens);
  const errors = parser.errors;
  const problems: Diagnostic[] = [];
  let keys: readonly SortKey[] = parsed;
  if (errors.length > 0 || junk.length > 0) {
    // Each key on its own: the well-formed ones are kept, the others explained.
    const keyError = byStart(errors, starts, (e) => (e.token.startOffset >= 0 ? e.token.startOffset : value.length));
    // A key the parser made up in recovery (a name inserted at the end of `a,`) is no key of the value: its span is not in it.
    const keyNode = byStart(parsed.filter((n) => n.span.start >= 0), starts, (n) => n.span.start);
    const good: SortKey[] = [];
    for (let k = 0; k < starts.length; k++) {
      const [start, end] = [starts[k]!, k + 1 < starts.length ? starts[k + 1]! - 1 : value.length];
      const error = keyError[k]![0];
      if (error === undefined && keyJunk[k] === undefined) {
        good.push(...keyNode[k]!);
        continue;
      }
      // A key with junk was left out of the parse: its junk, not the parser, says what is wrong.
      problems.push(explainKey(value.slice(start, end), start, where, value === '', example, keyJunk[k], keyJunk[k] === undefined ? error : undefined));
    }
    keys = good;
  }
  const seen = new Set<string>();
  // The keys without a problem of their own, which a validator can still check against a schema.
  const fine: SortKey[] = [];
  for (const sortKey of keys) {
    const path = sortKey.path.names.map((n) => n.value).join('.');
    const found = problems.length;
    const reserved = reservedNames(sortKey.path, key, 'value', value, 'Sort by');
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
    if (problems.length === found) fine.push(sortKey);
  }
  const sort: Sort = { type: 'Sort', key, value, keys };
  // Every property own, set or not: one added to Object.prototype must not read as one of them.
  if (problems.length === 0) return { sort, problems: undefined, partial: undefined };
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

/** A sort key spelled with a word for its direction: `x desc`, `x:asc`. */
const DIRECTION_WORD = /^(-?)([A-Za-z_][A-Za-z0-9_.]*?)[ :](asc|desc)$/i;


/**
 * What is wrong with one key of a sort value, `piece`, at `start` in it: the lexer's
 * first junk in it, or else the parser's first error, named with a hint for the usual
 * mistakes (a second "-", a "+" that arrived as a space, a direction spelled out).
 */
function explainKey(
  piece: string,
  start: number,
  where: Location,
  wholeValueEmpty: boolean,
  example: SortExample,
  junk: IToken | undefined,
  error: IRecognitionException | undefined,
): Diagnostic {
  const key = where.param;
  if (piece === '') {
    if (!wholeValueEmpty) return diagnostic('INVALID_SORT', `Parameter ${quote(key)} has an empty sort key.`, where, { start, end: start }, 'Join sort keys with one ",", with none at the start or the end.');
    const { query, meaning } = exampleSort(key, example);
    return diagnostic('INVALID_SORT', `Parameter ${quote(key)} names no field to sort by.`, where, { start: 0, end: 0 }, `Give the fields to sort by, joined by ",": ${query} sorts ${meaning}; no sign sorts ascending.`);
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
  // Junk before the path, and nothing else wrong: the spaces a "+" turns into.
  const spaces = junk !== undefined && junk.startOffset === start + offset && /^ +$/.test(junk.image);
  if (spaces && path.trimStart() !== '') {
    return diagnostic(
      'INVALID_SORT',
      `Parameter ${quote(key)} has the sort key ${quote(piece)}, which starts with a space.`,
      where,
      span,
      `A "+" sent unencoded arrives as a space, and no sign is needed: ${excerpt(`${key}=${path.trimStart()}`)} sorts ascending, ${excerpt(`${key}=-${path.trimStart()}`)} descending.`,
    );
  }
  const word = DIRECTION_WORD.exec(piece);
  // A path and a direction word around one space or colon, the junk.
  if (word !== null && junk !== undefined) {
    const descending = word[3]!.toLowerCase() === 'desc';
    return diagnostic(
      'INVALID_SORT',
      `Parameter ${quote(key)} has the sort key ${quote(piece)}, which spells out a direction.`,
      where,
      span,
      `The direction is a sign, not a word: write ${excerpt(`${key}=${descending ? '-' : ''}${word[2]}`)} (a leading "-" sorts descending).`,
    );
  }
  const hint = path.includes('-') ? `Only a leading "-" means descending. ${PATH_HINT}` : PATH_HINT;
  // A run no name holds (a "-" inside the path among them), or else a missing name.
  if (junk !== undefined) {
    return diagnostic(
      'INVALID_SORT',
      `Parameter ${quote(key)} has the sort key ${quote(piece)}, which is not a field path: ${quote(junk.image)} is not allowed in a name.`,
      where,
      { start: junk.startOffset, end: junk.startOffset + junk.image.length },
      hint,
    );
  }
  // A name is missing where the parser met a dot, or the key's end.
  const at = error!.token.tokenType === Dot ? error!.token.startOffset : start + piece.length;
  return diagnostic(
    'INVALID_SORT',
    `Parameter ${quote(key)} has the sort key ${quote(piece)}, which is not a field path: it has an empty name.`,
    where,
    { start: at, end: Math.min(at + 1, start + piece.length) },
    hint,
  );
}
