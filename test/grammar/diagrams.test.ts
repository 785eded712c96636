import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DIAGRAMS_PATH, drawDiagrams, renderDiagrams } from '../../grammar/diagrams';
import { createFilterLexer, FilterParser } from '../../src/syntax/grammar';

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
  const diagrams = drawDiagrams();

  it('draws every rule of the parser, in the words of the grammar, not token names', () => {
    const rules = new FilterParser(true).getSerializedGastProductions().map((rule) => (rule as { name?: string }).name);
    expect(rules).toEqual(['query', 'param', 'clause', 'sort', 'sortKey']);
    expect(diagrams.map((d) => d.name)).toEqual(['query', 'param', 'path', 'value', 'clause', 'operator', 'operand', 'escape', 'wildcard', 'sort', 'sort key']);
    const page = renderDiagrams();
    for (const token of ['Key', 'Piece', 'ValueEnd', 'Semi', 'OpenQuote', 'SortPath', 'Minus']) expect(page).not.toContain(`>${token}<`);
  });

  it('links every rule a diagram names to that rule drawn on the page', () => {
    const anchors = new Set(diagrams.map((d) => `rule-${d.name.replace(/ /g, '-')}`));
    const links = diagrams.flatMap((d) => [...d.svg.matchAll(/xlink:href="#([^"]+)"/g)].map((m) => m[1]!));
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) expect(anchors).toContain(link);
    // Every rule is reached from another one but the two a query starts from: its parameters, and the sort parameter's value.
    expect(new Set(links)).toEqual(new Set([...anchors].filter((a) => a !== 'rule-query' && a !== 'rule-sort')));
  });

  it('draws each rule as SVG, with the literal text of the language in its boxes', () => {
    const svg = (name: string): string => diagrams.find((d) => d.name === name)!.svg;
    for (const d of diagrams) expect(d.svg).toMatch(/^<svg class="railroad-diagram"/);
    for (const op of ['gt', 'gte', 'lt', 'lte', ':']) expect(svg('operator')).toContain(`>${op}</text>`);
    expect(svg('param')).toContain('>=</text>');
    expect(svg('value')).toContain('>;</text>');
    expect(svg('sort')).toContain('>,</text>');
    expect(svg('sort key')).toContain('>-</text>');
    expect(svg('query')).toContain('>&#38;</text>');
  });

  it('loads nothing: no script, no stylesheet or image from elsewhere', () => {
    const page = renderDiagrams();
    expect(page).not.toMatch(/<script|<link|@import|url\(|https?:\/\//i);
  });

  it('is up to date with the parser', () => {
    const checkedIn = readFileSync(DIAGRAMS_PATH, 'utf8');
    expect(checkedIn === renderDiagrams(), 'grammar/diagrams.html is stale: run `npm run grammar` and commit it').toBe(true);
  });
});
