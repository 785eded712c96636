/**
 * Scenario 2, check: qsfilter's `check` (parse, then validate against the resource's
 * schema: field lookup, operator and operand checks, number and date conversion) on
 * each corpus, against the same baselines as parse, in the same process.
 */
import { CORPORA, corpusGoals, timeCorpus, verifyCorpus } from './lib/corpus-run';
import type { Goal, Table } from './lib/scenario';
import { consume } from './lib/measure';
import { qsfilter } from './lib/qsfilter';
import { defineScenario } from './lib/scenario';

export default defineScenario({
  name: 'check',
  title: 'parse and validate the corpus',
  async run({ quick }) {
    const tables: Table[] = [];
    const goals: Goal[] = [];
    // Issue 31's goals: the first corpus's, then the harder one's.
    const maxVsFloor = [7, 7];
    for (const [i, corpus] of CORPORA.entries()) {
      verifyCorpus(corpus.entries);
      const { table, subjects, baselines } = await timeCorpus(
        corpus,
        [
          {
            label: 'qsfilter check',
            run: () => {
              for (const e of corpus.entries) consume(qsfilter.check(e.query, e.schema));
            },
          },
          {
            label: 'qsfilter parse',
            run: () => {
              for (const e of corpus.entries) consume(qsfilter.parse(e.query, e.parseOptions));
            },
          },
        ],
        quick,
      );
      tables.push(table);
      goals.push(...corpusGoals('check', corpus, subjects[0]!.ns, baselines, maxVsFloor[i]!));
    }
    return { tables, goals };
  },
});
