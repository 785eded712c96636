/**
 * Scenario 1, parse: qsfilter's `parse` (decode, lex, parse to an AST with spans) on each
 * corpus, against the decoding floor (URLSearchParams), a naive split parser, qs and
 * @rsql/parser, in the same process.
 */
import { CORPORA, corpusGoals, timeCorpus, verifyCorpus } from './lib/corpus-run';
import type { Goal, Table } from './lib/scenario';
import { consume } from './lib/measure';
import { qsfilter } from './lib/qsfilter';
import { defineScenario } from './lib/scenario';

export default defineScenario({
  name: 'parse',
  title: 'parse the corpus',
  async run({ quick }) {
    const tables: Table[] = [];
    const goals: Goal[] = [];
    // Issue 31's goals (one grammar, the parser building every tree): the first corpus's, then the harder one's.
    const maxVsFloor = [6, 6.5];
    for (const [i, corpus] of CORPORA.entries()) {
      verifyCorpus(corpus.entries);
      const { table, subjects, baselines } = await timeCorpus(
        corpus,
        [
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
      goals.push(...corpusGoals('parse', corpus, subjects[0]!.ns, baselines, maxVsFloor[i]!, 2));
    }
    return { tables, goals };
  },
});
