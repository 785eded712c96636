import { describe, expect, it } from 'vitest';
import {
  balanceSheets,
  bills,
  catalog,
  check,
  compile,
  connections,
  defineSchema,
  DEPOSIT_LINE_MEMO_REMOVED,
  deposits,
  invoices,
  syncStatus,
  vendors,
  type FieldType,
  type ParamType,
  type ResourceName,
  type Schema,
} from '../../src/index';
import { accepted, rejected } from '../check/support';

const BASE = 'https://api.example.com';
const resources = Object.entries(catalog) as [ResourceName, Schema][];

/** The connection a data endpoint reads: a business name with characters that need encoding. */
const ACME = 'businessName=Acme%20%26%20Sons&serviceName=quickbooks';

/** A value for each parameter the catalog requires somewhere. */
const REQUIRED_VALUES: Readonly<Record<string, string>> = { businessName: 'Acme%20%26%20Sons', serviceName: 'quickbooks', reportFrequency: 'month' };

/** A query of `filter` with the parameters `schema` requires, so that only the filter is judged. */
function q(schema: Schema, filter: string): string {
  const required = [...schema.requestParams.values()].filter((p) => p.required).map((p) => `${p.name}=${REQUIRED_VALUES[p.name] ?? expect.fail(`no value for ${p.name}`)}`);
  return [...required, filter].join('&');
}

describe('the resources of the API document', () => {
  it('are all in the catalog, named after their collection endpoints', () => {
    expect(Object.keys(catalog)).toEqual(['balanceSheets', 'invoices', 'vendors', 'deposits', 'bills', 'connections', 'syncStatus', 'businesses']);
  });

  // The catalog indexes its specs without defineSchema's checks, which an app that
  // imports a schema then does not bundle: each spec must pass them all the same.
  it.each(Object.keys(catalog) as ResourceName[])('%s passes the checks of defineSchema, which makes the same schema of it', (name) => {
    const schema: Schema = catalog[name];
    // The same index; each face is its own object, whose validate is check against its schema.
    expect({ ...defineSchema(schema.spec), '~standard': undefined }).toEqual({ ...schema, '~standard': undefined });
    expect(Object.isFrozen(schema) && Object.isFrozen(schema.spec) && Object.isFrozen(schema.spec.fields)).toBe(true);
  });

  // API document §2, §4.2 and §9: every field it names stays filterable, with its type.
  it.each<[ResourceName, string, FieldType]>([
    ['balanceSheets', 'group', 'string'],
    ['balanceSheets', 'value', 'number'],
    ['invoices', 'customerRef.id', 'id'],
    ['invoices', 'totalAmount', 'number'],
    ['invoices', 'lines.description', 'string'],
    ['vendors', 'vendorName', 'string'],
    ['deposits', 'memo', 'string'],
    ['bills', 'memo', 'string'],
    ['connections', 'syncTime', 'number'],
    ['syncStatus', 'syncTime', 'number'],
    ['businesses', 'businessName', 'string'],
  ])('%s: %s is a filterable %s field', (name, path, type) => {
    const schema = catalog[name];
    expect(schema.fields.get(path)).toMatchObject({ path, type });
    expect(schema.fields.get(path)?.removed).toBeUndefined();
  });

  // The issue's field names, from the API's reference, on the invoices and bills it describes.
  it.each<[ResourceName, string, FieldType]>([
    ['invoices', 'invoiceNumber', 'string'],
    ['invoices', 'postedDate', 'date'],
    ['invoices', 'dueDate', 'date'],
    ['invoices', 'status', 'string'],
    ['invoices', 'subTotal', 'number'],
    ['invoices', 'taxAmount', 'number'],
    ['invoices', 'amountDue', 'number'],
    ['invoices', 'sourceModifiedDate', 'date'],
    ['bills', 'postedDate', 'date'],
    ['bills', 'amountDue', 'number'],
    ['deposits', 'postedDate', 'date'],
  ])('%s: the reference names %s (%s)', (name, path, type) => {
    expect(catalog[name].fields.get(path)).toMatchObject({ path, type });
  });

  it('no longer has the fields the earlier catalog assumed and the reference does not have', () => {
    for (const path of ['docNumber', 'issueDate', 'balance', 'currency', 'lines.itemRef.id']) expect(invoices.fields.has(path)).toBe(false);
    for (const path of ['email', 'createdAt']) expect(vendors.fields.has(path)).toBe(false);
    expect(deposits.fields.has('txnDate')).toBe(false);
    expect(bills.fields.has('vendorRef.id')).toBe(false);
    for (const path of ['name', 'date']) expect(balanceSheets.fields.has(path)).toBe(false);
    for (const path of ['status', 'lastSyncedAt']) expect(syncStatus.fields.has(path)).toBe(false);
  });
});

