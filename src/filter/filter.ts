import type { FieldType } from '../spec/spec';
import type { Operator, PassThroughParams, SortDirection } from '../syntax/ast';
import type { DateRange } from '../values/date';

/** A comparison of a number field, the operand already a number. */
export interface NumberTest {
  readonly op: Operator;
  readonly value: number;
}

/** A test of a string field or a ref id: equality, or a `%` pattern (`like`). */
export type TextTest =
  | { readonly op: 'eq'; readonly value: string }
  | {
      readonly op: 'like';
      /** Literal texts between the wildcards: `%acme%` is `['', 'acme', '']`. */
      readonly segments: readonly string[];
    };

/** A comparison of a date field, the operand already an interval (see `DateRange`). */
export interface DateTest {
  readonly op: Operator;
  readonly value: DateRange;
}

interface ConditionOf<T extends FieldType, Test> {
  readonly type: T;
  /** The parameter's key as sent. */
  readonly key: string;
  /** The schema path: `lines.amount`. */
  readonly field: string;
  /** Set for a child-array field: every test must hold for the same element of this array. */
  readonly array?: string;
  /** Property names to read from the item, or from each element of `array`. */
  readonly path: readonly string[];
  /** All must hold. */
  readonly tests: readonly Test[];
}

/** One filter parameter, checked and converted: what back ends run. */
export type Condition =
  | ConditionOf<'number', NumberTest>
  | ConditionOf<'string', TextTest>
  | ConditionOf<'id', TextTest>
  | ConditionOf<'date', DateTest>;

/** One key of a checked sort (reference §9): a sortable field, its type and the direction. */
export interface SortField {
  /** The schema path: `issueDate`, `customerRef.id`. */
  readonly key: string;
  /** Property names to read from the item. */
  readonly path: readonly string[];
  readonly direction: SortDirection;
  readonly type: FieldType;
}

/**
 * A sort-key value in a cursor: the item's own value where JSON can hold it (a number, a
 * string; a `Date` as its instant), or `null` for a missing one (see `cursorValueOf`):
 * each back end reads it as it reads the row it came from.
 */
export type CursorValue = number | string | null;

/** Where a cursor page starts (reference §9): after the item whose sort keys were `values`. */
export interface After {
  /** One per key of the filter's sort, tie-breaker included (see `CursorValue`). */
  readonly values: readonly CursorValue[];
  /** The schema's cursor key, the unique field that ends the sort. */
  readonly key: string;
}

/** The page of matches to return (reference §9), defaults applied: `offset` is 0 with `after`. */
export interface Page {
  readonly limit: number;
  readonly offset: number;
  /** Set when the request sent a cursor (`after`): the page holds the items after it. */
  readonly after?: After;
  /**
   * Set for a schema with cursor paging (reference §9): its cursor key, and the print of
   * the schema that its cursors carry (`nextCursor`), so that another schema's is no cursor
   * of this one.
   */
  readonly cursor?: PageCursor;
}

/** What cursors of a schema with cursor paging are bound to: its cursor key and the schema. */
export interface PageCursor {
  /** The schema's cursor key, the unique field that ends the sort. */
  readonly key: string;
  /** A print of the schema (`schemaPrint`): its fields, request parameters, paging and sort parameter. */
  readonly schema: string;
}

/**
 * A checked query: conditions that must all hold; the request parameters as sent
 * (checked against their declared types; the sort and paging parameters among them);
 * the sort they ask for, first key first (empty when none); and, when the schema pages,
 * the page.
 */
export interface Filter {
  readonly type: 'Filter';
  readonly conditions: readonly Condition[];
  readonly params: PassThroughParams;
  readonly sort: readonly SortField[];
  readonly page?: Page;
  /**
   * How the server compares text for this filter, when it said so to `check` (or to an
   * adapter): `compile`, `sortItems` and `toSql` fold case when it is `true`, unless
   * their own `caseInsensitive` option says otherwise. Absent: case-sensitive.
   */
  readonly caseInsensitive?: boolean;
}

/** How a back end compares text (`compile`, `sortItems`, `toSql`): the option every one of them takes. */
export interface CaseOptions {
  /**
   * Compare strings and ids, for equality and for `%` patterns, by their lower-case forms:
   * the simple lower case of each code point (see `foldCase`), as Postgres's `lower()`
   * under `pg_c_utf8` computes them, so the SQL back end means the same. When not given,
   * the filter's own `caseInsensitive` applies (see `check`'s option), else `false`.
   */
  readonly caseInsensitive?: boolean;
}
