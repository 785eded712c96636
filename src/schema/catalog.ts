import { API_PAGING, indexSpec } from '../spec/spec';
import { faced } from '../standard/standard';

/**
 * The resources of the financial-data service, as schemas to check queries with.
 *
 * The API document names a few fields of each resource (`totalAmount`, `customerRef.id`,
 * `lines.description`, `vendorName`, `memo`, `syncTime`, `group`, `value`) and the
 * release of 2023-01-09. The service is Railz (FIS Accounting Data as a Service): its
 * filtering page (docs.railz.ai/reference/filtering) is the API document's §4.1 nearly
 * word for word, examples included, and its endpoints and parameters are the document's.
 * (Its changelog entry of 2023-01-09 was not available here.) The catalog follows its
 * public reference, read in three places:
 *
 * - the data model pages (docs.railz.ai/reference/invoices, /bills, /deposits, /vendors,
 *   /balance-sheets, /financial-statements), which mark each field "sortable, filterable";
 *   the filtering page (docs.railz.ai/reference/filtering) sends the reader there for
 *   "all filterable parameters per endpoint", and the sorting page
 *   (docs.railz.ai/reference/sorting) defines `orderBy=field` and `orderBy=-field`;
 * - the OpenAPI document of the API (api.railz.ai/swagger/v2, as vendored in
 *   github.com/levrofin/railz-python, `schema.yaml` at commit 0ccd5c8, 2024-11-26), for
 *   field types, child arrays, each endpoint's query parameters and which it requires,
 *   and `limit` (100 by default, at most 500);
 * - the quick start (docs.railz.ai/docs/quickstart-step3-making-api-requests) and
 *   Airbyte's connector for the API (github.com/airbytehq/airbyte,
 *   `airbyte-integrations/connectors/source-railz/source_railz/railz.yaml`), for the form
 *   the API document uses: `GET /invoices` and the like, where `businessName` and
 *   `serviceName` name the connection whose data is read.
 *
 * How each schema is built from those:
 * - Fields are the reference's names and types: decimals are numbers, dates and
 *   date-times are dates (the API returns date-times without an offset,
 *   `"2020-12-31T00:00:00"`, read as UTC), a "Reference Type" is a ref (filterable only
 *   as `.id`), an array of objects is a child array.
 * - Filterable: what the data model page marks filterable, plus what the API document
 *   filters on. A field the reference does not mark is not in the schema: filtering on it
 *   is `UNKNOWN_FIELD`, with the filterable fields in the hint. Where the stored
 *   copy of a page is cut short, the child fields after the cut are kept from the earlier
 *   catalog if the OpenAPI document has them, and the resource says so.
 * - Sortable: what the page marks sortable. Child-array fields never sort.
 * - Where the reference has no data model page with marks (connections, sync status,
 *   businesses), the filterable fields are the item's properties that the endpoint takes
 *   as query parameters (equality is what those parameters do), plus what the API document
 *   names; nothing sorts.
 * - Request parameters: the endpoint's other query parameters, typed. The data endpoints
 *   take the API document's form: `businessName` and `serviceName` ("you will need to use
 *   the businessName and serviceName associated with that business connection", says the
 *   quick start), or `connectionUuid`, the identifier the reference's `/v2/…` paths use
 *   instead. They are declared but not `required`: a schema cannot say "these two, or
 *   that one", and the examples reference §1 says the package must accept
 *   (`GET /invoices?customerRef.id=42&totalAmount=gte:100;lte:200`,
 *   `GET /vendors?vendorName=%25acme%25`) send none of them. A server that enforces the
 *   API's rule declares them `required` in its own schema (see `MISSING_PARAMETER`).
 *   What the reference requires besides (`reportFrequency` of balance sheets) is
 *   required.
 * - Paging: `limit` (1 to 500, 100 by default) and `offset`, on every collection.
 *
 * What qsfilter cannot express is left out and said where it applies: booleans
 * (`isPerson` of vendors), enumerations (checked as text), array-valued parameters.
 */

/**
 * A sortable field of each scalar type: `totalAmount: sortableNumber`. Plain names, not
 * `sortable.number`: a bundler keeps a property read it cannot prove free of getters,
 * and with it the schema around it (see `join`).
 */
const sortableNumber = { type: 'number', sortable: true } as const;
const sortableString = { type: 'string', sortable: true } as const;
const sortableDate = { type: 'date', sortable: true } as const;

