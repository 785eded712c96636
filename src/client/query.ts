import type { DateTest, Filter, NumberTest, SortField, TextTest } from '../filter/filter';
import { conditionOf } from '../filter/condition';
import { formatChecked } from '../filter/format';
import type { CursorCodec } from '../filter/cursor';
import { DATE_PROBLEMS, type DateRange, formatDate, instantOf, readDate } from '../values/date';
import { CURSOR_PARAM, sortableFields, type Field, type FieldValueTypes, type InferFields, type InferParams, type InferSortable, type PagingSpec, type Schema, type SchemaSpec } from '../spec/spec';
import { OPERATORS, SORT_DIRECTIONS, type Operator, type SortDirection } from '../syntax/ast';
import { formatNumber } from '../values/number';
import { expectSchema } from '../spec/guard';
import { describe } from '../arguments/arguments';
import { sendable, shown } from './literal';

/**
 * The typed query builder of reference §11. It writes the query from its own calls, with the
 * printer `format` uses and the value readers `check` uses, and never parses: an app that
 * only builds queries bundles no Chevrotain (docs/client.md).
 */

/** The operators of `where` that match text by a `%` pattern: the builder writes the wildcards. */
export const PATTERN_OPERATORS = ['contains', 'startsWith', 'endsWith'] as const;
/** An operator of `where` that builds a pattern. */
export type PatternOperator = (typeof PATTERN_OPERATORS)[number];
/**
 * Every operator of `where`: the comparisons of the language and the three patterns
 * (written out, not spread, as `OPERATORS` is: see there).
 */
export const WHERE_OPERATORS = ['eq', 'gt', 'gte', 'lt', 'lte', 'contains', 'startsWith', 'endsWith'] as const satisfies readonly [
  ...typeof OPERATORS,
  ...typeof PATTERN_OPERATORS,
];
/** An operator of `where`. */
export type WhereOperator = (typeof WHERE_OPERATORS)[number];

/** The operators `where` takes on a field of type `T`: comparisons on numbers and dates, equality and patterns on text and ids. */
export type OperatorsOf<T> = T extends 'number' | 'date' ? Operator : T extends 'string' | 'id' ? 'eq' | PatternOperator : never;

/** The value `where` takes on a field of type `T` with operator `O`: a pattern takes text, the rest the field's value type. */
export type WhereValue<T, O> = O extends PatternOperator ? string : T extends keyof FieldValueTypes ? FieldValueTypes[T] : never;

/** The value `param` takes for a request parameter of type `T`. */
export type ParamValue<T> = T extends keyof FieldValueTypes ? FieldValueTypes[T] : never;

/** Whether `S` is no particular spec (a `Schema` whose spec type is not known): then the checks are all at run time. */
type Unknown<S> = SchemaSpec extends S ? true : false;

/** The sort paths of `S`, any string when `S` is not known. */
type SortPathOf<S extends SchemaSpec> = Unknown<S> extends true ? string : keyof InferSortable<S> & string;

/** The request parameter names of `S`, any string when `S` is not known. */
type ParamNameOf<S extends SchemaSpec> = Unknown<S> extends true ? string : keyof InferParams<S> & string;

/** The value of request parameter `N` of `S`, any parameter value when `S` is not known. */
type ParamValueOf<S extends SchemaSpec, N> = Unknown<S> extends true
  ? string | number | Date
  : N extends keyof InferParams<S>
    ? ParamValue<InferParams<S>[N]>
    : never;

/** `T` when the schema pages its results (or may: a schema whose spec type is not known), `never` when it does not. */
type Paged<S, T> = S extends { readonly paging?: undefined } ? never : S extends { readonly paging?: PagingSpec } ? T : never;

/** `T` when the schema pages by cursor (or may: a schema whose spec type is not known), `never` when it does not. */
type Cursored<S extends SchemaSpec, T> = Unknown<S> extends true ? T : S extends { readonly paging: { readonly cursor: { readonly key: string } } } ? T : never;

/**
 * An immutable query on one resource: every method returns a new query and leaves this
 * one as it was. Paths, operators, values, sort keys and request parameters are typed from
 * the schema; a call that TypeScript would refuse, made from plain JavaScript, throws a
 * `TypeError` that names the mistake.
 */
