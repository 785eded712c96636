import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check, compile, defineSchema, MAX_CURSOR_LENGTH, nextCursor, openApiParameters, pageItems, query, sortItems, type Filter } from '../../src/index';
import { accepted, expectDiagnostic, rejected, type DiagnosticRow } from './support';

// reference §9: cursor (keyset) paging, in memory.

const schema = defineSchema({
  fields: {
    id: { type: 'string', sortable: true },
    totalAmount: { type: 'number', sortable: true },
    issueDate: { type: 'date', sortable: true },
    vendorName: { type: 'string', sortable: true },
    customerRef: { type: 'ref', sortable: true },
  },
  paging: { defaultLimit: 3, maxLimit: 50, cursor: { key: 'id' } },
});

const items = [
  { id: 'a', totalAmount: 5, issueDate: '2023-01-02', vendorName: 'Acme', customerRef: { id: '1' } },
  { id: 'b', totalAmount: 5, issueDate: '2023-01-01', vendorName: 'acme', customerRef: { id: '2' } },
  { id: 'c', totalAmount: 7, vendorName: 'Bolt', customerRef: { id: '1' } },
  { id: 'd', totalAmount: '3', issueDate: '2023-01-03', customerRef: { id: 1 } },
  { id: 'e', issueDate: '2023-01-03', vendorName: 'Acme' },
];

/** The ids of a check's page of `items`. */
const page = (query: string): string[] => pageItems(items, accepted(query, schema)).map((item) => item.id);

const cursorRow = (query: string, token: string): DiagnosticRow => ({ query, schema, param: 'after', in: 'value', span: [0, token.length], spanned: token, hint: /^Start again without after/ });

describe('schema paging.cursor', () => {
  it('makes "after" a reserved parameter, and ends every sort with the key ascending', () => {
    expect(schema.params.has('after')).toBe(true);
    expect(accepted('', schema).sort.map((f) => `${f.direction} ${f.key}`)).toEqual(['asc id']);
    expect(accepted('orderBy=-totalAmount', schema).sort.map((f) => `${f.direction} ${f.key}`)).toEqual(['desc totalAmount', 'asc id']);
  });

  it('adds nothing when orderBy already names the key, in either direction', () => {
    expect(accepted('orderBy=-id,totalAmount', schema).sort.map((f) => `${f.direction} ${f.key}`)).toEqual(['desc id', 'asc totalAmount']);
  });

  it.each([
    [{ key: 'nope' }, /paging "cursor" must be \{ key: a unique sortable field \}, not \{"key":"nope"\}/],
    [{ key: 'memo' }, /not \{"key":"memo"\}/],
    [{ key: 'lines.amount' }, /not \{"key":"lines\.amount"\}/],
    [{ key: 7 }, /not \{"key":7\}/],
    [{ key: 'id', extra: 1 }, /paging "cursor" has the unknown property "extra"/],
    ['id', /paging "cursor" must be \{ key: a unique sortable field \}, not "id"/],
    [null, /not null/],
  ])('refuses the cursor %j with a TypeError', (cursor, message) => {
    const spec = { fields: { id: { type: 'string', sortable: true }, memo: 'string', lines: { type: 'array', of: { amount: 'number' } } }, paging: { cursor } };
    expect(() => defineSchema(spec as never)).toThrow(TypeError);
    expect(() => defineSchema(spec as never)).toThrow(message);
  });

  it('takes a ref id as the key', () => {
    const refs = defineSchema({ fields: { customerRef: { type: 'ref', sortable: true } }, paging: { cursor: { key: 'customerRef.id' } } });
    expect(accepted('', refs).sort.map((f) => f.key)).toEqual(['customerRef.id']);
  });
});

