/**
 * Scenario 7, compile: what `compile` costs per filter, since a server compiles one per
 * request. Three ways, each over the 8 filters of the evaluate scenario:
 *
 * - cached: the generated factory of the filter's shape is in qsfilter's cache (the
 *   steady state: a server meets the same shapes again and again);
 * - cold: a shape met for the first time: every call compiles a filter on another
 *   field of a schema with thousands of them, so qsfilter's cache (256 shapes) never
 *   holds it and the source is generated and handed to `new Function` each time (V8's
 *   own compilation cache may still know a source it saw in an earlier round);
 * - closures: `{ codegen: false }`, the evaluator without code generation (what
 *   `compile` was before code generation).
 */
import { FILTERS, invoiceData } from './lib/filters';
import { duration, times } from './lib/format';
import { compare, consume } from './lib/measure';
import { qsfilter } from './lib/qsfilter';
import { defineScenario, Mismatch } from './lib/scenario';

/** More fields than qsfilter's shape cache holds, many times over. */
const COLD_FIELDS = 20_000;

type Filter = Parameters<typeof qsfilter.compile>[0];

function checked(query: string, schema: Parameters<typeof qsfilter.check>[1]): Filter {
  const result = qsfilter.check(query, schema);
  if (!result.ok) throw new Mismatch(`${query}: ${result.errors[0]?.message}`);
  return result.value;
}

export default defineScenario({
  name: 'compile',
  title: 'compile one filter: generated code (cached shape, new shape) and closures',
  async run({ quick }) {
    const filters = FILTERS.map((f) => checked(f.query, invoiceData));
    // Many number fields, one new shape per filter: f0=gte:1;lte:5, f1=…
    const fields = Object.fromEntries(Array.from({ length: COLD_FIELDS }, (_, i) => [`f${i}`, 'number' as const]));
    const many = qsfilter.defineSchema({ fields });
    const cold = Array.from({ length: COLD_FIELDS }, (_, i) => checked(`f${i}=gte:1;lte:5`, many));
    const coldCached = cold[0]!;
    for (const [i, f] of filters.entries()) {
      const a = qsfilter.compile(f);
      const b = qsfilter.compile(f, { codegen: false });
      const item = { totalAmount: 2000, currency: 'EUR', vendorName: 'Supplies', customerRef: { id: '42' }, lines: [{ amount: 200 }] };
      if (a(item) !== b(item)) throw new Mismatch(`${FILTERS[i]!.name}: generated and closures disagree`);
    }
    let next = 0;
    const ns = await compare(
      {
        cached: () => {
          for (const f of filters) consume(qsfilter.compile(f));
        },
        cold: () => consume(qsfilter.compile(cold[next++ % COLD_FIELDS]!)),
        coldShapeCached: () => consume(qsfilter.compile(coldCached)),
        closures: () => {
          for (const f of filters) consume(qsfilter.compile(f, { codegen: false }));
        },
      },
      { quick },
    );
    const perFilter = { cached: ns.cached / filters.length, closures: ns.closures / filters.length };
    return {
      tables: [
        {
          title: 'time per compile call',
          columns: ['', 'per filter', 'vs closures'],
          rows: [
            ['generated, shape cached (the 8 evaluate filters)', duration(perFilter.cached), times(perFilter.cached / perFilter.closures)],
            ['closures, { codegen: false } (the 8 evaluate filters)', duration(perFilter.closures), times(1)],
            ['generated, a new shape every call (f<i>=gte:1;lte:5)', duration(ns.cold), times(ns.cold / perFilter.closures)],
            ['generated, the same one-field shape cached', duration(ns.coldShapeCached), times(ns.coldShapeCached / perFilter.closures)],
          ],
          notes: [
            `A new shape: ${COLD_FIELDS.toLocaleString('en')} fields cycled, so qsfilter's cache never holds the shape; V8's compilation cache may, for a source it compiled in an earlier round.`,
          ],
        },
      ],
      goals: [],
    };
  },
});