export interface Query<S extends SchemaSpec = SchemaSpec> {
  /**
   * One more condition on a filterable path, all of which must hold. Every condition on
   * one path goes into one parameter, so on a child array (`lines.amount`) they hold for
   * the same element. Numbers and dates compare with `eq`, `gt`, `gte`, `lt`, `lte`
   * (a date is a `Date` or an ISO string: `2023-01-09` is that whole UTC day); text and
   * ids with `eq` (exact), `contains`, `startsWith`, `endsWith`.
   */
  where<P extends keyof InferFields<S> & string, O extends OperatorsOf<InferFields<S>[P]>>(
    path: P,
    operator: O,
    value: WhereValue<InferFields<S>[P], O>,
  ): Query<S>;
  /** Sorts by one more sortable field (`asc` unless told): the first key decides, the next ones break ties. */
  orderBy(path: SortPathOf<S>, direction?: SortDirection): Query<S>;
  /** The page size: a whole number from 1 to the schema's `maxLimit`. */
  limit(count: Paged<S, number>): Query<S>;
  /** How many matches to skip: a whole number, 0 or more. */
  offset(count: Paged<S, number>): Query<S>;
  /**
   * The page after a cursor (`after`, reference §9): the `nextCursor` the server sent
   * with the previous page of this same query. Only on a schema with cursor paging (a type
   * error on any other), never with `offset`.
   */
  after(cursor: Cursored<S, string>): Query<S>;
  /** Sets a declared request parameter (`businessName`, `startDate`…), replacing an earlier value. */
  param<N extends ParamNameOf<S>>(name: N, value: ParamValueOf<S, N>): Query<S>;
  /** The canonical query string, to append after `?`: what `format(this.toFilter())` prints. */
  toString(): string;
  /** The checked filter this query stands for: `check(this.toString(), schema)` gives an equal one. */
  toFilter(): Filter;
}

/**
 * Starts a query on the resource of `schema`:
 *
 * ```ts
 * query(invoices).where('totalAmount', 'gte', 100).where('invoiceNumber', 'contains', 'acme & sons').orderBy('postedDate', 'desc').limit(50).toString()
 * // 'orderBy=-postedDate&limit=50&totalAmount=gte:100&invoiceNumber=%25acme%20%26%20sons%25'
 * ```
 */
export function query<S extends SchemaSpec>(schema: Schema<S>): Query<S> {
  expectSchema('query', schema);
  return new QueryBuilder({ schema, wheres: [], sort: [], params: {} }) as unknown as Query<S>;
}

type Test = NumberTest | DateTest | TextTest;

/** Everything a query holds; each call copies it with one change. */
interface State {
  readonly schema: Schema;
  /** One entry per path, in the order of the first `where` on it. */
  readonly wheres: readonly { readonly field: Field; readonly tests: readonly Test[] }[];
  readonly sort: readonly SortField[];
  /** Declared request parameters, as they will be sent. */
  readonly params: Readonly<Record<string, string>>;
  readonly limit?: number;
  readonly offset?: number;
  readonly after?: string;
}

class QueryBuilder {
  constructor(private readonly state: State) {
    // Its optional fields (limit, offset, after) are its own or none: a polluted Object.prototype's are no query's.
    Object.setPrototypeOf(state, null);
    Object.freeze(this);
  }

  /** Its name in messages (`not a QueryBuilder`), which a minifier would shorten. */
  get [Symbol.toStringTag](): string {
    return 'QueryBuilder';
  }

  where(path: unknown, operator: unknown, value: unknown): QueryBuilder {
    const call = `where(${shown(path)}, ${shown(operator)}, …)`;
    const field = this.field(path, call);
    const test = Object.freeze(testOf(field, operator, value, call));
    const wheres = [...this.state.wheres];
    const at = wheres.findIndex((w) => w.field === field);
    if (at === -1) wheres.push({ field, tests: [test] });
    else wheres[at] = { field, tests: [...wheres[at]!.tests, test] };
    return this.with({ wheres });
  }

