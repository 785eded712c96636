import { describe, expect, it } from 'vitest';
import {
  balanceSheets,
  bills,
  catalog,
  check,
  connections,
  DEPOSIT_LINE_MEMO_REMOVED,
  deposits,
  invoices,
  syncStatus,
  vendors,
  type FieldType,
  type Schema,
} from '../../src/index';
import { accepted, rejected } from '../check/support';

const BASE = 'https://api.example.com';

describe('the documented fields of each resource (API document §2, §4.2, §9)', () => {
  it.each<[string, Schema, string, FieldType]>([
    ['balanceSheets', balanceSheets, 'group', 'string'],
    ['balanceSheets', balanceSheets, 'value', 'number'],
    ['invoices', invoices, 'customerRef.id', 'id'],
    ['invoices', invoices, 'totalAmount', 'number'],
    ['invoices', invoices, 'lines.description', 'string'],
    ['vendors', vendors, 'vendorName', 'string'],
    ['deposits', deposits, 'memo', 'string'],
    ['bills', bills, 'memo', 'string'],
    ['connections', connections, 'syncTime', 'number'],
    ['syncStatus', syncStatus, 'syncTime', 'number'],
  ])('%s: %s is a filterable %s field', (_, schema, path, type) => {
    expect(schema.fields.get(path)).toMatchObject({ path, type });
    expect(schema.fields.get(path)?.removed).toBeUndefined();
  });
});

describe('balanceSheets', () => {
  it('accepts the example of SPEC §1, as a URL, a path, a query string and a record', () => {
    const query = 'businessName=Acme&reportFrequency=month&serviceName=quickbooks&group=assets&value=gt:1000';
    const expected = {
      type: 'Filter',
      params: { businessName: 'Acme', reportFrequency: 'month', serviceName: 'quickbooks' },
      conditions: [
        { type: 'string', key: 'group', field: 'group', path: ['group'], tests: [{ op: 'eq', value: 'assets' }] },
        { type: 'number', key: 'value', field: 'value', path: ['value'], tests: [{ op: 'gt', value: 1000 }] },
      ],
      sort: [],
    };
    for (const input of [
      `${BASE}/balanceSheets?${query}`,
      new URL(`${BASE}/balanceSheets?${query}`),
      `/balanceSheets?${query}`,
      `?${query}`,
      Object.fromEntries(new URLSearchParams(query)),
    ]) {
      expect(check(input, balanceSheets)).toEqual({ ok: true, value: expected });
    }
  });

  it('takes the documented shapes: group=<string>, value=gt:<number>, value=gte:<number>;lte:<number>', () => {
    expect(accepted('group=%25assets%25&value=gte:100;lte:200', balanceSheets).conditions.map((c) => c.tests)).toEqual([
      [{ op: 'like', segments: ['', 'assets', ''] }],
      [
        { op: 'gte', value: 100 },
        { op: 'lte', value: 200 },
      ],
    ]);
  });

  it('passes a business name with special characters through untouched', () => {
    expect(accepted('businessName=A%26B%20%25%3B%22', balanceSheets).params).toEqual({ businessName: 'A&B %;"' });
  });
});

describe('invoices', () => {
  it('accepts the examples of SPEC §1', () => {
    expect(accepted(`${BASE}/invoices?customerRef.id=42&totalAmount=gte:100;lte:200`, invoices).conditions).toEqual([
      { type: 'id', key: 'customerRef.id', field: 'customerRef.id', path: ['customerRef', 'id'], tests: [{ op: 'eq', value: '42' }] },
      {
        type: 'number',
        key: 'totalAmount',
        field: 'totalAmount',
        path: ['totalAmount'],
        tests: [
          { op: 'gte', value: 100 },
          { op: 'lte', value: 200 },
        ],
      },
    ]);
    expect(accepted(`${BASE}/invoices?lines.description=Consulting%20fee`, invoices).conditions).toEqual([
      {
        type: 'string',
        key: 'lines.description',
        field: 'lines.description',
        array: 'lines',
        path: ['description'],
        tests: [{ op: 'eq', value: 'Consulting fee' }],
      },
    ]);
  });

  it('filters a customer only by id (API document §4.1 rule 5)', () => {
    expect(rejected('customerRef.name=Acme', invoices).map((e) => e.code)).toEqual(['SUBPROPERTY_NOT_FILTERABLE']);
    expect(rejected('customerRef=42', invoices).map((e) => e.code)).toEqual(['INVALID_PATH']);
  });
});