/**
 * The connection whose data a data endpoint reads: by business and accounting system as
 * the API document does, or by the connection's identifier.
 */
const CONNECTION = {
  businessName: 'string',
  serviceName: 'string',
  connectionUuid: 'string',
} as const;

/** The transaction dates to read (`YYYY-MM-DD`, both ends included); optional. */
const PERIOD = { startDate: 'date', endDate: 'date' } as const;

/**
 * Parameter specs joined in order. A call rather than `{ ...a, ...b }` inside a schema:
 * a bundler keeps a spread it cannot prove free of getters, and with it the whole
 * `indexSpec` call around it; marked `/* @__PURE__ *\/`, a call goes when its result
 * is unused, so an app bundles only the schemas it imports.
 */
function join<const A, const B, const C = unknown, const D = unknown>(a: A, b: B, c?: C, d?: D): A & B & C & D {
  return Object.assign({}, a, b, c, d);
}

/** The API's paging (`limit` 100 by default, at most 500, and `offset`), written out in each spec. */
const PAGING = API_PAGING;

/**
 * `GET /balanceSheets`: the lines of a business's balance sheet reports.
 * - Fields (docs.railz.ai/reference/balance-sheets, OpenAPI `BalanceSheetsDataV2`), all
 *   sortable and filterable: `section`, `subSection`, `group`, `subGroup`,
 *   `classification`, `type`, `subType`, `accountId`, `subAccountId`; `account`,
 *   `fullyQualifiedName` and `depth` as marked by docs.railz.ai/reference/financial-statements
 *   (`account` is also a query parameter of the OpenAPI endpoint; `depth` is a number
 *   there, a string on the page: a number here). `value`: the API document filters on it
 *   (`value=gt:1000`); the stored copy of the page ends just before its row, so it is
 *   sortable here as every field the page marks filterable is also marked sortable.
 * - Not filterable: `subAccount` (unmarked).
 * - Parameters: `reportFrequency` (month, quarter or year) required, as in the API
 *   document's example and the OpenAPI endpoint; `businessName`, `serviceName` or
 *   `connectionUuid` (not `required`, see above); `startDate`, `endDate`,
 *   `accountingMethod` (cash or accrual).
 */
export const balanceSheets = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: {
    section: sortableString,
    subSection: sortableString,
    group: sortableString,
    subGroup: sortableString,
    classification: sortableString,
    type: sortableString,
    subType: sortableString,
    account: sortableString,
    accountId: sortableString,
    subAccountId: sortableString,
    fullyQualifiedName: sortableString,
    depth: sortableNumber,
    value: sortableNumber,
  },
  params: /* @__PURE__ */ join(CONNECTION, { reportFrequency: { type: 'string', required: true } }, PERIOD, { accountingMethod: 'string' }),
  paging: PAGING,
}));

/**
 * `GET /invoices`.
 * - Fields (docs.railz.ai/reference/invoices, OpenAPI `GetInvoiceV2Data`), sortable and
 *   filterable: `id`, `invoiceNumber`, `postedDate`, `dueDate`, `status` (open, draft,
 *   partiallyPaid, paid, void, unknown), `totalDiscount`, `discountPercentage`,
 *   `subTotal`, `taxAmount`, `totalAmount`, `amountDue`, `sourceModifiedDate`.
 * - `customerRef`: filterable as `customerRef.id` (the API document), not sortable.
 * - `lines` (`InvoiceLineItemsV2`): `id` (marked filterable), `description` (the API
 *   document). The stored copy of the page ends after the lines' `id`: `amount` is kept
 *   from the earlier catalog (the OpenAPI lines have it); the earlier `itemRef` is not a
 *   field of the reference (its lines have `inventoryRef`) and is gone.
 * - Not filterable (unmarked): `currency`, `currencyRate`, `memo`, `payments`,
 *   `subsidiaryRefs`.
 * - Parameters: `businessName`, `serviceName` or `connectionUuid` (none `required`, see
 *   above), `startDate`, `endDate`.
 */
export const invoices = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: {
    id: sortableString,
    invoiceNumber: sortableString,
    customerRef: { type: 'ref' },
    postedDate: sortableDate,
    dueDate: sortableDate,
    status: sortableString,
    totalDiscount: sortableNumber,
    discountPercentage: sortableNumber,
    subTotal: sortableNumber,
    taxAmount: sortableNumber,
    totalAmount: sortableNumber,
    amountDue: sortableNumber,
    sourceModifiedDate: sortableDate,
    lines: { type: 'array', of: { id: 'string', description: 'string', amount: 'number' } },
  },
  params: /* @__PURE__ */ join(CONNECTION, PERIOD),
  paging: PAGING,
}));

