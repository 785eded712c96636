import { checkParamsOption, ownOptions } from '../arguments/arguments';
import { capDiagnostics, diagnostic, MAX_DIAGNOSTICS, omission, type Diagnostic, type Location, type Result, type Span } from '../diagnostics/diagnostic';
import { nameList, quote } from '../text/quote';
import type { Field, FieldSpec, Schema } from '../spec/spec';
import { isComparison, type Clause, type FilterAst, type Param, type PassThroughParams, type Sort } from '../syntax/ast';
import type { ParseOptions } from '../syntax/parse';
import type { ParsedParam } from '../syntax/parsed';
import { sortOutAst } from '../syntax/params';
import { expectAst } from '../syntax/guard';
import { expectSchema } from '../spec/guard';
import { conditionOf } from '../filter/condition';
import type { Condition, DateTest, Filter, NumberTest, SortField, TextTest } from '../filter/filter';
import { checkRequest } from './request';
import { checkSort, sortExample } from './sort';
import type { CursorCodec, CursorRequest } from '../filter/cursor';
import { resolveLimits } from '../input/limits';
import { closest } from './suggest';
import { dateValue, isDiagnostic, numberValue, OR_HINT } from './values';

/** Options of `validate`. */
export interface ValidateOptions {
  /**
   * Keys passed through untouched, in addition to the schema's `params`: the same
   * option as `check`'s, for an AST parsed without knowing them.
   */
  readonly params?: ParseOptions['params'];
  /**
   * Overrides of the limits of reference §7, as `parse` and `check` take them: a parameter
   * that the tree holds as a filter but the schema sorts by is read as sort keys under
   * them (at most `maxClauses` keys), and at most `maxDiagnostics` problems are reported.
   */
  readonly limits?: ParseOptions['limits'];
}

/**
 * Checks a parsed query against a schema: every path must name a filterable field,
 * every operator and operand must suit the field's type; the sort keys must be
 * sortable fields; the request parameters must be sent when required and hold their
 * type; the page must be in range. Operands come back converted (numbers, date
 * intervals, wildcard segments). Every problem is reported.
 *
 * A filter parameter whose key is a request parameter (of the schema, or of
 * `options.params`) or the schema's sort parameter was parsed without knowing that: it
 * joins `params` with its value as sent (and the sort parameter is read as sort keys).
 */
export function validate(ast: FilterAst, schema: Schema, options?: ValidateOptions): Result<Filter> {
  expectAst('validate', ast);
  expectSchema('validate', schema);
  options = ownOptions('validate', options, ['params', 'limits']);
  checkParamsOption('validate', options?.params);
  const limits = resolveLimits(options?.limits, 'validate');
  const passThrough = options?.params === undefined ? schema.params : [...schema.params, ...options.params];
  const picked = sortOutAst(ast, passThrough, schema.sortParam, limits, () => sortExample(schema));
  const builder = new FilterBuilder(schema, picked.params, options?.params, limits.maxDiagnostics);
  builder.addAll(picked.filters);
  if (ast.sort !== undefined) builder.sortBy(ast.sort);
  return builder.result();
}

/**
 * A checked filter built one parameter at a time. `validate` adds the parameters of an
 * AST; `check` adds those that parsed and the problems of those that did not, so that
 * every problem of a query comes out, in query order.
 */
export class FilterBuilder implements CursorRequest {
  // Not private: the cursor codec's check reads them, and sets `sort` (`CursorRequest`).
  readonly errors: Diagnostic[] = [];
  /** Problems counted past `maxDiagnostics` and not kept: no more can be listed. */
  private omitted = 0;
  readonly conditions: Condition[] = [];
  sort: SortField[] = [];
  private readonly passThrough: ReadonlySet<string> | undefined;
  readonly params: PassThroughParams;

  constructor(
    readonly schema: Schema,
    params: PassThroughParams,
    passThrough?: ParseOptions['params'],
    private readonly maxDiagnostics = MAX_DIAGNOSTICS,
  ) {
    this.params = params;
    this.passThrough = passThrough === undefined ? undefined : new Set(passThrough);
  }

