import { capDiagnostics, diagnostic, excerpt, MAX_DIAGNOSTICS, omission, quote, type Diagnostic, type Location, type Result, type Span } from '../diagnostics/diagnostic';
import { checkOptions } from '../diagnostics/arguments';
import type { Field, FieldSpec, Schema } from '../schema/define';
import { isComparison, type Clause, type FilterAst, type Param, type PassThroughParams } from '../syntax/ast';
import { checkParamsOption, type ParseOptions } from '../syntax/parse';
import { readDate, type DateProblem } from '../values/date';
import { readNumber, type NumberProblem } from '../values/number';
import { expectAst, expectSchema } from './arguments';
import type { Condition, DateTest, Filter, NumberTest, TextTest } from './filter';
import { closest } from './suggest';

/** Options of `validate`. */
export interface ValidateOptions {
  /**
   * Keys passed through untouched, in addition to the schema's `params`: the same
   * option as `check`'s, for an AST parsed without knowing them.
   */
  readonly params?: ParseOptions['params'];
}

/**
 * Checks a parsed query against a schema: every path must name a filterable field,
 * every operator and operand must suit the field's type. Operands come back converted
 * (numbers, date intervals, wildcard segments). Every problem is reported.
 *
 * A filter parameter whose key is a pass-through parameter (of the schema, or of
 * `options.params`) was parsed without knowing that: it joins `params` with its value
 * as sent.
 */
export function validate(ast: FilterAst, schema: Schema, options?: ValidateOptions): Result<Filter> {
  expectAst('validate', ast);
  expectSchema('validate', schema);
  checkOptions('validate', options, ['params']);
  checkParamsOption('validate', options?.params);
  const builder = new FilterBuilder(schema, ast.params, options?.params);
  for (const param of ast.filters) builder.add(param);
  return builder.result();
}

/**
 * A checked filter built one parameter at a time. `validate` adds the parameters of an
 * AST; `check` adds those that parsed and the problems of those that did not, so that
 * every problem of a query comes out, in query order.
 */
export class FilterBuilder {
  private readonly errors: Diagnostic[] = [];
  /** Problems counted past `maxDiagnostics` and not kept: no more can be listed. */
  private omitted = 0;
  private readonly conditions: Condition[] = [];
  private readonly passThrough: ReadonlySet<string> | undefined;
  private params: PassThroughParams;

  constructor(
    private readonly schema: Schema,
    params: PassThroughParams,
    passThrough?: ParseOptions['params'],
    private readonly maxDiagnostics = MAX_DIAGNOSTICS,
  ) {
    this.params = params;
    this.passThrough = passThrough === undefined ? undefined : new Set(passThrough);
  }

  /** Validates one parsed parameter, or passes it through when it is a request parameter. */
  add(param: Param): void {
    if (this.isPassThrough(param.key)) {
      this.params = withParam(this.params, param.key, param.value);
      return;
    }
    const field = resolveField(param, this.schema, this.errors);
    if (field !== undefined) {
      const condition = convert(param, field, this.errors);
      if (condition !== undefined) this.conditions.push(condition);
    }
    this.trim();
  }

  /**
   * Records the problems of a parameter that could not be parsed, after those of its key
   * against the schema when the key is a path (`nosuchfield=%acme%` is an unknown field
   * as well as a bad encoding).
   */
  reject(problems: readonly Diagnostic[], key?: Pick<Param, 'key' | 'path'>): void {
    if (key !== undefined && !this.isPassThrough(key.key)) resolveField(key, this.schema, this.errors);
    for (const d of problems) this.errors.push(d);
    this.trim();
  }

  private isPassThrough(key: string): boolean {
    return this.schema.params.has(key) || this.passThrough?.has(key) === true;
  }

  /** Keeps at most `maxDiagnostics` problems alive, counting the others (a summary counts what it summed). */
  private trim(): void {
    const { errors, maxDiagnostics } = this;
    if (errors.length <= maxDiagnostics) return;
    for (let i = maxDiagnostics; i < errors.length; i++) this.omitted += errors[i]!.omitted ?? 1;
    errors.length = maxDiagnostics;
  }

