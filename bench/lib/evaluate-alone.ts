/**
 * One filter compiled and run alone in a fresh process: the evaluator's closures see
 * only this filter's property names and shapes, as if it were the only filter a server
 * ever compiled. Prints `{ count, qsfilter, hand, fewQsfilter, fewHand }` (median ns per
 * pass over <items> invoices, and over <few> cache-resident ones) as JSON.
 * Usage: node --import tsx bench/lib/evaluate-alone.ts <filter index> <items> <few> [--quick]
 */
import { compileFilter, counter, FILTERS } from './filters';
import { generateInvoices } from './invoices';
import { compare } from './measure';

const [index, itemCount, fewCount, mode] = process.argv.slice(2);
const filter = FILTERS[Number(index)]!;
const items = generateInvoices(Number(itemCount));
const quick = mode === '--quick';
const predicate = compileFilter(filter);
const loop = counter();
const handLoop = counter();
const hand = filter.hand as (item: unknown) => boolean;
const count = loop(items, predicate);
const ns = await compare({ qsfilter: () => loop(items, predicate), hand: () => handLoop(items, hand) }, { quick, slow: true });
const few = generateInvoices(Number(fewCount), 7);
const fewLoop = counter();
const fewHandLoop = counter();
const fewNs = await compare({ qsfilter: () => fewLoop(few, predicate), hand: () => fewHandLoop(few, hand) }, { quick });
const result = { count, ...ns, fewQsfilter: fewNs.qsfilter, fewHand: fewNs.hand };
console.log(JSON.stringify(result));
