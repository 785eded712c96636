/**
 * Browser bundles (reference §11, README "Clients"): what an app that bundles qsfilter
 * with esbuild pays, minified and gzipped, from the published files; and which of our
 * modules make up the bundle of `check`. Sizes, not times: one build each is exact.
 * `test/client/bundle.test.ts` fails past the budgets; this reports the figures.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CHECK_APP,
  CHECK_OWN_SCHEMA_APP,
  CHEVROTAIN_MARK,
  chevrotainChunk,
  CLIENT_APP,
  importing,
  moduleShares,
  NOT_PARSING,
  PackageLink,
  type Bundle,
} from './lib/bundle';
import { bytes, times } from './lib/format';
import { defineScenario } from './lib/scenario';

/** The budgets, gzipped: the client's (issue 12), and the whole browser pre-check's with Chevrotain as it is published (issue 31). */
const CLIENT_BUDGET = 6 * 1024;
const CHECK_BUDGET = 46 * 1024;

export default defineScenario({
  name: 'bundle',
  title: 'browser bundles',
  async run() {
    const link = new PackageLink();
    try {
      const client = await link.bundle(CLIENT_APP);
      const check = await link.bundle(CHECK_APP);
      const ours = await link.bundle(CHECK_APP, 'chevrotain');
      const ownSchema = await link.bundle(CHECK_OWN_SCHEMA_APP, 'chevrotain');
      const chevrotain = await link.bundle(`export * from ${JSON.stringify(join(fileURLToPath(new URL('../dist/', import.meta.url)), chevrotainChunk()))};`);
      const row = (what: string, b: Bundle, budget = ''): string[] => [what, bytes(b.minified), bytes(b.gzip), budget];
      const single: string[][] = [];
      let parsesNothing = true;
      for (const name of NOT_PARSING) {
        const b = await link.bundle(importing(name));
        const chevrotainIn = b.text.includes(CHEVROTAIN_MARK);
        if (chevrotainIn) parsesNothing = false;
        single.push([name, bytes(b.minified), bytes(b.gzip), chevrotainIn ? 'Chevrotain IN' : 'no Chevrotain']);
      }
      const { total, modules } = await moduleShares(CHECK_APP);
      return {
        tables: [
          {
            title: 'what an app bundles (esbuild, minified, for the browser; gzip -9), from dist/',
            columns: ['bundle', 'minified', 'gzipped', 'budget (gzipped)'],
            rows: [
              row('query + literal + one catalog schema (qsfilter/client)', client, bytes(CLIENT_BUDGET)),
              row('check + one catalog schema', check, bytes(CHECK_BUDGET)),
              row('  of it ours: Chevrotain\'s chunk left out', ours),
              row('  Chevrotain\'s chunk alone (as published, tree-shaken)', chevrotain),
              row('check + a schema of its own (defineSchema): ours', ownSchema),
            ],
            notes: [
              `Ours is ${times(ours.gzip / chevrotain.gzip)} Chevrotain's size, gzipped. Built from src/ instead, ours is ${bytes(total.minified)} minified, ${bytes(total.gzip)} gzipped.`,
            ],
          },
          {
            title: 'one import from the main entry, which parses nothing',
            columns: ['import', 'minified', 'gzipped', 'Chevrotain'],
            rows: single,
          },
          {
            title: 'our modules in check + one catalog schema (built from src/): what leaving each out would save',
            columns: ['module', 'minified', 'gzipped share'],
            rows: modules.map((m) => [m.module, bytes(m.minified), bytes(m.gzip)]),
            notes: [
              `The shares add up to ${bytes(modules.reduce((n, m) => n + m.gzip, 0))} of the ${bytes(total.gzip)}: what modules have in common compresses once, and stays while any of them does.`,
            ],
          },
        ],
        goals: [
          { goal: 'client bundle (query + literal + a schema)', target: `≤ ${bytes(CLIENT_BUDGET)} gzipped`, actual: bytes(client.gzip), pass: client.gzip <= CLIENT_BUDGET },
          { goal: 'browser pre-check: check + a catalog schema', target: `≤ ${bytes(CHECK_BUDGET)} gzipped`, actual: bytes(check.gzip), pass: check.gzip <= CHECK_BUDGET },
          { goal: 'an import that parses nothing bundles no Chevrotain', target: `${NOT_PARSING.length} imports`, actual: parsesNothing ? 'none does' : 'some do', pass: parsesNothing },
        ],
      };
    } finally {
      link.remove();
    }
  },
});