/**
 * `GET /vendors`.
 * - Fields (docs.railz.ai/reference/vendors, OpenAPI `GetVendorDataV2`), sortable and
 *   filterable: `id`, `vendorName` (the API document's `vendorName=%25acme%25`),
 *   `balance`, `status` (active, archived, unknown), `sourceModifiedDate`.
 * - `isPerson` is marked too, but it is a boolean, which qsfilter has no type for: left out.
 * - Not filterable (unmarked): `contactName`, `emailAddress` (the earlier catalog's
 *   assumed `email`), `website`, `phone`, `taxNumber`, `currency`, addresses, `contacts`.
 *   The earlier `createdAt` is not a field of the reference.
 * - Parameters: `businessName`, `serviceName` or `connectionUuid` (none `required`, see
 *   above).
 */
export const vendors = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: {
    id: sortableString,
    vendorName: sortableString,
    balance: sortableNumber,
    status: sortableString,
    sourceModifiedDate: sortableDate,
  },
  params: CONNECTION,
  paging: PAGING,
}));

/** Where to filter instead of `lines.memo` on deposits, since the release of 2023-01-09. */
export const DEPOSIT_LINE_MEMO_REMOVED =
  'Since the 2023-01-09 release a deposit\'s memo is no longer duplicated under its lines: filter on the deposit\'s own memo (memo=…).';

/**
 * `GET /deposits` (created with `POST /Deposit`).
 * - Fields (docs.railz.ai/reference/deposits, OpenAPI `GetDepositV2Data`), sortable and
 *   filterable: `id`, `postedDate` (the earlier catalog's assumed `txnDate`), `subTotal`,
 *   `taxAmount`, `totalAmount`, `status` (open, paid, void, draft, unknown),
 *   `sourceModifiedDate`.
 * - `memo`: on the deposit itself (the API document), filterable, not sortable (unmarked).
 * - `lines` (`DepositLineV2Items`): `quantity`, `taxAmount`, `amount` (marked filterable);
 *   `memo` was removed on 2023-01-09 (`FIELD_REMOVED`, with a hint to filter on `memo`).
 *   Not filterable (unmarked): the lines' `description` and `unitAmount`.
 * - Not filterable (unmarked): `currency`, `currencyRate`, `bankAccountRef`.
 * - Parameters: `businessName`, `serviceName` or `connectionUuid` (none `required`, see
 *   above), `startDate`, `endDate`.
 */
export const deposits = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: {
    id: sortableString,
    postedDate: sortableDate,
    subTotal: sortableNumber,
    taxAmount: sortableNumber,
    totalAmount: sortableNumber,
    status: sortableString,
    memo: 'string',
    sourceModifiedDate: sortableDate,
    lines: {
      type: 'array',
      of: { quantity: 'number', taxAmount: 'number', amount: 'number', memo: { type: 'string', removed: DEPOSIT_LINE_MEMO_REMOVED } },
    },
  },
  params: /* @__PURE__ */ join(CONNECTION, PERIOD),
  paging: PAGING,
}));

/**
 * `GET /bills`.
 * - Fields (docs.railz.ai/reference/bills, OpenAPI `GetBillV2Data`), sortable and
 *   filterable: `id`, `postedDate`, `dueDate`, `status` (open, draft, partiallyPaid,
 *   paid, void, unknown), `subTotal`, `taxAmount`, `totalAmount`, `amountDue`,
 *   `sourceModifiedDate`.
 * - `memo`: the API document's (bills with a memo can be pushed since 2023-01-09),
 *   filterable, not sortable (unmarked).
 * - `lines` (`BillLineItemsV2`): `id`, `unitAmount`, `quantity` (marked filterable). The
 *   stored copy of the page ends after `quantity`: `amount` is kept from the earlier
 *   catalog (the OpenAPI lines have it). The lines' `description` is unmarked.
 * - Not filterable (unmarked): `vendorRef` (the earlier catalog's assumed `vendorRef.id`),
 *   `vendorInvoiceNumber`, `purchaseOrderRefs`, `currency`, `currencyRate`, `payments`.
 * - Parameters: `businessName`, `serviceName` or `connectionUuid` (none `required`, see
 *   above), `startDate`, `endDate`.
 */