describe('every documented filter shape passes check (API document §4.1, §4.2)', () => {
  it.each<[string, Schema, string]>([
    ['group=<string>', balanceSheets, 'group=Current%20Assets'],
    ['value=gt:<number>', balanceSheets, 'value=gt:1000'],
    ['value=gte:<number>;lte:<number>', balanceSheets, 'value=gte:1000;lte:5000'],
    ['customerRef.id=<id>', invoices, 'customerRef.id=42'],
    ['totalAmount with two comparisons', invoices, 'totalAmount=gte:100;lte:200'],
    ['lines.description=<string>', invoices, 'lines.description=Consulting%20fee'],
    ['vendorName=%25<string>%25', vendors, 'vendorName=%25acme%25'],
    ['memo on the deposit', deposits, 'memo=%25rent%25'],
    ['memo of a bill', bills, 'memo=Office%20rent'],
    ['a literal "gte" (rule 8)', vendors, 'vendorName=gte'],
    ['a quoted "gte:" (rule 8)', vendors, 'vendorName=%22gte:%22'],
  ])('%s', (_, schema, filter) => {
    expect(accepted(q(schema, filter), schema).conditions).toHaveLength(1);
  });

  it('syncTime on connections, which need no connection parameters, and on sync status', () => {
    expect(accepted('syncTime=gt:3600', connections).conditions).toHaveLength(1);
    expect(accepted(`${ACME}&syncTime=gt:3600`, syncStatus).conditions).toHaveLength(1);
  });

  it('takes the example of reference §1 for balance sheets, as a URL, a path, a query string and a record', () => {
    const query = 'businessName=Acme&reportFrequency=month&serviceName=quickbooks&group=assets&value=gt:1000';
    for (const input of [
      `${BASE}/balanceSheets?${query}`,
      new URL(`${BASE}/balanceSheets?${query}`),
      `/balanceSheets?${query}`,
      `?${query}`,
      Object.fromEntries(new URLSearchParams(query)),
    ]) {
      const filter = accepted(input, balanceSheets);
      expect(filter.params).toEqual({ businessName: 'Acme', reportFrequency: 'month', serviceName: 'quickbooks' });
      expect(filter.conditions).toEqual([
        { type: 'string', key: 'group', field: 'group', path: ['group'], tests: [{ op: 'eq', value: 'assets' }] },
        { type: 'number', key: 'value', field: 'value', path: ['value'], tests: [{ op: 'gt', value: 1000 }] },
      ]);
    }
  });

  it('takes the invoice examples of reference §1 with the connection the reference requires', () => {
    expect(accepted(`${BASE}/invoices?${ACME}&customerRef.id=42&totalAmount=gte:100;lte:200`, invoices).conditions).toEqual([
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
    expect(accepted(`${BASE}/invoices?${ACME}&lines.description=Consulting%20fee`, invoices).conditions).toEqual([
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

  it('passes a business name with special characters through untouched', () => {
    expect(accepted('businessName=A%26B%20%25%3B%22&serviceName=xero', vendors).params).toEqual({ businessName: 'A&B %;"', serviceName: 'xero' });
  });

  it('filters a customer only by id (API document §4.1 rule 5)', () => {
    expect(rejected(q(invoices, 'customerRef.name=Acme'), invoices).map((e) => e.code)).toEqual(['SUBPROPERTY_NOT_FILTERABLE']);
    expect(rejected(q(invoices, 'customerRef=42'), invoices).map((e) => e.code)).toEqual(['INVALID_PATH']);
  });

  it('refuses the wildcard sent as a bare %', () => {
    expect(rejected(q(vendors, 'vendorName=%acme%'), vendors)).toMatchObject([{ code: 'MALFORMED_ENCODING', hint: expect.stringMatching(/%25/) }]);
  });

  it('takes syncTime as a number of seconds', () => {
    for (const schema of [connections, syncStatus]) {
      expect(accepted(q(schema, 'syncTime=gte:30;lt:3600'), schema).conditions[0]!.tests).toEqual([
        { op: 'gte', value: 30 },
        { op: 'lt', value: 3600 },
      ]);
      expect(rejected(q(schema, 'syncTime=30s'), schema).map((e) => e.code)).toEqual(['INVALID_NUMBER']);
    }
  });
});

describe('the release of 2023-01-09 (API document §9)', () => {
  it('no longer filters lines.memo of deposits, and says where to', () => {
    expect(rejected(q(deposits, 'lines.memo=rent'), deposits)).toEqual([
      expect.objectContaining({ code: 'FIELD_REMOVED', param: 'lines.memo', hint: DEPOSIT_LINE_MEMO_REMOVED }),
    ]);
    expect(DEPOSIT_LINE_MEMO_REMOVED).toMatch(/2023-01-09.*memo=/);
    expect(accepted(q(deposits, 'memo=%25rent%25'), deposits).conditions[0]).toMatchObject({ field: 'memo', path: ['memo'] });
  });

  it('removes nothing else', () => {
    const removed = resources.flatMap(([name, schema]) =>
      [...schema.fields.values()].filter((f) => f.removed !== undefined).map((f) => `${name}:${f.path}`),
    );
    expect(removed).toEqual(['deposits:lines.memo']);
  });
});

describe('the request parameters each endpoint takes', () => {
  /** The declared parameters of a schema: name, type and whether it is required. */
  const declared = (schema: Schema) =>
    Object.fromEntries([...schema.requestParams.values()].map((p) => [p.name, `${p.type ?? 'untyped'}${p.required ? ', required' : ''}`]));

  // Not required: the API takes these two, or connectionUuid, and reference §1's examples send none (see catalog.ts).
  const DATA = { businessName: 'string', serviceName: 'string', connectionUuid: 'string' };
  const PERIOD = { startDate: 'date', endDate: 'date' };

  it.each<[ResourceName, Record<string, string>]>([
    ['balanceSheets', { ...DATA, reportFrequency: 'string, required', ...PERIOD, accountingMethod: 'string' }],
    ['invoices', { ...DATA, ...PERIOD }],
    ['vendors', DATA],
    ['deposits', { ...DATA, ...PERIOD }],
    ['bills', { ...DATA, ...PERIOD }],
    ['connections', { institutionName: 'string' }],
    [
      'syncStatus',
      { ...DATA, ...PERIOD, reportFrequency: 'string', currentStatus: 'string', accountingMethod: 'string', requestId: 'string' },
    ],
    ['businesses', { businessNameOrUuid: 'string' }],
  ])('%s', (name, expected) => {
    expect(declared(catalog[name])).toEqual(expected);
  });

  it('takes the examples of reference §1 as they are, without the connection parameters', () => {
    expect(accepted('customerRef.id=42&totalAmount=gte:100;lte:200', invoices).conditions).toHaveLength(2);
    expect(accepted('lines.description=Consulting%20fee', invoices).conditions).toHaveLength(1);
    expect(accepted('vendorName=%25acme%25', vendors).conditions).toHaveLength(1);
    expect(rejected('group=assets', balanceSheets).map((d) => [d.code, d.param])).toEqual([['MISSING_PARAMETER', 'reportFrequency']]);
  });

  it('types every parameter, so that a mistyped value can be told apart', () => {
    const types = new Set<ParamType | undefined>(resources.flatMap(([, schema]) => [...schema.requestParams.values()].map((p) => p.type)));
    expect(types).toEqual(new Set(['string', 'date']));
  });

  it('pages every collection with limit and offset: 100 by default, at most 500', () => {
    for (const [, schema] of resources) {
      expect(schema.paging).toEqual({ defaultLimit: 100, maxLimit: 500 });
      expect(schema.params).toEqual(new Set([...schema.requestParams.keys(), 'limit', 'offset']));
      expect(schema.sortParam).toBe('orderBy');
    }
  });

  it('keeps parameters and fields apart: a parameter is never filtered', () => {
    for (const [, schema] of resources) {
      for (const name of schema.params) expect(schema.fields.has(name)).toBe(false);
    }
    expect(accepted(`${ACME}&startDate=2023-01-01&endDate=2023-01-31`, invoices)).toMatchObject({
      conditions: [],
      params: { businessName: 'Acme & Sons', serviceName: 'quickbooks', startDate: '2023-01-01', endDate: '2023-01-31' },
    });
  });
});

describe('what sorts (orderBy)', () => {
  const sortable = (schema: Schema) => [...schema.fields.values()].filter((f) => f.sortable).map((f) => f.path);

  it.each<[ResourceName, string[]]>([
    [
      'balanceSheets',
      ['section', 'subSection', 'group', 'subGroup', 'classification', 'type', 'subType', 'account', 'accountId', 'subAccountId', 'fullyQualifiedName', 'depth', 'value'],
    ],
    [
      'invoices',
      ['id', 'invoiceNumber', 'postedDate', 'dueDate', 'status', 'totalDiscount', 'discountPercentage', 'subTotal', 'taxAmount', 'totalAmount', 'amountDue', 'sourceModifiedDate'],
    ],
    ['vendors', ['id', 'vendorName', 'balance', 'status', 'sourceModifiedDate']],
    ['deposits', ['id', 'postedDate', 'subTotal', 'taxAmount', 'totalAmount', 'status', 'sourceModifiedDate']],
    ['bills', ['id', 'postedDate', 'dueDate', 'status', 'subTotal', 'taxAmount', 'totalAmount', 'amountDue', 'sourceModifiedDate']],
    ['connections', []],
    ['syncStatus', []],
    ['businesses', []],
  ])('%s sorts by what the reference marks sortable', (name, expected) => {
    expect(sortable(catalog[name])).toEqual(expected);
  });

  it('never sorts by a field of a child array, a ref, or a field the API document adds', () => {
    for (const [, schema] of resources) {
      for (const field of schema.fields.values()) if (field.array !== undefined || field.type === 'id') expect(field.sortable).toBe(false);
    }
    expect(deposits.fields.get('memo')!.sortable).toBe(false);
    expect(bills.fields.get('memo')!.sortable).toBe(false);
  });
});

describe('the API\'s date-times, which have no offset', () => {
  // The reference's example data: "2020-12-31T00:00:00", read as UTC (reference §5).
  const invoice = { postedDate: '2020-12-31T00:00:00', dueDate: '2021-01-30T00:00:00', sourceModifiedDate: '2021-01-16T21:14:44' };

  it.each([
    ['postedDate=2020-12-31', true],
    ['postedDate=gt:2020-12-30T23:59:59Z', true],
    ['postedDate=lt:2020-12-31T00:00:00Z', false],
    ['dueDate=gte:2021-01-30;lt:2021-01-31', true],
    ['sourceModifiedDate=gt:2021-01-16T21:14:44%2B01:00', true],
    ['sourceModifiedDate=gt:2021-01-16T21:14:44Z', false],
  ])('%s matches: %s', (query, matches) => {
    expect(compile(accepted(q(invoices, query), invoices))(invoice)).toBe(matches);
  });

  it('still wants an offset on a date-time in a query', () => {
    expect(rejected(q(invoices, 'postedDate=2020-12-31T00:00:00'), invoices)).toMatchObject([{ code: 'INVALID_DATE', hint: expect.stringMatching(/Z/) }]);
  });
});

describe('every filterable field of the catalog follows the operator table (API document §4.1)', () => {
  /** An operand each field type accepts for equality (reference §4). */
  const SAMPLE: Record<FieldType, string> = { number: '100', string: 'acme', date: '2023-01-09', id: '42' };

  const fields = resources.flatMap(([name, schema]) =>
    [...schema.fields.values()].filter((f) => f.removed === undefined).map((f) => [name, f.path, f.type, schema] as const),
  );

  it.each(fields)('%s: %s (%s)', (_, path, type, schema) => {
    const comparable = type === 'number' || type === 'date';
    expect(accepted(q(schema, `${path}=${SAMPLE[type]}`), schema).conditions).toHaveLength(1);
    for (const op of ['gt', 'gte', 'lt', 'lte']) {
      const result = check(q(schema, `${path}=${op}:${SAMPLE[type]}`), schema);
      expect(result.ok ? 'ok' : result.errors.map((e) => e.code)).toEqual(comparable ? 'ok' : ['OPERATOR_NOT_SUPPORTED']);
    }
    const wildcard = check(q(schema, `${path}=${SAMPLE[type]}%25`), schema);
    expect(wildcard.ok ? 'ok' : wildcard.errors.map((e) => e.code)).toEqual(comparable ? ['WILDCARD_NOT_SUPPORTED'] : 'ok');
  });
});

describe('the sort hints of each resource', () => {
  // The hints' example of a sort names the resource's own sortable fields, so that a
  // client that follows one sends a sort the resource takes.
  it.each(resources.filter(([, schema]) => [...schema.fields.values()].some((f) => f.sortable)))('%s: each sort hint shows a sort it takes', (_name, schema) => {
    const sort = schema.sortParam;
    for (const mistake of [`${sort}=`, `${sort}=x&${sort}=y`]) {
      const result = check(q(schema, mistake), schema);
      const hint = result.ok ? '' : result.errors.find((e) => e.code === 'INVALID_SORT')?.hint ?? '';
      const example = new RegExp(`${sort}=-[\\w.,]+`).exec(hint)?.[0];
      expect(example, `${mistake}: ${hint}`).toBeDefined();
      expect(check(q(schema, example!), schema), `${mistake}: ${hint}`).toMatchObject({ ok: true });
    }
  });
});
