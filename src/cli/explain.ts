import type { Condition, DateTest, Filter, NumberTest, Page, SortField, TextTest } from '../filter/filter';
import type { Operator } from '../syntax/ast';
import { jsonQuote } from '../text/quote';
import { formatDate } from '../values/date';

/**
 * Says in plain language what each condition of a checked filter requires, one
 * sentence per condition (all of them must hold): `totalAmount is at least 100 and at
 * most 200`, `vendorName contains "acme"`, `in some line, amount is at least 10`.
 * User text is quoted as a JSON string, with every control and format character
 * escaped (`jsonQuote`), so none of them reaches the terminal raw.
 */
export function explain(filter: Filter): string[] {
  return filter.conditions.map(explainCondition);
}

/**
 * Says in plain language how the matches are ordered and paged, one sentence each:
 * `Sorted by issueDate, newest first, then by totalAmount, smallest first; items
 * without a value come last.` and `Page: 50 items from offset 100 (matches 101 to 150).`
 * None when the filter neither sorts nor pages.
 */
export function explainOrder(filter: Filter): string[] {
  const sentences: string[] = [];
  if (filter.sort.length > 0) {
    sentences.push(`Sorted by ${filter.sort.map(sortPhrase).join(', then by ')}; items without a value come last.`);
  }
  if (filter.page !== undefined) sentences.push(pagePhrase(filter.page));
  return sentences;
}

const SORT_WORDS: Record<SortField['type'], Record<SortField['direction'], string>> = {
  number: { asc: 'smallest first', desc: 'largest first' },
  date: { asc: 'oldest first', desc: 'newest first' },
  string: { asc: 'in code point order', desc: 'in reverse code point order' },
  id: { asc: 'in code point order', desc: 'in reverse code point order' },
};

function sortPhrase(field: SortField): string {
  return `${field.key}, ${SORT_WORDS[field.type][field.direction]}`;
}

function pagePhrase({ limit, offset, after }: Page): string {
  if (after !== undefined) return `Page: ${limit} item${limit === 1 ? '' : 's'} after the cursor, in this order.`;
  // In BigInt: an offset may be 2^53 - 1, past which doubles skip odd numbers.
  const first = BigInt(offset) + 1n;
  const last = BigInt(offset) + BigInt(limit);
  return `Page: ${limit} item${limit === 1 ? '' : 's'} from offset ${offset} (matches ${first} to ${last}).`;
}

function explainCondition(condition: Condition): string {
  const sentence = `${fieldName(condition)} ${joinPhrases(phrases(condition))}`;
  // A day is a UTC day: say so once, after the dates.
  const days = condition.type === 'date' && condition.tests.some((t) => t.value.unit === 'day');
  const text = days ? `${sentence} (UTC)` : sentence;
  // A child-array condition holds when one element meets all of its tests.
  return condition.array === undefined ? text : `in ${someElement(condition.array)}, ${text}`;
}

/** The field as named inside its element for a child-array field (`amount` of `lines.amount`). */
function fieldName(condition: Condition): string {
  return condition.array === undefined ? condition.field : condition.field.slice(condition.array.length + 1);
}

/**
 * "some line" for `lines`, "some entry" for `entries`; "some element of x" where the
 * singular is not plain (`cases` and `statuses` both end in "ses").
 */
function someElement(array: string): string {
  if (/ies$/.test(array)) return `some ${array.slice(0, -3)}y`;
  if (/(?:ss|x|ch|sh)es$/.test(array)) return `some ${array.slice(0, -2)}`;
  if (/[^s]s$/.test(array) && !/ses$/.test(array)) return `some ${array.slice(0, -1)}`;
  return `some element of ${array}`;
}

/** One verb phrase per test: "is at least 100", "contains "acme"". */
function phrases(condition: Condition): string[] {
  switch (condition.type) {
    case 'number':
      return condition.tests.map(numberPhrase);
    case 'date':
      return condition.tests.map(datePhrase);
    case 'string':
    case 'id':
      return condition.tests.map(textPhrase);
  }
}

/** Joins with "and", leaving out a repeated "is": "is at least 100 and at most 200". */
function joinPhrases(list: string[]): string {
  let out = '';
  for (let i = 0; i < list.length; i++) {
    const phrase = list[i]!;
    if (i === 0) out = phrase;
    else out += ` and ${list[i - 1]!.startsWith('is ') && phrase.startsWith('is ') ? phrase.slice(3) : phrase}`;
  }
  return out;
}

const NUMBER_WORDS: Record<Operator, string> = {
  eq: 'is',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
};

function numberPhrase(test: NumberTest): string {
  return `${NUMBER_WORDS[test.op]} ${String(test.value)}`;
}

/** A date-only literal is a whole UTC day, a date-time one instant (see `DateRange`): the words differ. */
const DAY_WORDS: Record<Operator, string> = { eq: 'is on', gt: 'is after', gte: 'is on or after', lt: 'is before', lte: 'is on or before' };
const INSTANT_WORDS: Record<Operator, string> = { eq: 'is at', gt: 'is after', gte: 'is at or after', lt: 'is before', lte: 'is at or before' };

function datePhrase(test: DateTest): string {
  const words = test.value.unit === 'day' ? DAY_WORDS : INSTANT_WORDS;
  return `${words[test.op]} ${formatDate(test.value)}`;
}

function textPhrase(test: TextTest): string {
  return test.op === 'eq' ? `is ${jsonQuote(test.value)}` : patternPhrase(test.segments);
}

/**
 * A `%` pattern in words. The usual shapes get their usual names; any other pattern
 * is spelled out piece by piece, because "starts with a and ends with b" would be
 * wrong for `a%b` (it needs both pieces, without overlap, in that order).
 */
function patternPhrase(segments: readonly string[]): string {
  const texts = segments.filter((s) => s !== '');
  if (texts.length === 0) return 'is any text';
  const leading = segments[0] === '';
  const trailing = segments[segments.length - 1] === '';
  if (texts.length === 1) {
    const text = jsonQuote(texts[0]!);
    if (leading && trailing) return `contains ${text}`;
    return leading ? `ends with ${text}` : `starts with ${text}`;
  }
  // Consecutive wildcards are one: `a%%b` is "a", any text, "b".
  const parts: string[] = [];
  segments.forEach((segment, i) => {
    if (i > 0 && parts[parts.length - 1] !== ANY) parts.push(ANY);
    if (segment !== '') parts.push(jsonQuote(segment));
  });
  return `matches ${parts.join(' + ')}`;
}

const ANY = 'any text';
