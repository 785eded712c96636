import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGRAMS_PATH, renderDiagrams } from '../../grammar/diagrams';
import { createFilterLexer, FilterParser } from '../../src/syntax/parser';

describe('grammar definition', () => {
  // The shared lexer and parser skip chevrotain's definition checks to start fast;
  // these validated instances run them, so a grammar change that breaks one fails here.
  it('builds a validated parser without definition errors', () => {
    expect(() => new FilterParser(true)).not.toThrow();
  });

  it('builds a validated lexer without definition errors or warnings', () => {
    const lexer = createFilterLexer(true);
    expect(lexer.lexerDefinitionErrors).toEqual([]);
    // Warnings (such as a lost first-character optimization) are kept on an untyped field.
    expect((lexer as unknown as { lexerDefinitionWarning: unknown[] }).lexerDefinitionWarning).toEqual([]);
  });
});

describe('grammar/diagrams.html', () => {
  it('draws every rule of the parser', () => {
    const rules = new FilterParser(true).getSerializedGastProductions().map((rule) => (rule as { name?: string }).name);
    expect(rules).toEqual(['query', 'param', 'clause', 'sort', 'sortKey']);
    const page = renderDiagrams();
    for (const rule of rules) expect(page).toContain(`"name": "${rule}"`);
  });

  it('is up to date with the parser', () => {
    const checkedIn = readFileSync(DIAGRAMS_PATH, 'utf8');
    expect(checkedIn === renderDiagrams(), 'grammar/diagrams.html is stale: run `npm run grammar` and commit it').toBe(true);
  });
});
