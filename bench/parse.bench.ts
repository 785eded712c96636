/**
 * Scenario 1, parse: qsfilter's `parse` (decode, lex, parse to an AST with spans) on the
 * corpus, against the decoding floor (URLSearchParams), a naive split parser, qs and
 * @rsql/parser, in the same process.
 */
import { ENTRIES, timeCorpus, verifyCorpus } from './lib/corpus-run';
import { times } from './lib/format';
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
    const parse = subjects[0]!.ns;
    const vsFloor = parse / baselines.floor.ns;
    const vsRsql = baselines.rsql.ns / parse;
    return {
      tables: [table],
      goals: [
        { goal: 'parse vs URLSearchParams floor', target: '≤ 4x', actual: times(vsFloor), pass: vsFloor <= 4 },
        { goal: 'parse faster than @rsql/parser', target: '≥ 5x', actual: times(vsRsql), pass: vsRsql >= 5 },
      ],
    };
  },
});