  /** The filter, or the problems recorded (at most `maxDiagnostics`, SPEC §12). */
  result(): Result<Filter> {
    if (this.omitted > 0) return { ok: false, errors: capDiagnostics([...this.errors, omission(this.omitted, this.maxDiagnostics)], this.maxDiagnostics) };
    if (this.errors.length > 0) return { ok: false, errors: this.errors };
    return { ok: true, value: { type: 'Filter', conditions: this.conditions, params: this.params } };
  }
}

function withParam(params: PassThroughParams, key: string, value: string): PassThroughParams {
  // Own properties only: a parameter named "toString" must not find Object.prototype's.
  const previous = Object.hasOwn(params, key) ? params[key] : undefined;
  const next = previous === undefined ? value : typeof previous === 'string' ? [previous, value] : [...previous, value];
  return { ...params, [key]: next };
}

// ---------------------------------------------------------------- paths

/** The field a parameter's path names, or `undefined` after reporting why there is none. */
function resolveField(param: Pick<Param, 'key' | 'path'>, schema: Schema, errors: Diagnostic[]): Field | undefined {
  const field = schema.fields.get(param.key);
  const where: Location = { param: param.key, in: 'key', text: param.key };
  if (field !== undefined && field.removed === undefined) return field;
  if (field !== undefined) {
    errors.push(
      diagnostic(
        'FIELD_REMOVED',
        `Parameter ${quote(param.key)} names a field that can no longer be filtered.`,
        where,
        param.path.span,
        field.removed,
      ),
    );
    return undefined;
  }
  errors.push(explainPath(param, schema, where));
  return undefined;
}

/** Walks the schema along the path to say exactly where it goes wrong. */
function explainPath(param: Pick<Param, 'key' | 'path'>, schema: Schema, where: Location): Diagnostic {
  const names = param.path.names;
  let level: Readonly<Record<string, FieldSpec>> = schema.spec.fields;
  let prefix = '';
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const rest: Span = { start: name.span.start, end: param.path.span.end };
    const spec = Object.hasOwn(level, name.value) ? level[name.value] : undefined;
    if (spec === undefined) return unknownField(param, schema, where, rest, prefix === '' ? undefined : prefix);
    const type = typeof spec === 'string' ? spec : spec.type;
    const path = prefix + name.value;
    const last = i === names.length - 1;
    if (typeof spec !== 'string' && spec.removed !== undefined) {
      return diagnostic('FIELD_REMOVED', `Parameter ${quote(param.key)} names a field that can no longer be filtered.`, where, param.path.span, spec.removed);
    }
    if (type === 'ref') {
      if (last) {
        return diagnostic(
          'INVALID_PATH',
          `Parameter ${quote(param.key)} names an object, which cannot be compared as a whole.`,
          where,
          param.path.span,
          `Filter on its id: ${path}.id.`,
        );
      }
      const next = names[i + 1]!;
      if (next.value !== 'id') {
        return diagnostic(
          'SUBPROPERTY_NOT_FILTERABLE',
          `Parameter ${quote(param.key)} names a sub-property of ${quote(path)}, but only its id can be filtered.`,
          where,
          { start: next.span.start, end: param.path.span.end },
          `Filter on ${path}.id.`,
        );
      }
      return noSubProperties(param, where, `${path}.id`, names[i + 2]!.span);
    }
    if (type === 'array') {
      const of = (spec as { of: Readonly<Record<string, FieldSpec>> }).of;
      if (last) {
        const example = [...schema.fields.values()].find((f) => f.array === path && f.removed === undefined);
        return diagnostic(
          'INVALID_PATH',
          `Parameter ${quote(param.key)} names a list, which cannot be compared as a whole.`,
          where,
          param.path.span,
          example === undefined ? `Filter on a field of its elements.` : `Filter on a field of its elements, e.g. ${example.path}.`,
        );
      }
      level = of;
      prefix = `${path}.`;
      continue;
    }
    return noSubProperties(param, where, path, names[i + 1]!.span);
  }
  // Every path the walk accepts is in schema.fields, so the loop always returns.
  return unknownField(param, schema, where, param.path.span, undefined);
}

