/**
 * Scenario 2, check: qsfilter's `check` (parse, then validate against the resource's
 * schema: field lookup, operator and operand checks, number and date conversion) on
 * the corpus, against the same baselines as parse, in the same process.
 */
import { corpusGoals, ENTRIES, timeCorpus, verifyCorpus } from './lib/corpus-run';
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
    return { tables: [table], goals: corpusGoals('check', subjects[0]!.ns, baselines, 5) };
  },
});
