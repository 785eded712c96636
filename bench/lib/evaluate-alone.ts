/**
 * One filter compiled and run alone in a fresh process: the evaluator's closures see
 * only this filter's property names and shapes, as if it were the only filter a server
 * ever compiled. Prints `{ count, qsfilter, hand }` (median ns per pass) as JSON.
 * Usage: node --import tsx bench/lib/evaluate-alone.ts <filter index> <items> [--quick]
 */
import { compileFilter, counter, FILTERS } from './filters';
import { generateInvoices } from './invoices';
import { compare } from './measure';

const [index, itemCount, mode] = process.argv.slice(2);
const filter = FILTERS[Number(index)]!;
const items = generateInvoices(Number(itemCount));
const quick = mode === '--quick';
const predicate = compileFilter(filter);
const loop = counter();
const handLoop = counter();
const hand = filter.hand as (item: unknown) => boolean;
const count = loop(items, predicate);
const ns = await compare({ qsfilter: () => loop(items, predicate), hand: () => handLoop(items, hand) }, { quick, slow: true });
const result = { count, ...ns };
console.log(JSON.stringify(result));
