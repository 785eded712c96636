import type { FieldType } from '../schema/define';
import type { Operator, PassThroughParams } from '../syntax/ast';
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

/** A checked query: conditions that must all hold, and the pass-through request parameters. */
export interface Filter {
  readonly type: 'Filter';
  readonly conditions: readonly Condition[];
  readonly params: PassThroughParams;
}