/** `totalAmount.x`: points at the names after the field (`x`), as the other path diagnostics do. */
function noSubProperties(param: Pick<Param, 'key' | 'path'>, where: Location, path: string, extra: Span): Diagnostic {
  return diagnostic(
    'UNKNOWN_FIELD',
    `Parameter ${quote(param.key)} is not a field: ${quote(path)} has no sub-properties.`,
    where,
    { start: extra.start, end: param.path.span.end },
    `Filter on ${path} itself.`,
  );
}

function unknownField(param: Pick<Param, 'key' | 'path'>, schema: Schema, where: Location, span: Span, within: string | undefined): Diagnostic {
  const filterable = [...schema.fields.values()].filter((f) => f.removed === undefined).map((f) => f.path);
  // A misspelt request parameter (limt=10) is as likely as a misspelt field.
  const suggestion = closest(param.key, [...filterable, ...schema.params]);
  const listed = within === undefined ? filterable : filterable.filter((p) => p.startsWith(within));
  let hint: string;
  if (suggestion !== undefined) hint = `Did you mean ${suggestion}?`;
  else if (/^or$/i.test(param.key)) hint = OR_HINT;
  else if (listed.length === 0) hint = 'This resource has no filterable fields.';
  else hint = `Filterable fields${within === undefined ? '' : ` of ${within.slice(0, -1)}`}: ${listed.join(', ')}.`;
  return diagnostic('UNKNOWN_FIELD', `Parameter ${quote(param.key)} is not a filterable field of this resource.`, where, span, hint);
}

// ---------------------------------------------------------------- values

function convert(param: Param, field: Field, errors: Diagnostic[]): Condition | undefined {
  const where: Location = { param: param.key, in: 'value', text: param.value };
  const before = errors.length;
  let tests: Condition['tests'];
  switch (field.type) {
    case 'number':
      tests = collect(param.clauses, (c) => numberTest(c, param, where, errors));
      break;
    case 'date':
      tests = collect(param.clauses, (c) => dateTest(c, param, where, errors));
      break;
    case 'string':
    case 'id':
      tests = collect(param.clauses, (c) => textTest(c, param, field, where, errors));
      break;
  }
  if (errors.length !== before) return undefined;
  // One object literal per shape, no spreads: check runs this for every parameter of every request.
  const { type, path: fieldPath, array, names } = field;
  const condition =
    array === undefined
      ? { type, key: param.key, field: fieldPath, path: names, tests }
      : { type, key: param.key, field: fieldPath, array, path: names, tests };
  return condition as Condition;
}

function collect<T>(clauses: readonly Clause[], test: (clause: Clause) => T | undefined): T[] {
  const tests: T[] = [];
  for (const clause of clauses) {
    const t = test(clause);
    if (t !== undefined) tests.push(t);
  }
  return tests;
}

function noWildcard(clause: Clause, param: Param, kind: string, where: Location, errors: Diagnostic[]): string | undefined {
  if (clause.operand.type === 'Literal') return clause.operand.value;
  errors.push(
    diagnostic(
      'WILDCARD_NOT_SUPPORTED',
      `Parameter ${quote(param.key)} is a ${kind} field, and the "%" wildcard only works on text.`,
      where,
      clause.operand.span,
      `Compare ${kind}s with =, gt:, gte:, lt: or lte:, e.g. ${param.key}=gte:${kind === 'number' ? '100' : '2023-01-01'}.`,
    ),
  );
  return undefined;
}