export const bills = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: {
    id: sortableString,
    postedDate: sortableDate,
    dueDate: sortableDate,
    status: sortableString,
    subTotal: sortableNumber,
    taxAmount: sortableNumber,
    totalAmount: sortableNumber,
    amountDue: sortableNumber,
    memo: 'string',
    sourceModifiedDate: sortableDate,
    lines: { type: 'array', of: { id: 'string', unitAmount: 'number', quantity: 'number', amount: 'number' } },
  },
  params: /* @__PURE__ */ join(CONNECTION, PERIOD),
  paging: PAGING,
}));

/**
 * `GET /connections`: connections to third-party accounting systems.
 * - No data model page with marks; the OpenAPI endpoint (`/v2/connections`, items
 *   `ConnectionsResponseDataV2`) takes as query parameters these properties of its items,
 *   filterable here: `connectionUuid`, `businessUuid`, `businessName`, `serviceName`,
 *   `status` (pending, active, disconnected, expired, invalid: docs.railz.ai/docs/connection),
 *   and `serviceAccountRef.id`.
 * - `syncTime`: the API document (seconds the initial sync of a new connection took,
 *   added 2023-01-09; a number in the OpenAPI items).
 * - Nothing sorts: the endpoint takes no `orderBy`. The earlier `createdAt` is a property
 *   of the items but no query parameter: not filterable.
 * - Parameters: `institutionName` (a banking service; the items carry an `institution`
 *   object instead). None is required.
 */
export const connections = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: {
    connectionUuid: 'string',
    businessUuid: 'string',
    businessName: 'string',
    serviceName: 'string',
    status: 'string',
    serviceAccountRef: { type: 'ref' },
    syncTime: 'number',
  },
  params: { institutionName: 'string' },
  paging: PAGING,
}));

/**
 * `GET /syncStatus` (`/data/syncStatus`): when each data type of a connection was synced.
 * - No data model page with marks; the OpenAPI endpoint (`/v2/data/syncStatus`, items
 *   `DataType`) takes one property of its items as a query parameter: `dataType`
 *   (invoices, bills, balanceSheets…), filterable here.
 * - `syncTime`: the API document says syncStatus returns it since 2023-01-09; the OpenAPI
 *   items do not list it. Kept, as a number.
 * - The earlier catalog's assumed `serviceName`, `businessName`, `status` and
 *   `lastSyncedAt` are not properties of the items (`lastSyncDate` is; it is no query
 *   parameter): gone.
 * - Nothing sorts: the endpoint takes `orderBy`, but the reference marks no field sortable.
 * - Parameters: `businessName`, `serviceName` or `connectionUuid` (none `required`, see
 *   above), `startDate`, `endDate`, and the properties of an item's `reports` the endpoint selects on:
 *   `reportFrequency`, `currentStatus` (success, failed, pending, empty),
 *   `accountingMethod`; `requestId`.
 */
export const syncStatus = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: { dataType: 'string', syncTime: 'number' },
  params: /* @__PURE__ */ join(CONNECTION, PERIOD, {
    reportFrequency: 'string',
    currentStatus: 'string',
    accountingMethod: 'string',
    requestId: 'string',
  }),
  paging: PAGING,
}));

/**
 * `GET /businesses`: the businesses that share their data (created with
 * `POST /businesses`, deleted by name).
 * - No data model page with marks; the OpenAPI endpoint (`/v2/businesses`, items
 *   `BusinessesResponseDataV2`) takes as query parameters these properties of its items,
 *   filterable here: `businessName`, `status` (new, active, inactive:
 *   docs.railz.ai/docs/businesses).
 * - Nothing sorts: the endpoint takes no `orderBy`. The example server's earlier
 *   `createdAt` is a property of the items but no query parameter: not filterable.
 * - Parameters: `businessNameOrUuid` (part or all of a name, or a business's UUID). The
 *   reference's `integrationUuids` takes a list of values, which a typed parameter does
 *   not: left out. None is required.
 */
export const businesses = /* @__PURE__ */ faced(/* @__PURE__ */ indexSpec({
  fields: { businessName: 'string', status: 'string' },
  params: { businessNameOrUuid: 'string' },
  paging: PAGING,
}));

/** Every resource, by the name of its collection endpoint; each also a Standard Schema validator. */
export const catalog = { balanceSheets, invoices, vendors, deposits, bills, connections, syncStatus, businesses } as const;

/** The name of a resource of the catalog. */
export type ResourceName = keyof typeof catalog;
