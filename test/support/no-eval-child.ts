/**
 * Run by test/eval/codegen.test.ts under `node --disallow-code-generation-from-strings`,
 * which refuses `new Function` as a Content-Security-Policy without `unsafe-eval` does.
 * Reads `{ queries, items }` as JSON from argv, checks each query against the test
 * invoices schema, and prints whether code generation was refused and which items each
 * compiled filter accepts.
 */
import { check, compile } from '../../src/index';
import { invoices } from './invoices';

const { queries, items } = JSON.parse(process.argv[2]!) as { queries: string[]; items: unknown[] };
let refused = false;
try {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the point: is it refused here?
  new Function('return 1');
} catch (error) {
  refused = error instanceof EvalError;
}
const accepted = queries.map((query) => {
  const result = check(query, invoices);
  if (!result.ok) throw new Error(`${query}: ${result.errors[0]!.message}`);
  const predicate = compile(result.value);
  return items.flatMap((item, i) => (predicate(item) ? [i] : []));
});
console.log(JSON.stringify({ refused, accepted }));
