import type { Field } from '../spec/spec';
import type { Condition, DateTest, NumberTest, TextTest } from './filter';

/**
 * The condition of one filter parameter on `field`, keyed `key` (the parameter as sent):
 * what `validate` makes of a parsed parameter and the client's builder of its `where`
 * calls, one shape for both, so that `check(q.toString(), schema)` deep-equals
 * `q.toFilter()` (reference §11). The tests must suit the field's type.
 */
export function conditionOf(field: Field, key: string, tests: readonly (NumberTest | DateTest | TextTest)[]): Condition {
  const { type, path, array, names } = field;
  // One object literal per shape, no spreads: check runs this for every parameter of every request.
  const condition = array === undefined ? { type, key, field: path, path: names, tests } : { type, key, field: path, array, path: names, tests };
  return condition as Condition;
}