function numberTest(clause: Clause, param: Param, where: Location, errors: Diagnostic[]): NumberTest | undefined {
  const text = noWildcard(clause, param, 'number', where, errors);
  if (text === undefined) return undefined;
  const value = readNumber(text, true);
  if (typeof value === 'number') return { op: clause.operator, value };
  errors.push(
    diagnostic(
      'INVALID_NUMBER',
      `Parameter ${quote(param.key)} needs a number, not ${quote(text)}${NUMBER_PROBLEMS[value]}.`,
      where,
      clause.operand.span,
      (value === 'syntax' ? separatorHint(text) : undefined) ?? valueHint(text) ?? (value === 'syntax' ? plusHint(text) : undefined) ?? NUMBER_HINTS[value],
    ),
  );
  return undefined;
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

function dateTest(clause: Clause, param: Param, where: Location, errors: Diagnostic[]): DateTest | undefined {
  const text = noWildcard(clause, param, 'date', where, errors);
  if (text === undefined) return undefined;
  const value = readDate(text);
  if (typeof value !== 'string') return { op: clause.operator, value };
  errors.push(
    diagnostic(
      'INVALID_DATE',
      `Parameter ${quote(param.key)} needs a date, not ${quote(text)}${DATE_PROBLEMS[value]}.`,
      where,
      clause.operand.span,
      (value === 'syntax' ? valueHint(text) : undefined) ?? DATE_HINTS[value],
    ),
  );
  return undefined;
}

const DATE_PROBLEMS: Record<DateProblem, string> = {
  syntax: '',
  calendar: ' (no such day or time)',
  'offset-missing': ' (a date-time needs a time zone offset)',
  'offset-space': ' (the offset has a space where its "+" should be)',
  range: ' (outside the years 0000 to 9999)',
};

const DATE_HINTS: Record<DateProblem, string> = {
  syntax: 'Write a date as YYYY-MM-DD, or a date-time as YYYY-MM-DDThh:mm[:ss[.fff]] with Z or an offset such as +01:00.',
  calendar: 'Use a real calendar date and a time from 00:00:00 to 23:59:59.',
  'offset-missing': 'End the date-time with Z (UTC) or an offset such as +01:00.',
  'offset-space':
    'A "+" in a query string means a space: send the offset\'s plus sign encoded as %2B (2023-01-09T10:00:00%2B01:00), or use Z.',
  range: 'Use an instant between 0000-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.',
};

const OR_HINT = 'There is no OR: "|", "," and or=(…) are not operators. Send each alternative as its own request.';

/** Hints that hold for any number or date text: upper-case operators, unknown operators, OR attempts. */
function valueHint(text: string): string | undefined {
  const prefix = /^([A-Za-z]+):/.exec(text)?.[1];
  if (prefix !== undefined) {
    const lower = prefix.toLowerCase();
    if (lower === 'gt' || lower === 'gte' || lower === 'lt' || lower === 'lte') {
      return `Operators are lower case: write ${excerpt(`${lower}:${text.slice(prefix.length + 1)}`)}, not ${excerpt(text)}.`;
    }
    return `${quote(`${prefix}:`)} is not an operator: the operators are gt:, gte:, lt: and lte:, and equality has no prefix.`;
  }
  if (/[|,]/.test(text)) return OR_HINT;
  return undefined;
}

function textTest(clause: Clause, param: Param, field: Field, where: Location, errors: Diagnostic[]): TextTest | undefined {
  if (isComparison(clause.operator)) {
    const kind = field.type === 'id' ? 'an id' : 'text';
    errors.push(
      diagnostic(
        'OPERATOR_NOT_SUPPORTED',
        `Parameter ${quote(param.key)} is compared with ${clause.operator}:, which does not work on ${kind}.`,
        where,
        { start: clause.span.start, end: clause.operand.span.start },
        `${kind === 'text' ? 'Text' : 'An id'} supports only equality and the "%" wildcard, sent as %25: ${param.key}=abc%25 starts with "abc", ${param.key}=%25abc%25 contains it.`,
      ),
    );
    return undefined;
  }
  return clause.operand.type === 'Literal'
    ? { op: 'eq', value: clause.operand.value }
    : { op: 'like', segments: clause.operand.segments };
}
