import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, format, generatedSource, sortItems, toSql, type Filter } from '../../src/index';

// check's caseInsensitive (reference §10): the server says once, where the query is
// checked, how text compares; the filter carries it to compile, sortItems and toSql,
// whose own option still decides when given.

const schema = defineSchema({ fields: { name: { type: 'string', sortable: true }, amount: 'number' } });
const items = [{ name: 'acme' }, { name: 'ACME' }, { name: 'Beta' }, { name: 'alpha' }];

function filterOf(query: string, caseInsensitive?: boolean): Filter {
  const result = check(query, schema, caseInsensitive === undefined ? undefined : { caseInsensitive });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.value;
}

describe('check: caseInsensitive', () => {
  it('is carried by the filter when given, and absent otherwise', () => {
    expect(filterOf('name=acme', true).caseInsensitive).toBe(true);
    expect(filterOf('name=acme', false).caseInsensitive).toBe(false);
    expect('caseInsensitive' in filterOf('name=acme')).toBe(false);
    // Checking does not depend on it: the same conditions either way.
    expect(filterOf('name=acme', true).conditions).toEqual(filterOf('name=acme').conditions);
  });

  it('is followed by compile (both evaluators) and generatedSource, unless their own option says otherwise', () => {
    const folding = filterOf('name=acme', true);
    for (const codegen of [true, false]) {
      expect(items.filter(compile(folding, { codegen })).map((i) => i.name)).toEqual(['acme', 'ACME']);
      expect(items.filter(compile(folding, { codegen, caseInsensitive: false })).map((i) => i.name)).toEqual(['acme']);
      expect(items.filter(compile(filterOf('name=acme'), { codegen })).map((i) => i.name)).toEqual(['acme']);
      expect(items.filter(compile(filterOf('name=acme', false), { codegen, caseInsensitive: true })).map((i) => i.name)).toEqual(['acme', 'ACME']);
    }
    expect(generatedSource(folding)).toBe(generatedSource(filterOf('name=acme'), { caseInsensitive: true }));
  });

  it('is followed by sortItems', () => {
    const order = (filter: Filter, caseInsensitive?: boolean) => sortItems(items, filter, caseInsensitive === undefined ? undefined : { caseInsensitive }).map((i) => i.name);
    // Folded, ACME and acme come together, in code point order between them (issue 32).
    expect(order(filterOf('orderBy=name', true))).toEqual(['ACME', 'acme', 'alpha', 'Beta']);
    expect(order(filterOf('orderBy=name'))).toEqual(['ACME', 'Beta', 'acme', 'alpha']);
    expect(order(filterOf('orderBy=name', true), false)).toEqual(['ACME', 'Beta', 'acme', 'alpha']);
  });

  it('is followed by toSql', () => {
    const target = { columns: { name: 'name' } };
    expect(toSql(filterOf('name=acme', true), target).text).toBe(toSql(filterOf('name=acme'), target, { caseInsensitive: true }).text);
    expect(toSql(filterOf('name=acme', true), target, { caseInsensitive: false }).text).toBe(toSql(filterOf('name=acme'), target).text);
    expect(toSql(filterOf('name=acme', true), target).text).not.toBe(toSql(filterOf('name=acme'), target).text);
  });

  it('is no part of the query: format leaves it out', () => {
    expect(format(filterOf('name=acme', true))).toBe('name=acme');
  });

  it('must be a boolean, in check and in a hand-built filter', () => {
    expect(() => check('name=acme', schema, { caseInsensitive: 'yes' as never })).toThrow(/^check: "caseInsensitive" must be true or false, not the string "yes"\.$/);
    expect(() => compile({ ...filterOf('name=acme'), caseInsensitive: 1 as never })).toThrow(/^compile: the "caseInsensitive" of the filter must be true, false or absent, not the number 1\.$/);
    // sortItems too blames the filter, not its options, and even where an option would win.
    for (const options of [undefined, { caseInsensitive: true }]) {
      expect(() => sortItems(items, { ...filterOf('orderBy=name'), caseInsensitive: 'yes' as never }, options)).toThrow(/^sortItems: the "caseInsensitive" of the filter must be true, false or absent, not the string "yes"\.$/);
    }
  });
});
