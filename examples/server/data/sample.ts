import type { Resource } from '../resources';
import type { Item } from '../store/store';
import { Random } from './random';

/**
 * Sample data for every collection, the same on every run: a seeded generator, fixed
 * dates (2022 and 2023), and names that exercise encoding: `&`, `;`, `%`, `'`, `"`, `+`,
 * `/`, `\`, accents and emoji.
 *
 * Items have the fields of the API's reference (see the catalog) and its date-times,
 * which carry no offset (`"2022-03-14T00:00:00"`, UTC). Each accounting item also
 * carries the `businessName` and `serviceName` of the connection it was read from: the
 * API puts those in a response's `meta`; the server selects items by them.
 */
export function sampleData(seed = 20230109): Record<Resource, Item[]> {
  const random = new Random(seed);
  const businesses = makeBusinesses(random);
  const connections = makeConnections(random, businesses);
  const books = BUSINESSES.map((businessName) => connections.find((c) => c.businessName === businessName)!);
  const vendors = makeVendors(random, books);
  return {
    businesses,
    connections,
    syncStatus: books.flatMap((connection) => syncStatusOf(random, connection)),
    balanceSheets: makeBalanceSheets(random, books),
    vendors,
    invoices: makeInvoices(random, books),
    bills: makeBills(random, books, vendors),
    deposits: makeDeposits(random, books),
  };
}

/** Businesses with the characters that used to make deleting them fail. */
export const BUSINESSES = [
  'Acme & Sons',
  'Café Zoë',
  "O'Brien; Partners",
  '100% Organic',
  'Smith+Jones Ltd',
  'A/B Testing Co.',
  '"Quoted" Bistro',
  'Sushi 🍣 Bar',
  'Müller GmbH',
  'Back\\slash Studio',
] as const;

/** Accounting systems, as the API names them; each business's books are kept in SERVICES[i % 5]. */
export const SERVICES = ['quickbooks', 'xero', 'sageIntacct', 'oracleNetsuite', 'freshbooks'] as const;

const FIRST_DAY = Date.UTC(2022, 0, 1);
const DAYS = 730;
const DAY_MS = 86_400_000;

/** The API's form of a date: midnight, without an offset (`2022-03-14T00:00:00`), `days` after 2022-01-01. */
function date(days: number): string {
  return new Date(FIRST_DAY + days * DAY_MS).toISOString().slice(0, 10) + 'T00:00:00';
}

/** An instant on the given day (after 2022-01-01) at a random time, in the API's form: no offset, UTC. */
function instant(random: Random, days: number): string {
  return new Date(FIRST_DAY + days * DAY_MS + random.int(0, DAY_MS / 1000 - 1) * 1000).toISOString().slice(0, 19);
}

function id(prefix: string, n: number): string {
  return `${prefix}_${String(n).padStart(5, '0')}`;
}