describe('after', () => {
  const first = accepted('orderBy=-totalAmount&limit=2', schema);
  const token = nextCursor(first, pageItems(items, first).at(-1));

  it('is base64url, and gives the page after the item it was made from', () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(page('orderBy=-totalAmount&limit=2')).toEqual(['c', 'a']);
    expect(page(`orderBy=-totalAmount&limit=2&after=${token}`)).toEqual(['b', 'd']);
    expect(accepted(`orderBy=-totalAmount&limit=2&after=${token}`, schema).page).toEqual({
      limit: 2,
      offset: 0,
      after: { values: [5, 'a'], key: 'id' },
      cursor: { key: 'id', schema: expect.stringMatching(/^[0-9a-z]+$/) },
    });
  });

  it('holds whatever order the parameters came in, and whatever the limit', () => {
    const filtered = accepted('totalAmount=gte:1&vendorName=%25a%25&orderBy=vendorName', schema);
    const t = nextCursor(filtered, items[0]);
    expect(check(`limit=7&vendorName=%25a%25&orderBy=vendorName&after=${t}&totalAmount=gte:1`, schema).ok).toBe(true);
  });

  const tampered = token.slice(0, -2) + (token.endsWith('A') ? 'BA' : 'AA');
  it.each([
    ['not base64url', 'orderBy=-totalAmount&after=%21%21', '!!'],
    ['not JSON', 'orderBy=-totalAmount&after=bm90IGpzb24', 'bm90IGpzb24'],
    ['another sort', `orderBy=totalAmount&after=${token}`, token],
    ['another filter', `orderBy=-totalAmount&totalAmount=gt:1&after=${token}`, token],
    ['tampered', `orderBy=-totalAmount&after=${tampered}`, tampered],
    ['too long', `after=${'A'.repeat(MAX_CURSOR_LENGTH + 4)}`, 'A'.repeat(MAX_CURSOR_LENGTH + 4)],
    ['empty', 'after=', ''],
  ])('INVALID_CURSOR: %s', (_name, query, spanned) => {
    expect(expectDiagnostic('INVALID_CURSOR', cursorRow(query, spanned)).message).toMatch(/^Parameter "after" holds no cursor of this query/);
  });

  it('INVALID_CURSOR: values that do not fit the sort key types', () => {
    const wrong = Buffer.from(JSON.stringify([JSON.parse(Buffer.from(token, 'base64url').toString())[0], 'five', 'a'])).toString('base64url');
    expectDiagnostic('INVALID_CURSOR', cursorRow(`orderBy=-totalAmount&after=${wrong}`, wrong));
    const noKey = Buffer.from(JSON.stringify([JSON.parse(Buffer.from(token, 'base64url').toString())[0], 5, null])).toString('base64url');
    expectDiagnostic('INVALID_CURSOR', cursorRow(`orderBy=-totalAmount&after=${noKey}`, noKey));
  });

  it('INVALID_PAGING: after with offset, and a repeated after', () => {
    const row = { schema, param: 'after', in: 'key', span: [0, 5], spanned: 'after', hint: /^Page by one cursor, or by offset\.$/ } as const;
    expect(expectDiagnostic('INVALID_PAGING', { ...row, query: `after=${token}&offset=2` }).message).toBe('Parameter "after" takes one cursor, and no offset.');
    expectDiagnostic('INVALID_PAGING', { ...row, query: `after=${token}&after=${token}` });
    expect(rejected(`after=${token}&after=${token}`, schema).map((d) => [d.code, d.param])).toEqual([['INVALID_PAGING', 'after']]);
  });

  it('never throws, on random text or on tampered real tokens', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.base64String(), fc.stringMatching(/^[A-Za-z0-9_-]{0,60}$/)), (text) => {
        const result = check({ orderBy: '-totalAmount', after: text }, schema);
        if (!result.ok) expect(result.errors.map((d) => d.code)).toEqual(['INVALID_CURSOR']);
      }),
    );
    fc.assert(
      fc.property(fc.nat(token.length - 1), fc.stringMatching(/^[A-Za-z0-9_-]{1,3}$/), (at, insert) => {
        const result = check({ orderBy: '-totalAmount', after: token.slice(0, at) + insert + token.slice(at + 1) }, schema);
        if (!result.ok) expect(result.errors.map((d) => d.code)).toEqual(['INVALID_CURSOR']);
      }),
    );
  });
});

describe('pageItems', () => {
  it('pages by offset when the request sent no cursor', () => {
    expect(page('orderBy=-totalAmount&limit=2&offset=2')).toEqual(['b', 'd']);
    expect(page('orderBy=-totalAmount')).toEqual(['c', 'a', 'b']);
  });

  it('refuses a hand-built page that does not fit the sort', () => {
    const filter = accepted('orderBy=-totalAmount', schema);
    const bad = (after: unknown): Filter => ({ ...filter, page: { limit: 2, offset: 0, after } as never });
    expect(() => pageItems(items, bad({ values: ['x', 'a'], key: 'id' }))).toThrow(TypeError);
    expect(() => pageItems(items, bad({ values: [5], key: 'id' }))).toThrow(TypeError);
    expect(() => pageItems(items, bad({ values: [5, 'a'], key: 'nope' }))).toThrow(TypeError);
    expect(() => pageItems(items, { ...filter, page: { limit: 0, offset: 0 } })).toThrow(TypeError);
  });
});

// ---------------------------------------------------------------- the cursor walk

