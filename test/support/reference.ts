import type { Condition, Filter } from '../../src/index';
import { foldCase } from '../../src/values/case';
import { readDate } from '../../src/values/date';
import { readNumber } from '../../src/values/number';

/**
 * A deliberately simple evaluator, written from reference §5 and grammar/README.md line by
 * line, with nothing of src/eval: no folding of clauses into intervals, no special
 * cases for patterns, a quadratic wildcard matcher. The property suite holds the real
 * evaluator to it. It shares with src only the value grammars (one number syntax, one
 * date syntax, one case folding), which the spec makes the same for query and data.
 */
export function referenceMatches(filter: Filter, item: unknown, caseInsensitive = false): boolean {
  return filter.conditions.every((condition) => holds(condition, item, caseInsensitive));
}

function holds(condition: Condition, item: unknown, caseInsensitive: boolean): boolean {
  const testsHold = (target: unknown): boolean => {
    const value = readPath(target, condition.path);
    return condition.tests.every((test) => passes(condition.type, test, value, caseInsensitive));
  };
  if (condition.array === undefined) return testsHold(item);
  // Child array: one element must satisfy every test of the parameter.
  const list = ownProperty(item, condition.array);
  if (!Array.isArray(list)) return false;
  for (let i = 0; i < list.length; i++) {
    if (Object.prototype.hasOwnProperty.call(list, i) && testsHold(list[i])) return true;
  }
  return false;
}

/** Only own properties, at every step. */
function ownProperty(value: unknown, name: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Object.prototype.hasOwnProperty.call(value, name)) return undefined;
  return (value as Record<string, unknown>)[name];
}

function readPath(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const name of path) current = ownProperty(current, name);
  return current;
}

type AnyTest = Condition['tests'][number];

function passes(type: Condition['type'], test: AnyTest, value: unknown, caseInsensitive: boolean): boolean {
  switch (type) {
    case 'number': {
      const n = dataNumber(value);
      if (n === undefined) return false;
      const { op, value: q } = test as { op: string; value: number };
      if (op === 'eq') return n === q;
      if (op === 'gt') return n > q;
      if (op === 'gte') return n >= q;
      if (op === 'lt') return n < q;
      return n <= q;
    }
    case 'date': {
      const t = dataInstant(value);
      if (t === undefined) return false;
      const { op, value: range } = test as { op: string; value: { start: number; end: number } };
      // A date-only literal is its whole UTC day, a date-time one millisecond.
      if (op === 'eq') return range.start <= t && t < range.end;
      if (op === 'gt') return t >= range.end;
      if (op === 'gte') return t >= range.start;
      if (op === 'lt') return t < range.start;
      return t < range.end;
    }
    case 'string':
    case 'id': {
      let s = type === 'string' ? (typeof value === 'string' ? value : undefined) : idText(value);
      if (s === undefined) return false;
      const t = test as { op: 'eq'; value: string } | { op: 'like'; segments: readonly string[] };
      if (caseInsensitive) s = foldCase(s);
      if (t.op === 'eq') return s === (caseInsensitive ? foldCase(t.value) : t.value);
      return wildcardMatch(s, t.segments.map((seg) => (caseInsensitive ? foldCase(seg) : seg)));
    }
  }
}

function dataNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const n = readNumber(value, false);
    return typeof n === 'number' ? n : undefined;
  }
  return undefined;
}

function dataInstant(value: unknown): number | undefined {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? undefined : value.getTime();
  if (typeof value === 'string') {
    // A date-time in data without an offset is UTC (reference §5); a query literal needs one.
    const read = readDate(value);
    const range = read === 'offset-missing' ? readDate(`${value}Z`) : read;
    return typeof range === 'string' ? undefined : range.start;
  }
  return undefined;
}

/** Ids compare as text: strings as they are, safe integers as their digits. */
function idText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * The textbook matcher: `matches[i][j]` says whether the first `i` characters of the
 * text match the first `j` tokens of the pattern, a token being one literal
 * character or the wildcard.
 */
export function wildcardMatch(text: string, segments: readonly string[]): boolean {
  const tokens: (string | null)[] = [];
  segments.forEach((segment, i) => {
    if (i > 0) tokens.push(null);
    for (const c of segment) tokens.push(c);
  });
  const chars = [...text];
  let previous = tokens.map(() => false);
  previous = [true, ...previous];
  for (let j = 1; j <= tokens.length; j++) previous[j] = tokens[j - 1] === null && previous[j - 1]!;
  for (let i = 1; i <= chars.length; i++) {
    const row = [false];
    for (let j = 1; j <= tokens.length; j++) {
      const token = tokens[j - 1];
      row.push(token === null ? row[j - 1]! || previous[j]! : token === chars[i - 1] && previous[j - 1]!);
    }
    previous = row;
  }
  return previous[tokens.length]!;
}
