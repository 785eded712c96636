/**
 * Writes `grammar/diagrams.html`, the railroad diagrams of the filter grammar, from
 * the chevrotain parser itself, so that the page cannot drift from the code:
 * `test/grammar/diagrams.test.ts` fails when the checked-in page is stale.
 *
 * Run with `npm run grammar`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createSyntaxDiagramsCode } from 'chevrotain';
import { FilterParser } from '../src/syntax/parser';

/** Where the page is checked in. */
export const DIAGRAMS_PATH = fileURLToPath(new URL('./diagrams.html', import.meta.url));

/**
 * The page, built from a validated parser (`new FilterParser(true)` runs the grammar
 * checks the shared instance skips). The page loads chevrotain's diagram scripts for
 * the installed version from unpkg.
 */
export function renderDiagrams(): string {
  return createSyntaxDiagramsCode(new FilterParser(true).getSerializedGastProductions());
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(DIAGRAMS_PATH, renderDiagrams());
  console.log(`wrote ${DIAGRAMS_PATH}`);
}