const walkSchema = defineSchema({
  fields: {
    id: { type: 'string', sortable: true },
    n: { type: 'number', sortable: true },
    d: { type: 'date', sortable: true },
    s: { type: 'string', sortable: true },
    r: { type: 'ref', sortable: true },
  },
  paging: { defaultLimit: 10, maxLimit: 50, cursor: { key: 'id' } },
});

const SORT_FIELDS = ['n', 'd', 's', 'r.id'] as const;

/** Items with few distinct values (duplicates in every key), missing and mistyped ones. */
export const walkItems = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 4 }), { maxLength: 40 }).chain((ids) =>
  fc.tuple(
    ...ids.map((id) =>
      fc.record(
        {
          id: fc.constant(id),
          n: fc.oneof(fc.integer({ min: -2, max: 2 }), fc.constantFrom(0.5, '1', '1.0', '1e400', 'x', null, Infinity, NaN, -0, 1e21, '1e21')),
          d: fc.constantFrom('2023-01-01', '2023-01-01T00:00:00', '2023-01-02T10:00:00', '2023-01-02T11:00:00+01:00', new Date('2023-01-02T10:00:00Z'), '2022-12-31', '2023-02-30', 'nope', 3),
          s: fc.constantFrom('a', 'A', 'B', 'b', 'é', 'É', '', 7),
          r: fc.record({ id: fc.oneof(fc.constantFrom('1', '2', 'x'), fc.integer({ min: 0, max: 3 })) }),
        },
        { requiredKeys: ['id'] },
      ),
    ),
  ),
);

/** A random orderBy value: some sort fields, each ascending or descending, the key sometimes among them. */
export const walkSorts = fc
  .uniqueArray(fc.constantFrom(...SORT_FIELDS, 'id'), { maxLength: 4 })
  .chain((keys) => fc.tuple(...keys.map((key) => fc.constantFrom(key, `-${key}`))))
  .map((keys) => keys.join(','));

describe('a walk through every page by cursor', () => {
  it('yields each matching item exactly once, in sortItems order, on any data, case folded or not', () => {
    fc.assert(
      fc.property(walkItems, walkSorts, fc.integer({ min: 1, max: 7 }), fc.boolean(), fc.boolean(), (data, orderBy, limit, filtered, caseInsensitive) => {
        const query = { ...(filtered ? { n: 'gte:0' } : {}), ...(orderBy === '' ? {} : { orderBy }), limit: String(limit) };
        const first = check(query, walkSchema, { caseInsensitive });
        if (!first.ok) throw new Error(JSON.stringify(first.errors));
        const matches = data.filter(compile(first.value));
        const seen: unknown[] = [];
        let filter = first.value;
        for (;;) {
          const got = pageItems(matches, filter);
          seen.push(...got);
          if (got.length < limit) break;
          const next = check({ ...query, after: nextCursor(filter, got.at(-1)) }, walkSchema, { caseInsensitive });
          if (!next.ok) throw new Error(JSON.stringify(next.errors));
          filter = next.value;
        }
        expect(seen).toEqual(sortItems(matches, first.value));
      }),
      { numRuns: 300 },
    );
  });

  // Issue 32, item 1: the cursor held the folded key, so "a" and "A" were one place and the walk went a, b, c.
  it('keeps the rows whose keys differ only in case, with caseInsensitive', () => {
    const letters = ['a', 'A', 'b', 'B', 'c', 'C'].map((id) => ({ id }));
    for (const caseInsensitive of [true, false]) {
      const checked = (q: string) => {
        const result = check(q, walkSchema, { caseInsensitive });
        if (!result.ok) throw new Error(JSON.stringify(result.errors));
        return result.value;
      };
      const walked: string[] = [];
      let filter = checked('limit=1');
      for (let page = pageItems(letters, filter); page.length > 0; page = pageItems(letters, filter)) {
        walked.push(page[0]!.id);
        filter = checked(`limit=1&after=${nextCursor(filter, page[0])}`);
      }
      expect(walked).toEqual(caseInsensitive ? ['A', 'a', 'B', 'b', 'C', 'c'] : ['A', 'B', 'C', 'a', 'b', 'c']);
    }
  });
});