  orderBy(path: unknown, direction: unknown = 'asc'): QueryBuilder {
    const { schema, sort } = this.state;
    const call = `orderBy(${shown(path)}, ${shown(direction)})`;
    const field = typeof path === 'string' ? schema.fields.get(path) : undefined;
    if (field === undefined || !field.sortable) {
      const sortable = sortableFields(schema).map((f) => f.path);
      const what = field === undefined ? 'is not a field of this schema' : 'is not sortable';
      throw new TypeError(`${call}: ${typeof path === 'string' ? JSON.stringify(path) : describe(path)} ${what}${sortable.length === 0 ? '; nothing sorts' : `; sortable: ${sortable.join(', ')}`}.`);
    }
    if (!(SORT_DIRECTIONS as readonly unknown[]).includes(direction)) throw new TypeError(`${call}: the direction is "asc" or "desc", not ${describe(direction)}.`);
    if (sort.some((s) => s.key === field.path)) throw new TypeError(`${call}: the query already sorts by "${field.path}"; each field sorts once.`);
    const key: SortField = Object.freeze({ key: field.path, path: field.names, direction: direction as SortDirection, type: field.type });
    return this.with({ sort: [...sort, key] });
  }

  limit(count: unknown): QueryBuilder {
    const paging = this.paging('limit');
    return this.with({ limit: whole(count, 1, paging.maxLimit, `limit(${shown(count)})`) });
  }

  offset(count: unknown): QueryBuilder {
    const call = `offset(${shown(count)})`;
    this.paging(call, this.state.after);
    return this.with({ offset: whole(count, 0, Number.MAX_SAFE_INTEGER, call) });
  }

  after(cursor: unknown): QueryBuilder {
    // A cursor is opaque and may be long: the message does not repeat it.
    if (this.paging('after(…)', this.state.offset).cursor === undefined || typeof cursor !== 'string' || cursor === '') {
      throw new TypeError('after(…): takes a cursor, on a schema that pages by cursor.');
    }
    return this.with({ after: cursor });
  }

  param(name: unknown, value: unknown): QueryBuilder {
    const { schema, params } = this.state;
    const call = `param(${shown(name)}, …)`;
    const param = typeof name === 'string' ? schema.requestParams.get(name) : undefined;
    if (param === undefined) {
      const declared = [...schema.requestParams.keys()];
      const instead = name === schema.sortParam ? ' Sort with orderBy().' : name === 'limit' || name === 'offset' ? ` Page with ${name}().` : '';
      throw new TypeError(
        `${call}: ${typeof name === 'string' ? JSON.stringify(name) : describe(name)} is not a request parameter of this schema${declared.length === 0 ? '' : ` (declared: ${declared.join(', ')})`}.${instead}`,
      );
    }
    let text: string;
    if (param.type === 'number') text = formatNumber(finite(value, call));
    else if (param.type === 'date') text = formatDate(dateRange(value, call));
    else text = sendable(value, call);
    return this.with({ params: { ...params, [param.name]: text } });
  }

  toFilter(): Filter {
    const { schema, wheres, limit, offset, after } = this.state;
    const conditions = wheres.map(({ field, tests }) => conditionOf(field, field.path, [...tests]));
    // Request parameters as sent: the sort and the page are among them, as check keeps them.
    const params: Record<string, string> = { ...this.state.params };
    if (this.state.sort.length > 0) params[schema.sortParam] = this.state.sort.map((s) => (s.direction === 'desc' ? `-${s.key}` : s.key)).join(',');
    if (limit !== undefined) params.limit = String(limit);
    if (offset !== undefined) params.offset = String(offset);
    if (after !== undefined) params[CURSOR_PARAM] = after;
    const filter: Filter = { type: 'Filter', conditions, params, sort: [...this.state.sort] };
    if (schema.paging === undefined) return filter;
    const page = { limit: limit ?? schema.paging.defaultLimit, offset: offset ?? 0 };
    // The schema brings the cursor code (`CursorPaging`): an app whose schemas do not page by cursor bundles none of it.
    const codec = schema.paging.cursor?.codec as CursorCodec | undefined;
    return codec === undefined ? { ...filter, page } : codec.filter(schema, filter, page, after);
  }

  toString(): string {
    return formatChecked(this.toFilter());
  }

  private with(change: Partial<State>): QueryBuilder {
    return new QueryBuilder({ ...this.state, ...change });
  }

