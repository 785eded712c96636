/**
 * Scenario 2, check: qsfilter's `check` (parse, then validate against the resource's
 * schema: field lookup, operator and operand checks, number and date conversion) on
 * the corpus, against the same baselines as parse, in the same process.
 */
import { ENTRIES, timeCorpus, verifyCorpus } from './lib/corpus-run';
import { times } from './lib/format';
import { consume } from './lib/measure';
import { qsfilter } from './lib/qsfilter';
import { defineScenario } from './lib/scenario';

export default defineScenario({
  name: 'check',
  title: 'parse and validate the corpus',
  async run({ quick }) {
    verifyCorpus();
    const { table, subjects, baselines } = await timeCorpus(
      [
        {
          label: 'qsfilter check',
          run: () => {
            for (const e of ENTRIES) consume(qsfilter.check(e.query, e.schema));
          },
        },
        {
          label: 'qsfilter parse',
          run: () => {
            for (const e of ENTRIES) consume(qsfilter.parse(e.query, e.parseOptions));
          },
        },
      ],
      quick,
    );
    const check = subjects[0]!.ns;
    const vsFloor = check / baselines.floor.ns;
    const vsRsql = baselines.rsql.ns / check;
    return {
      tables: [table],
      goals: [
        { goal: 'check vs URLSearchParams floor', target: '≤ 5x', actual: times(vsFloor), pass: vsFloor <= 5 },
        { goal: 'check faster than @rsql/parser', target: '≥ 5x', actual: times(vsRsql), pass: vsRsql >= 5 },
      ],
    };
  },
});
