/**
 * Scenario 1, parse: qsfilter's `parse` (decode, lex, parse to an AST with spans) on the
 * corpus, against the decoding floor (URLSearchParams), a naive split parser, qs and
 * @rsql/parser, in the same process.
 */
import { corpusGoals, ENTRIES, timeCorpus, verifyCorpus } from './lib/corpus-run';
import { consume } from './lib/measure';
import { qsfilter } from './lib/qsfilter';
import { defineScenario } from './lib/scenario';

export default defineScenario({
  name: 'parse',
  title: 'parse the corpus',
  async run({ quick }) {
    verifyCorpus();
    const { table, subjects, baselines } = await timeCorpus(
      [
        {
          label: 'qsfilter parse',
          run: () => {
            for (const e of ENTRIES) consume(qsfilter.parse(e.query, e.parseOptions));
          },
        },
      ],
      quick,
    );
    return { tables: [table], goals: corpusGoals('parse', subjects[0]!.ns, baselines, 4) };
  },
});