/** An identifier shaped as the API's (`CON-1b4e28ba-2fa1-41d2-883f-0016d3cca427`). */
function uuid(random: Random, prefix: string): string {
  const hex = (n: number) => Array.from({ length: n }, () => random.int(0, 15).toString(16)).join('');
  return `${prefix}-${hex(8)}-${hex(4)}-4${hex(3)}-${random.pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
}

/**
 * The business an accounting item belongs to: "Acme & Sons" holds about 40% of the
 * items, so that the examples, which read its books, find plenty.
 */
function owner(random: Random, books: readonly Item[]): Item {
  return random.chance(0.4) ? books[0]! : books[random.int(1, books.length - 1)]!;
}

/** The connection fields an accounting item carries. */
function of(book: Item): { businessName: string; serviceName: string } {
  return { businessName: book.businessName as string, serviceName: book.serviceName as string };
}

function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

// ---------------------------------------------------------------- businesses and connections

function makeBusinesses(random: Random): Item[] {
  return BUSINESSES.map((businessName, i) => ({
    businessUuid: uuid(random, 'BIZ'),
    businessName,
    status: 'active',
    createdAt: instant(random, i * 30),
  }));
}

/**
 * Each business's accounting connection (to SERVICES[i % 5]), and for about half of them
 * an earlier one to another system that is no longer active.
 */
function makeConnections(random: Random, businesses: readonly Item[]): Item[] {
  const list: Item[] = [];
  businesses.forEach((business, i) => {
    const kept = [{ serviceName: SERVICES[i % SERVICES.length]!, status: 'active' }];
    if (random.chance(0.5)) kept.push({ serviceName: SERVICES[(i + 2) % SERVICES.length]!, status: random.pick(['disconnected', 'expired']) });
    for (const { serviceName, status } of kept) {
      list.push({
        connectionUuid: uuid(random, 'CON'),
        businessUuid: business.businessUuid,
        businessName: business.businessName,
        serviceName,
        status,
        createdAt: instant(random, random.int(0, DAYS - 1)),
        // Seconds the initial sync took (added in the 2023-01-09 release).
        syncTime: random.int(12, 5400),
      });
    }
  });
  return list;
}

const DATA_TYPES = ['balanceSheets', 'invoices', 'bills', 'deposits', 'vendors'] as const;

/** When each data type of a connection was last synced, with the report of that sync. */
function syncStatusOf(random: Random, connection: Item): Item[] {
  return DATA_TYPES.map((dataType) => {
    const synced = instant(random, random.int(DAYS - 60, DAYS - 1));
    return {
      ...of(connection),
      connectionUuid: connection.connectionUuid,
      dataType,
      lastSyncDate: synced,
      lastUpdatedDate: synced,
      // The API document: syncStatus returns the connection's initial sync time too.
      syncTime: connection.syncTime,
      reports: [{ startDate: date(0), endDate: date(DAYS - 1), lastSuccessfulSync: synced, currentStatus: random.pick(['success', 'success', 'success', 'failed']) }],
    };
  });
}

// ---------------------------------------------------------------- balance sheets

/** The accounts of a balance sheet, classified as the API normalizes them. */
const BALANCE_ACCOUNTS = [
  { section: 'Assets', subSection: 'Current Assets', group: 'Current Assets', subGroup: 'Cash and Cash Equivalents', account: 'Cash', share: [0.1, 0.3] },
  { section: 'Assets', subSection: 'Current Assets', group: 'Current Assets', subGroup: 'Accounts Receivable', account: 'Accounts receivable', share: [0.1, 0.25] },
  { section: 'Assets', subSection: 'Current Assets', group: 'Current Assets', subGroup: 'Inventory', account: 'Inventory', share: [0.05, 0.2] },
  { section: 'Assets', subSection: 'Non-Current Assets', group: 'Fixed Assets', subGroup: 'Property, Plant and Equipment', account: 'Equipment', share: [0.2, 0.4] },
  { section: 'Liabilities', subSection: 'Current Liabilities', group: 'Current Liabilities', subGroup: 'Accounts Payable', account: 'Accounts payable', share: [0.05, 0.2] },
  { section: 'Liabilities', subSection: 'Non-Current Liabilities', group: 'Long Term Liabilities', subGroup: 'Loans', account: 'Loans', share: [0.1, 0.3] },
  { section: 'Liabilities', subSection: 'Current Liabilities', group: 'Current Liabilities', subGroup: 'Credit Cards', account: 'Credit card', share: [0, 0.05] },
  { section: 'Equity', subSection: 'Equity', group: 'Equity', subGroup: 'Share Capital', account: 'Share capital', share: [0.1, 0.2] },
] as const;

const RETAINED_EARNINGS = { section: 'Equity', subSection: 'Equity', group: 'Equity', subGroup: 'Retained Earnings', account: 'Retained earnings' } as const;

/** A line of a balance sheet: an account, its classification and its value. */
interface BalanceLine {
  readonly section: string;
  readonly subSection: string;
  readonly group: string;
  readonly subGroup: string;
  readonly account: string;
  readonly value: number;
}

/**
 * Monthly (24) and quarterly (8) reports of each business's books. Each line carries the
 * report's business, system, frequency and period, which the API gives in the report's
 * `meta`.
 */
function makeBalanceSheets(random: Random, books: readonly Item[]): Item[] {
  const list: Item[] = [];
  for (const book of books) {
    const size = random.int(20_000, 500_000);
    const reports = [
      ...Array.from({ length: 24 }, (_, m) => ({ reportFrequency: 'month', first: m, last: m })),
      ...Array.from({ length: 8 }, (_, q) => ({ reportFrequency: 'quarter', first: q * 3, last: q * 3 + 2 })),
    ];
    for (const { reportFrequency, first, last } of reports) {
      const startDate = new Date(Date.UTC(2022, first, 1)).toISOString().slice(0, 10) + 'T00:00:00';
      // The last day of the period: day 0 of the next month.
      const endDate = new Date(Date.UTC(2022, last + 1, 0)).toISOString().slice(0, 10) + 'T00:00:00';
      const rows: BalanceLine[] = BALANCE_ACCOUNTS.map(({ share, ...account }) => ({
        ...account,
        value: random.amount(size * share[0], size * share[1]),
      }));
      const total = (section: string) => rows.reduce((sum, row) => (row.section === section ? sum + row.value : sum), 0);
      // Assets = liabilities + equity: retained earnings close the balance (and may be negative).
      rows.push({ ...RETAINED_EARNINGS, value: cents(total('Assets') - total('Liabilities') - total('Equity')) });
      rows.forEach((row, n) => {
        list.push({
          id: id('bsl', list.length + 1),
          ...of(book),
          reportFrequency,
          startDate,
          endDate,
          ...row,
          accountId: String(1000 + n * 10),
          fullyQualifiedName: `${row.group}:${row.account}`,
          depth: 2,
        });
      });
    }
  }
  return list;
}

// ---------------------------------------------------------------- vendors

/** Vendors of "Acme & Sons" whose names need encoding, or differ only in case. */
const VENDOR_NAMES = [
  'Acme & Sons',
  'Café Zoë',
  "O'Brien; Partners",
  '100% Organic',
  'Acme Office Supplies',
  'ACME Logistics',
  'acme-widgets.com',
  "Zoë's Flowers",
  '"Best" Printing',
  'Straße & Co. KG',
  'Plus+Minus Ltd',
  '50/50 Catering',
  'Back\\slash Tools',
  'Sushi 🍣 Supplies',
];
const VENDOR_FIRST = ['Northwind', 'Contoso', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Wonka', 'Tyrell', 'Hooli', 'Vandelay', 'Oceanic', 'Blue Sky', 'Green Leaf', 'Red Rock', 'Silver Line', 'Golden Gate', 'Maple', 'Harbor', 'Summit'];
const VENDOR_SECOND = ['Traders', 'Industries', 'Supplies', 'Logistics', 'Consulting', 'Foods', 'Systems', 'Print', 'Cleaning', 'Hardware', 'Software', 'Travel', 'Energy', 'Media', 'Labs'];
const VENDOR_SUFFIX = ['Inc.', 'LLC', 'Ltd', 'GmbH', '& Co.', 'S.A.', ''];

function makeVendors(random: Random, books: readonly Item[]): Item[] {
  const names = new Set(VENDOR_NAMES);
  while (names.size < 250) {
    names.add(`${random.pick(VENDOR_FIRST)} ${random.pick(VENDOR_SECOND)} ${random.pick(VENDOR_SUFFIX)}`.trim());
  }
  return [...names].map((vendorName, i) => ({
    id: id('ven', i + 1),
    ...of(i < VENDOR_NAMES.length ? books[0]! : owner(random, books)),
    vendorName,
    emailAddress: `billing@${vendorName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'vendor'}.example`,
    balance: random.chance(0.3) ? 0 : random.amount(10, 25_000),
    status: random.chance(0.9) ? 'active' : 'archived',
    currency: 'USD',
    sourceModifiedDate: instant(random, random.int(0, DAYS - 1)),
  }));
}

// ---------------------------------------------------------------- invoices and bills

const CUSTOMERS = Array.from({ length: 60 }, (_, i) => ({ id: String(i + 1), name: `${VENDOR_FIRST[i % VENDOR_FIRST.length]} ${['Retail', 'Group', 'Partners', 'Holdings'][i % 4]}` }));
const INVOICE_LINES = [
  'Consulting fee',
  'Software license',
  'Hosting (monthly)',
  'Support hours',
  'Travel expenses',
  'Training session',
  'Design work',
  'Hardware: laptop',
  'Maintenance; quarterly',
  'Rush order +10%',
  'R&D services',
  'Café catering',
];
const TAX_RATES = [0, 0.05, 0.13];

/** Lines of `count` items each: quantity × unit amount. */
function linesOf(random: Random, parent: string, descriptions: readonly string[], count: number): { id: string; description: string; quantity: number; unitAmount: number; amount: number }[] {
  return Array.from({ length: count }, (_, n) => {
    const quantity = random.chance(0.7) ? 1 : random.int(2, 5);
    const unitAmount = random.amount(5, 2500 / quantity);
    return { id: `${parent}-${n + 1}`, description: random.pick(descriptions), quantity, unitAmount, amount: cents(quantity * unitAmount) };
  });
}

/** The amounts of a document over its lines: subtotal, tax, total, and what is still due given its status. */
function totals(random: Random, lines: readonly { amount: number }[], status: string): { subTotal: number; taxAmount: number; totalAmount: number; amountDue: number } {
  const subTotal = cents(lines.reduce((sum, line) => sum + line.amount, 0));
  const taxAmount = cents(subTotal * random.pick(TAX_RATES));
  const totalAmount = cents(subTotal + taxAmount);
  const amountDue = status === 'paid' || status === 'void' ? 0 : status === 'partiallyPaid' ? random.amount(0.01, totalAmount - 0.01) : totalAmount;
  return { subTotal, taxAmount, totalAmount, amountDue };
}

function makeInvoices(random: Random, books: readonly Item[]): Item[] {
  return Array.from({ length: 1200 }, (_, i) => {
    const posted = random.int(0, DAYS - 31);
    const invoice = id('inv', i + 1);
    const lines = linesOf(random, invoice, INVOICE_LINES, random.int(1, 4));
    const status = random.pick(['paid', 'paid', 'open', 'partiallyPaid', 'draft', 'void']);
    return {
      id: invoice,
      ...of(owner(random, books)),
      invoiceNumber: `INV-${10_001 + i}`,
      customerRef: random.pick(CUSTOMERS),
      postedDate: date(posted),
      dueDate: date(posted + 30),
      currency: random.pick(['USD', 'USD', 'USD', 'EUR', 'GBP']),
      status,
      ...totals(random, lines, status),
      sourceModifiedDate: instant(random, posted + random.int(0, 30)),
      lines,
    };
  });
}

const BILL_MEMOS = ['Office rent', 'Net 30; PO #1234', 'Cloud hosting – annual', 'Cleaning (weekly)', 'Paid 50% upfront', 'Ref: "Q3 audit"', 'Parts & labour'];
const BILL_LINES = ['Rent', 'Electricity', 'Internet', 'Office supplies', 'Legal advice', 'Repairs', 'Insurance premium'];

function makeBills(random: Random, books: readonly Item[], vendors: readonly Item[]): Item[] {
  return Array.from({ length: 500 }, (_, i) => {
    const book = owner(random, books);
    const ownVendors = vendors.filter((v) => v.businessName === book.businessName);
    const vendor = random.pick(ownVendors.length > 0 ? ownVendors : vendors);
    const posted = random.int(0, DAYS - 31);
    const bill = id('bil', i + 1);
    const lines = linesOf(random, bill, BILL_LINES, random.int(1, 3));
    const status = random.pick(['paid', 'open', 'open', 'partiallyPaid']);
    return {
      id: bill,
      ...of(book),
      vendorRef: { id: vendor.id, name: vendor.vendorName },
      postedDate: date(posted),
      dueDate: date(posted + random.pick([15, 30, 45])),
      status,
      ...totals(random, lines, status),
      // Bills with a memo can be pushed to an accounting system since 2023-01-09; some have none.
      ...(random.chance(0.7) ? { memo: random.pick(BILL_MEMOS) } : {}),
      sourceModifiedDate: instant(random, posted + random.int(0, 30)),
      lines,
    };
  });
}

// ---------------------------------------------------------------- deposits

const DEPOSIT_MEMOS = ['Weekly cash deposit', 'Stripe payout', 'Customer refund reversal', 'Owner contribution', 'Interest income', 'Cheque #1042 & #1043', 'Grant – 100% funded'];
const DEPOSIT_LINES = ['Cash sales', 'Card sales', 'Refund', 'Interest', 'Transfer'];

/** Deposits as of the 2023-01-09 release: the memo is on the deposit, never under its lines. */
function makeDeposits(random: Random, books: readonly Item[]): Item[] {
  return Array.from({ length: 400 }, (_, i) => {
    const deposit = id('dep', i + 1);
    // Deposit lines have no id in the reference.
    const lines = linesOf(random, deposit, DEPOSIT_LINES, random.int(1, 3)).map(({ description, quantity, unitAmount, amount }) => ({ description, quantity, unitAmount, amount }));
    const posted = random.int(0, DAYS - 1);
    const totalAmount = cents(lines.reduce((sum, line) => sum + line.amount, 0));
    return {
      id: deposit,
      ...of(owner(random, books)),
      postedDate: date(posted),
      bankAccountRef: { id: 'acc-1010', name: 'Checking' },
      status: random.chance(0.9) ? 'paid' : 'open',
      memo: random.pick(DEPOSIT_MEMOS),
      subTotal: totalAmount,
      taxAmount: 0,
      totalAmount,
      sourceModifiedDate: instant(random, posted),
      lines,
    };
  });
}
