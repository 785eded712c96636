import { diagnostic, type Diagnostic, type Location, type Span } from '../diagnostics/diagnostic';
import { excerpt, quote } from '../text/quote';
import { DATE_PROBLEMS, readDate, type DateProblem, type DateRange } from '../values/date';
import { readNumber, type NumberProblem } from '../values/number';

/**
 * Number and date operands read for the validator, with the diagnostic of a bad one:
 * one wording for a filter's operand and a request parameter's value alike. A request
 * parameter (`plain`) takes a plain value, so an operator in it gets its own hint.
 */

/**
 * True for the diagnostic that `numberValue` or `dateValue` gives back instead of a
 * value: its `code` is its own, never one a polluted `Object.prototype` lends a date range.
 */
export function isDiagnostic(value: object): value is Diagnostic {
  return Object.hasOwn(value, 'code');
}

/** The number an operand or parameter value says, or the diagnostic of why it is not one. */
export function numberValue(text: string, where: Location, span: Span, plain: boolean): number | Diagnostic {
  const value = readNumber(text, true);
  if (typeof value === 'number') return value;
  return diagnostic(
    'INVALID_NUMBER',
    `Parameter ${quote(where.param)} needs a number, not ${quote(text)}${NUMBER_PROBLEMS[value]}.`,
    where,
    span,
    (value === 'syntax' ? separatorHint(text) : undefined) ?? valueHint(text, where.param, plain) ?? (value === 'syntax' ? plusHint(text) : undefined) ?? NUMBER_HINTS[value],
  );
}

/** The date range an operand or parameter value says, or the diagnostic of why it is not one. */
export function dateValue(text: string, where: Location, span: Span, plain: boolean): DateRange | Diagnostic {
  const value = readDate(text);
  if (typeof value !== 'string') return value;
  return diagnostic(
    'INVALID_DATE',
    `Parameter ${quote(where.param)} needs a date, not ${quote(text)}${DATE_PROBLEMS[value]}.`,
    where,
    span,
    (value === 'syntax' ? valueHint(text, where.param, plain) : undefined) ?? dateHint(value, text),
  );
}

/**
 * `1,000` and `12,345.50` have thousands separators rather than a "," meant as OR (which
 * `1,2` gets): say so, and what to write.
 */
function separatorHint(text: string): string | undefined {
  if (!/^-?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(text)) return undefined;
  return `Write a number without thousands separators: ${excerpt(text.replaceAll(',', ''))}.`;
}

/** `+5` or `1e+5` sent unencoded arrive as ` 5` and `1e 5`: say why, and what to write. */
function plusHint(text: string): string | undefined {
  const fixed = text.replace(/^ (?=\d)/, '').replace(/(?<=\d[eE]) (?=\d)/, '');
  if (fixed === text || typeof readNumber(fixed, true) !== 'number') return undefined;
  return `A "+" sent unencoded arrives as a space, and a number needs none: write ${excerpt(fixed)}.`;
}

const NUMBER_PROBLEMS: Record<NumberProblem, string> = {
  syntax: '',
  range: ' (it is too large to be finite)',
  precision: ' (an integer beyond ±2^53 cannot be compared exactly)',
};

const NUMBER_HINTS: Record<NumberProblem, string> = {
  syntax: 'Write a number such as 100, -2.5 or 1.5e3: no spaces, no thousands separators, no leading zeros or "+".',
  range: 'Use a number within the range of a double (about ±1.8e308).',
  precision: 'Integers are compared exactly only up to ±9007199254740992 (2^53); use a value in that range.',
};

/** The hint for a date that does not read: the user's own value, mended, where the problem is in its offset. */
function dateHint(problem: DateProblem, text: string): string {
  if (problem === 'offset-space') return `A "+" in a query string means a space: send the offset's plus sign encoded as %2B (${sentOffset(text)}), or use Z.`;
  if (problem === 'offset-colon') return `Write the offset with a colon: ${sentOffset(text)}.`;
  return DATE_HINTS[problem];
}

/**
 * A date-time whose offset `readDate` refused for its form alone, as it should be sent:
 * a colon in the offset, its "+" (or the space a "+" became) as %2B.
 */
function sentOffset(text: string): string {
  return excerpt(text.replace(/[ +-](\d\d):?(\d\d)$/, (offset, hh: string, mm: string) => `${offset.startsWith('-') ? '-' : '%2B'}${hh}:${mm}`));
}

const DATE_HINTS: Record<Exclude<DateProblem, 'offset-space' | 'offset-colon'>, string> = {
  syntax:
    'Write a date as YYYY-MM-DD, or a date-time as YYYY-MM-DDThh:mm, YYYY-MM-DDThh:mm:ss or YYYY-MM-DDThh:mm:ss.fffffffff (1 to 9 fraction digits) with Z or an offset such as +01:00.',
  fraction: 'A fraction of a second has 1 to 9 digits (.5, .123, .123456789), compared to the millisecond: digits past the third are dropped.',
  calendar: 'Use a real calendar date and a time from 00:00:00 to 23:59:59.',
  'offset-missing': 'End the date-time with Z (UTC) or an offset such as +01:00.',
  'offset-range': 'An offset is at most ±23:59 (+01:00, -05:00), or use Z.',
  range: 'Use an instant between 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.',
};

/** The hint that there is no OR, for values that try one. */
export const OR_HINT = 'There is no OR: "|", "," and or=(…) are not operators. Send each alternative as its own request.';

/** Hints that hold for any number or date text: upper-case operators, unknown operators, OR attempts. */
function valueHint(text: string, key: string, plain: boolean): string | undefined {
  const prefix = /^([A-Za-z]+):/.exec(text)?.[1];
  if (prefix !== undefined) {
    const lower = prefix.toLowerCase();
    const operator = lower === 'gt' || lower === 'gte' || lower === 'lt' || lower === 'lte';
    const rest = text.slice(prefix.length + 1);
    if (plain && operator) return `${key} is a request parameter: it takes a plain value, with no operator (${excerpt(`${key}=${rest}`)}).`;
    if (operator) return `Operators are lower case: write ${excerpt(`${lower}:${rest}`)}, not ${excerpt(text)}.`;
    return `${quote(`${prefix}:`)} is not an operator: the operators are gt:, gte:, lt: and lte:, and equality has no prefix.`;
  }
  if (/[|,]/.test(text)) return OR_HINT;
  return undefined;
}