describe('a cursor is bound to its schema (issue 32, item 4)', () => {
  const spec = { fields: { id: { type: 'string', sortable: true }, total: { type: 'number', sortable: true } }, paging: { cursor: { key: 'id' } } } as const;
  const invoices = defineSchema(spec);
  const deposits = defineSchema({ ...spec, fields: { ...spec.fields, memo: 'string' } });
  const token = nextCursor(accepted('orderBy=total&limit=2', invoices), { id: 'a', total: 5 });

  it('another schema\'s cursor of the same query is INVALID_CURSOR', () => {
    expectDiagnostic('INVALID_CURSOR', { ...cursorRow(`orderBy=total&limit=2&after=${token}`, token), schema: deposits });
    expect(() => query(deposits).orderBy('total').limit(2).after(token).toFilter()).toThrow(/no cursor of this query/);
  });

  it('holds for the same schema, and for one defined again alike (another process, a restart)', () => {
    expect(accepted(`orderBy=total&limit=2&after=${token}`, invoices).page!.after).toEqual({ values: [5, 'a'], key: 'id' });
    expect(accepted(`orderBy=total&limit=2&after=${token}`, defineSchema(spec)).page!.after).toEqual({ values: [5, 'a'], key: 'id' });
  });
});

describe('nextCursor', () => {
  const filter = accepted('orderBy=-totalAmount&limit=2', schema);

  it.each([undefined, null, 5, 'a', true])('throws a TypeError for an item that is not an object: %s', (item) => {
    expect(() => nextCursor(filter, item)).toThrow(TypeError);
    expect(() => nextCursor(filter, item)).toThrow(/nextCursor: the item must be the last item of the page, an object/);
  });

  it('throws a TypeError for an item without the cursor key: a row whose columns are named otherwise', () => {
    expect(() => nextCursor(filter, { ID: 'a', total_amount: 5 })).toThrow(/nextCursor: the item has no string at "id", the cursor key \(an object\): pass the item with the schema's field names/);
    expect(() => nextCursor(filter, { id: 7, totalAmount: 5 })).toThrow(TypeError);
    expect(() => nextCursor(filter, [])).toThrow(TypeError);
  });

  it('throws a TypeError for a filter of a schema without cursor paging, or one built by hand without page.cursor', () => {
    const offsetPaged = defineSchema({ fields: { id: { type: 'string', sortable: true } }, paging: {} });
    expect(() => nextCursor(accepted('orderBy=id', offsetPaged), { id: 'a' })).toThrow(/nextCursor: the filter must be one of a schema with cursor paging/);
    const { cursor: _, ...page } = filter.page!;
    expect(() => nextCursor({ ...filter, page }, items[0])).toThrow(TypeError);
  });

  it('holds each value as the item has it: a Date as its instant, a numeric string as its number in a string', () => {
    const dated = accepted('orderBy=issueDate,totalAmount&limit=2', schema);
    const read = (item: object) => JSON.parse(Buffer.from(nextCursor(dated, item), 'base64url').toString()).slice(1) as unknown[];
    expect(read({ id: 'a', issueDate: new Date('2023-01-02T10:00:00Z'), totalAmount: '5.00' })).toEqual([Date.parse('2023-01-02T10:00:00Z'), '5', 'a']);
    expect(read({ id: 'a', issueDate: '2023-01-02T11:00:00+01:00', totalAmount: 5 })).toEqual(['2023-01-02T11:00:00+01:00', 5, 'a']);
    expect(read({ id: 'a', issueDate: 'nope', totalAmount: 'x' })).toEqual(['nope', null, 'a']);
  });
});

describe('the client and OpenAPI', () => {
  const first = accepted('orderBy=-totalAmount&limit=2', schema);
  const token = nextCursor(first, items[0]);

  it('query().after(cursor) asks for the page check reads', () => {
    const next = query(schema).orderBy('totalAmount', 'desc').limit(2).after(token);
    expect(next.toString()).toBe(`orderBy=-totalAmount&limit=2&after=${token}`);
    expect(next.toFilter()).toEqual(accepted(next.toString(), schema));
  });

  it('refuses after with offset, on a schema without a cursor, and a cursor of another query', () => {
    expect(() => query(schema).offset(2).after(token)).toThrow(/pages by offset or by cursor \(after\), not both/);
    expect(() => query(schema).after(token).offset(2)).toThrow(/pages by offset or by cursor \(after\), not both/);
    expect(() => query(schema).after('' as never)).toThrow(TypeError);
    const plain = defineSchema({ fields: { id: { type: 'string', sortable: true } }, paging: {} });
    expect(() => (query(plain) as never as { after(c: string): unknown }).after(token)).toThrow(/after\(…\): takes a cursor, on a schema that pages by cursor/);
    expect(() => query(schema).after(token).toFilter()).toThrow(/no cursor of this query/);
  });

  it('openApiParameters describes after, beside limit and offset', () => {
    const after = openApiParameters(schema).find((p) => p.name === 'after');
    expect(after).toMatchObject({ in: 'query', required: false, schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH } });
    expect(openApiParameters(defineSchema({ fields: {}, paging: {} })).some((p) => p.name === 'after')).toBe(false);
  });
});