describe('vendors', () => {
  it('accepts the example of SPEC §1: a contains match sent as %25', () => {
    expect(accepted(`${BASE}/vendors?vendorName=%25acme%25`, vendors).conditions[0]!.tests).toEqual([
      { op: 'like', segments: ['', 'acme', ''] },
    ]);
  });

  it('refuses the wildcard sent as a bare %', () => {
    expect(rejected('vendorName=%acme%', vendors)).toMatchObject([{ code: 'MALFORMED_ENCODING', hint: expect.stringMatching(/%25/) }]);
  });
});

describe('deposits', () => {
  it('filters the memo of the deposit itself', () => {
    expect(accepted('memo=%25rent%25', deposits).conditions[0]).toMatchObject({ field: 'memo', path: ['memo'] });
  });

  it('no longer filters lines.memo since 2023-01-09 (API document §9), and says where to', () => {
    expect(rejected('lines.memo=rent', deposits)).toEqual([
      expect.objectContaining({ code: 'FIELD_REMOVED', param: 'lines.memo', hint: DEPOSIT_LINE_MEMO_REMOVED }),
    ]);
    expect(DEPOSIT_LINE_MEMO_REMOVED).toMatch(/2023-01-09.*memo=/);
  });
});

describe('bills, connections, syncStatus', () => {
  it('bills filter their memo', () => {
    expect(accepted('memo=Office%20rent', bills).conditions[0]!.tests).toEqual([{ op: 'eq', value: 'Office rent' }]);
  });

  it.each([connections, syncStatus])('syncTime is a number of seconds', (schema) => {
    expect(accepted('syncTime=gte:30;lt:3600', schema).conditions[0]!.tests).toEqual([
      { op: 'gte', value: 30 },
      { op: 'lt', value: 3600 },
    ]);
    expect(rejected('syncTime=30s', schema).map((e) => e.code)).toEqual(['INVALID_NUMBER']);
  });
});

describe('every resource', () => {
  const resources = Object.entries(catalog);

  it.each(resources)('%s passes limit and offset through', (_, schema) => {
    expect(accepted('limit=10&offset=20&limit=5', schema)).toEqual({ type: 'Filter', conditions: [], params: { limit: ['10', '5'], offset: '20' }, sort: [] });
  });

  /** An operand each field type accepts for equality (SPEC §4). */
  const SAMPLE: Record<FieldType, string> = { number: '100', string: 'acme', date: '2023-01-09', id: '42' };

  // The operator table of the API document §4.1, for every filterable field of the catalog.
  const fields = resources.flatMap(([name, schema]) =>
    [...schema.fields.values()].filter((f) => f.removed === undefined).map((f) => [name, f.path, f.type, schema] as const),
  );

  it.each(fields)('%s: %s (%s) follows the operator table', (_, path, type, schema) => {
    const comparable = type === 'number' || type === 'date';
    expect(accepted(`${path}=${SAMPLE[type]}`, schema).conditions).toHaveLength(1);
    for (const op of ['gt', 'gte', 'lt', 'lte']) {
      const result = check(`${path}=${op}:${SAMPLE[type]}`, schema);
      expect(result.ok ? 'ok' : result.errors.map((e) => e.code)).toEqual(comparable ? 'ok' : ['OPERATOR_NOT_SUPPORTED']);
    }
    const wildcard = check(`${path}=${SAMPLE[type]}%25`, schema);
    expect(wildcard.ok ? 'ok' : wildcard.errors.map((e) => e.code)).toEqual(comparable ? ['WILDCARD_NOT_SUPPORTED'] : 'ok');
  });

  it('removes only what the release of 2023-01-09 removed: lines.memo of deposits', () => {
    const removed = resources.flatMap(([name, schema]) =>
      [...schema.fields.values()].filter((f) => f.removed !== undefined).map((f) => `${name}:${f.path}`),
    );
    expect(removed).toEqual(['deposits:lines.memo']);
  });
});