  private field(path: unknown, call: string): Field {
    const field = typeof path === 'string' ? this.state.schema.fields.get(path) : undefined;
    if (field !== undefined && field.removed === undefined) return field;
    if (field !== undefined) throw new TypeError(`${call}: "${field.path}" can no longer be filtered. ${field.removed}`);
    const filterable = [...this.state.schema.fields.values()].filter((f) => f.removed === undefined).map((f) => f.path);
    throw new TypeError(
      `${call}: ${typeof path === 'string' ? JSON.stringify(path) : describe(path)} is not a filterable path of this schema${filterable.length === 0 ? '' : ` (filterable: ${filterable.join(', ')})`}.`,
    );
  }

  /** The schema's paging; `other` is the page already set the other way (`offset` or `after`): a query pages by one. */
  private paging(method: string, other?: unknown): NonNullable<Schema['paging']> {
    const paging = this.state.schema.paging;
    if (paging === undefined) throw new TypeError(`${method}: this schema does not page its results (it has no "paging").`);
    if (other !== undefined) throw new TypeError(`${method}: a query pages by offset or by cursor (after), not both.`);
    return paging;
  }
}

const ORDERED: readonly unknown[] = OPERATORS;
const TEXTUAL: readonly unknown[] = ['eq', 'contains', 'startsWith', 'endsWith'] as const satisfies readonly ['eq', ...typeof PATTERN_OPERATORS];

/** The test one `where` call adds, its value converted as `check` converts an operand. */
function testOf(field: Field, operator: unknown, value: unknown, call: string): Test {
  const numeric = field.type === 'number' || field.type === 'date';
  if (!(numeric ? ORDERED : TEXTUAL).includes(operator)) {
    const allowed = numeric ? 'eq, gt, gte, lt or lte' : 'eq, contains, startsWith or endsWith';
    const kind = field.type === 'id' ? 'id' : `${field.type} field`;
    const what = (WHERE_OPERATORS as readonly unknown[]).includes(operator) ? 'does not work on' : 'is not an operator, on';
    throw new TypeError(`${call}: ${typeof operator === 'string' ? JSON.stringify(operator) : describe(operator)} ${what} the ${kind} "${field.path}"; use ${allowed}.`);
  }
  const op = operator as WhereOperator;
  if (field.type === 'number') return { op: op as Operator, value: finite(value, call) + 0 };
  if (field.type === 'date') return { op: op as Operator, value: Object.freeze(dateRange(value, call)) };
  const text = field.type === 'id' && op === 'eq' && typeof value === 'number' ? idNumber(value, call) : sendable(value, call);
  switch (op) {
    case 'contains':
      return { op: 'like', segments: ['', text, ''] };
    case 'startsWith':
      return { op: 'like', segments: [text, ''] };
    case 'endsWith':
      return { op: 'like', segments: ['', text] };
    default:
      return { op: 'eq', value: text };
  }
}

function finite(value: unknown, call: string): number {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  throw new TypeError(`${call}: expected a finite number, not ${describe(value)}.`);
}

/** An id given as a number is its decimal digits, as ref ids in data are compared. */
function idNumber(value: number, call: string): string {
  if (Number.isSafeInteger(value)) return String(value);
  throw new TypeError(`${call}: an id given as a number must be a safe integer, not ${describe(value)}; pass other ids as strings.`);
}

function whole(value: unknown, min: number, max: number, call: string): number {
  if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
  throw new TypeError(`${call}: expected a whole number from ${min} to ${max}, not ${describe(value)}.`);
}

/**
 * A date operand: a valid `Date` (that instant, to the millisecond), or a string in the
 * date syntax of reference §4 (`2023-01-09` is the whole UTC day).
 */
function dateRange(value: unknown, call: string): DateRange {
  if (typeof value === 'string') {
    const range = readDate(value);
    if (typeof range !== 'string') return range;
    throw new TypeError(`${call}: ${describe(value)} is not a date${DATE_PROBLEMS[range]}; write YYYY-MM-DD, or an ISO date-time with Z or an offset, or pass a Date.`);
  }
  const t = typeof value === 'object' && value !== null ? instantOf(value) : NaN;
  if (!Number.isNaN(t)) {
    const range = readDate(new Date(t).toISOString());
    if (typeof range !== 'string' && range.start === t) return range;
    throw new TypeError(`${call}: the Date ${new Date(t).toISOString()} is outside the years 0000 to 9999.`);
  }
  throw new TypeError(`${call}: expected a Date or an ISO date string, not ${describe(value)}.`);
}