  /**
   * Adds the parameters of a query in order (`parseParams`' or `sortOutAst`'s outcome): the
   * parsed ones are validated, the problems of the others recorded, and the sort keys,
   * all or the well-formed ones, are held against the schema either way.
   */
  addAll(parsed: readonly ParsedParam[]): void {
    for (const entry of parsed) {
      if (entry.param !== undefined) this.add(entry.param);
      else if (entry.problems !== undefined) this.reject(entry.problems, entry.path === undefined ? undefined : { key: entry.key, path: entry.path });
      if (entry.sort !== undefined) this.sortBy(entry.sort);
    }
  }

  /** Validates one parsed filter parameter against the schema. */
  private add(param: Param): void {
    const field = resolveField(param, this.schema, this.errors);
    if (field !== undefined) {
      const condition = convert(param, field, this.errors);
      if (condition !== undefined) this.conditions.push(condition);
    }
    this.trim();
  }

  /** Checks the sort parameter's keys against the schema (its value is already among the params). */
  sortBy(sort: Sort): void {
    // Read as a sort by a parse that did not know the schema: a request parameter of its
    // own (a schema with another sortParam may declare `orderBy`), already in the params.
    if (sort.key !== this.schema.sortParam && this.isPassThrough(sort.key)) return;
    if (sort.key !== this.schema.sortParam) {
      this.errors.push(
        diagnostic(
          'UNKNOWN_FIELD',
          `Parameter ${quote(sort.key)} is not a parameter of this resource.`,
          { param: sort.key, in: 'key', text: sort.key },
          { start: 0, end: sort.key.length },
          `This resource sorts with ${this.schema.sortParam}=….`,
        ),
      );
      return;
    }
    this.sort = checkSort(sort, this.schema, this.errors);
    this.trim();
  }

  /**
   * Records the problems of a parameter that could not be parsed, after those of its key
   * against the schema when the key is a path (`nosuchfield=%acme%` is an unknown field
   * as well as a bad encoding).
   */
  reject(problems: readonly Diagnostic[], key?: Pick<Param, 'key' | 'path'>): void {
    if (key !== undefined && !this.isPassThrough(key.key) && key.key !== this.schema.sortParam) resolveField(key, this.schema, this.errors);
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

  /**
   * The filter, or the problems recorded, at most `maxDiagnostics` (reference §12): those of
   * the request parameters come last. `caseInsensitive`, when given, is carried by the filter (`check`'s option).
   */
  result(caseInsensitive?: boolean): Result<Filter> {
    let page = checkRequest(this.schema, this.params, this.errors);
    const cursor = this.schema.paging?.cursor;
    // The schema brings the cursor code (`CursorPaging`): an app whose schemas do not page by cursor bundles none of it.
    if (cursor !== undefined) page = (cursor.codec as CursorCodec).check(this, page!, caseInsensitive);
    this.trim();
    if (this.omitted > 0) {
      return { ok: false, errors: capDiagnostics([...this.errors, omission(this.omitted, this.maxDiagnostics)], this.maxDiagnostics) };
    }
    if (this.errors.length > 0) return { ok: false, errors: this.errors };
    // Set on one literal rather than spread into a copy: a spread here took 8% of a check.
    const filter: { -readonly [K in keyof Filter]: Filter[K] } = { type: 'Filter', conditions: this.conditions, params: this.params, sort: this.sort };
    if (page !== undefined) filter.page = page;
    if (caseInsensitive !== undefined) filter.caseInsensitive = caseInsensitive;
    return { ok: true, value: filter };
  }
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
    // Own properties of the spec only: `removed` on a polluted Object.prototype is not this field's.
    const removed = typeof spec !== 'string' && Object.hasOwn(spec, 'removed') ? spec.removed : undefined;
    if (removed !== undefined) {
      return diagnostic('FIELD_REMOVED', `Parameter ${quote(param.key)} names a field that can no longer be filtered.`, where, param.path.span, removed);
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
  else hint = `Filterable fields${within === undefined ? '' : ` of ${within.slice(0, -1)}`}: ${nameList(listed)}.`;
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
  return conditionOf(field, param.key, tests);
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
  const value = numberValue(text, where, clause.operand.span, false);
  if (typeof value === 'number') return { op: clause.operator, value };
  errors.push(value);
  return undefined;
}

function dateTest(clause: Clause, param: Param, where: Location, errors: Diagnostic[]): DateTest | undefined {
  const text = noWildcard(clause, param, 'date', where, errors);
  if (text === undefined) return undefined;
  const value = dateValue(text, where, clause.operand.span, false);
  if (isDiagnostic(value)) {
    errors.push(value);
    return undefined;
  }
  return { op: clause.operator, value };
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
