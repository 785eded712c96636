import { defineSchema } from './define';

/**
 * The resources of the financial-data service, as schemas to check queries with.
 *
 * The API document names only some fields of each resource (see SPEC §1 and the
 * release of 2023-01-09). Fields it names are marked "documented"; the others are
 * assumptions a real deployment would confirm, marked "assumed", chosen to be what an
 * accounting API usually has. Every resource passes the paging parameters `limit` and
 * `offset` through.
 */

const PAGING = ['limit', 'offset'] as const;

/**
 * `GET /balanceSheets`: balance sheet lines.
 * - documented: `group` (a group of line items, e.g. assets), `value` (a number);
 *   request parameters `businessName`, `reportFrequency`, `serviceName`.
 * - assumed: `name` (the line's label), `date` (the date the balance is reported for).
 */
export const balanceSheets = /* @__PURE__ */ defineSchema({
  fields: { group: 'string', value: 'number', name: 'string', date: 'date' },
  params: ['businessName', 'reportFrequency', 'serviceName', ...PAGING],
});

/**
 * `GET /invoices`.
 * - documented: `customerRef` (filterable only as `customerRef.id`), `totalAmount`,
 *   `lines.description`.
 * - assumed: `docNumber`, `issueDate`, `dueDate`, `balance`, `currency`, `lines.amount`,
 *   `lines.itemRef` (as `lines.itemRef.id`).
 */
export const invoices = /* @__PURE__ */ defineSchema({
  fields: {
    customerRef: { type: 'ref' },
    totalAmount: 'number',
    docNumber: 'string',
    issueDate: 'date',
    dueDate: 'date',
    balance: 'number',
    currency: 'string',
    lines: { type: 'array', of: { description: 'string', amount: 'number', itemRef: { type: 'ref' } } },
  },
  params: PAGING,
});

/**
 * `GET /vendors`.
 * - documented: `vendorName`.
 * - assumed: `email`, `balance`, `createdAt`.
 */
export const vendors = /* @__PURE__ */ defineSchema({
  fields: { vendorName: 'string', email: 'string', balance: 'number', createdAt: 'date' },
  params: PAGING,
});

/** Where to filter instead of `lines.memo` on deposits, since the release of 2023-01-09. */
export const DEPOSIT_LINE_MEMO_REMOVED =
  'Since the 2023-01-09 release a deposit\'s memo is no longer duplicated under its lines: filter on the deposit\'s own memo (memo=…).';

/**
 * `GET /deposits`.
 * - documented: `memo` on the deposit; `lines`, whose `memo` was removed on 2023-01-09
 *   (`lines.memo` is `FIELD_REMOVED`, with a hint to filter on `memo`).
 * - assumed: `totalAmount`, `txnDate`, `lines.amount`, `lines.description`.
 */
export const deposits = /* @__PURE__ */ defineSchema({
  fields: {
    memo: 'string',
    totalAmount: 'number',
    txnDate: 'date',
    lines: {
      type: 'array',
      of: { amount: 'number', description: 'string', memo: { type: 'string', removed: DEPOSIT_LINE_MEMO_REMOVED } },
    },
  },
  params: PAGING,
});

/**
 * `GET /bills`.
 * - documented: `memo` (bills with a memo can be pushed to an accounting system since 2023-01-09).
 * - assumed: `vendorRef` (as `vendorRef.id`), `totalAmount`, `dueDate`, `lines.description`, `lines.amount`.
 */
export const bills = /* @__PURE__ */ defineSchema({
  fields: {
    memo: 'string',
    vendorRef: { type: 'ref' },
    totalAmount: 'number',
    dueDate: 'date',
    lines: { type: 'array', of: { description: 'string', amount: 'number' } },
  },
  params: PAGING,
});

/**
 * `GET /connections`: connections to third-party accounting systems.
 * - documented: `syncTime` (seconds the initial sync of a new connection took; added 2023-01-09).
 * - assumed: `serviceName` (the connected system), `businessName`, `status`, `createdAt`.
 */
export const connections = /* @__PURE__ */ defineSchema({
  fields: { syncTime: 'number', serviceName: 'string', businessName: 'string', status: 'string', createdAt: 'date' },
  params: PAGING,
});

/**
 * `GET /syncStatus`.
 * - documented: `syncTime` (added 2023-01-09).
 * - assumed: `serviceName`, `businessName`, `status`, `lastSyncedAt`.
 */
export const syncStatus = /* @__PURE__ */ defineSchema({
  fields: { syncTime: 'number', serviceName: 'string', businessName: 'string', status: 'string', lastSyncedAt: 'date' },
  params: PAGING,
});

/** Every resource, by the name of its collection endpoint. */
export const catalog = { balanceSheets, invoices, vendors, deposits, bills, connections, syncStatus } as const;

/** The name of a resource of the catalog. */
export type ResourceName = keyof typeof catalog;
