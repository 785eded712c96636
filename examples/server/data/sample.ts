import type { Resource } from '../resources';
import type { Item } from '../store/store';
import { Random } from './random';

/**
 * Sample data for every collection, the same on every run: a seeded generator, fixed
 * dates (2022 and 2023), and names that exercise encoding: `&`, `;`, `%`, `'`, `"`, `+`,
 * `/`, `\`, accents and emoji.
 */
export function sampleData(seed = 20230109): Record<Resource, Item[]> {
  const random = new Random(seed);
  const businesses = BUSINESSES.map((businessName, i) => ({ businessName, createdAt: instant(random, i * 30) }));
  const connections = makeConnections(random);
  const vendors = makeVendors(random);
  return {
    businesses,
    connections,
    syncStatus: connections.map((c, i) => syncStatusOf(random, c, i)),
    balanceSheets: makeBalanceSheets(random, connections),
    vendors,
    invoices: makeInvoices(random),
    bills: makeBills(random, vendors),
    deposits: makeDeposits(random),
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

/** Accounting systems; each business's first connection is to SERVICES[i % 5]. */
export const SERVICES = ['quickbooks', 'xero', 'sage', 'netsuite', 'freshbooks'] as const;

const FIRST_DAY = Date.UTC(2022, 0, 1);
const DAYS = 730;
const DAY_MS = 86_400_000;

/** `YYYY-MM-DD`, `days` after 2022-01-01. */
function date(days: number): string {
  return new Date(FIRST_DAY + days * DAY_MS).toISOString().slice(0, 10);
}

/** An ISO instant on the given day (after 2022-01-01), at a random time. */
function instant(random: Random, days: number): string {
  return new Date(FIRST_DAY + days * DAY_MS + random.int(0, DAY_MS / 1000 - 1) * 1000).toISOString();
}

function id(prefix: string, n: number): string {
  return `${prefix}_${String(n).padStart(5, '0')}`;
}

// ---------------------------------------------------------------- connections

function makeConnections(random: Random): Item[] {
  const list: Item[] = [];
  BUSINESSES.forEach((businessName, i) => {
    const services = [SERVICES[i % SERVICES.length]!];
    if (random.chance(0.5)) services.push(SERVICES[(i + 2) % SERVICES.length]!);
    for (const serviceName of services) {
      list.push({
        id: id('con', list.length + 1),
        businessName,
        serviceName,
        status: random.pick(['active', 'active', 'active', 'syncing', 'error', 'disconnected']),
        createdAt: instant(random, random.int(0, DAYS - 1)),
        // Seconds the initial sync took (added in the 2023-01-09 release).
        syncTime: random.int(12, 5400),
      });
    }
  });
  return list;
}

function syncStatusOf(random: Random, connection: Item, i: number): Item {
  return {
    id: id('syn', i + 1),
    businessName: connection.businessName,
    serviceName: connection.serviceName,
    status: random.pick(['complete', 'complete', 'in_progress', 'failed']),
    lastSyncedAt: instant(random, random.int(DAYS - 60, DAYS - 1)),
    syncTime: connection.syncTime,
  };
}

// ---------------------------------------------------------------- balance sheets

const BALANCE_LINES = [
  { group: 'assets', name: 'Cash', share: [0.1, 0.3] },
  { group: 'assets', name: 'Accounts receivable', share: [0.1, 0.25] },
  { group: 'assets', name: 'Inventory', share: [0.05, 0.2] },
  { group: 'assets', name: 'Equipment', share: [0.2, 0.4] },
  { group: 'liabilities', name: 'Accounts payable', share: [0.05, 0.2] },
  { group: 'liabilities', name: 'Loans', share: [0.1, 0.3] },
  { group: 'liabilities', name: 'Credit card', share: [0, 0.05] },
  { group: 'equity', name: 'Share capital', share: [0.1, 0.2] },
] as const;

/** Monthly (24) and quarterly (8) reports of each business, from its first connection. */
function makeBalanceSheets(random: Random, connections: readonly Item[]): Item[] {
  const list: Item[] = [];
  for (const businessName of BUSINESSES) {
    const serviceName = connections.find((c) => c.businessName === businessName)!.serviceName;
    const size = random.int(20_000, 500_000);
    const reports = [
      ...Array.from({ length: 24 }, (_, m) => ({ reportFrequency: 'month', month: m })),
      ...Array.from({ length: 8 }, (_, q) => ({ reportFrequency: 'quarter', month: q * 3 + 2 })),
    ];
    for (const { reportFrequency, month } of reports) {
      // The last day of the month: day 0 of the next one.
      const day = new Date(Date.UTC(2022, month + 1, 0)).toISOString().slice(0, 10);
      const rows: { group: string; name: string; value: number }[] = BALANCE_LINES.map((line) => ({
        group: line.group,
        name: line.name,
        value: random.amount(size * line.share[0], size * line.share[1]),
      }));
      const total = (group: string) => rows.reduce((sum, row) => (row.group === group ? sum + row.value : sum), 0);
      // Assets = liabilities + equity: retained earnings close the balance (and may be negative).
      rows.push({ group: 'equity', name: 'Retained earnings', value: cents(total('assets') - total('liabilities') - total('equity')) });
      for (const row of rows) {
        list.push({ id: id('bsl', list.length + 1), businessName, serviceName, reportFrequency, date: day, ...row });
      }
    }
  }
  return list;
}

function cents(value: number): number {
  return Math.round(value * 100) / 100;
}

// ---------------------------------------------------------------- vendors

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

function makeVendors(random: Random): Item[] {
  const names = new Set(VENDOR_NAMES);
  while (names.size < 250) {
    names.add(`${random.pick(VENDOR_FIRST)} ${random.pick(VENDOR_SECOND)} ${random.pick(VENDOR_SUFFIX)}`.trim());
  }
  return [...names].map((vendorName, i) => ({
    id: id('ven', i + 1),
    vendorName,
    email: `billing@${vendorName.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'vendor'}.example`,
    balance: random.chance(0.3) ? 0 : random.amount(10, 25_000),
    createdAt: instant(random, random.int(0, DAYS - 1)),
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

function makeInvoices(random: Random): Item[] {
  return Array.from({ length: 1200 }, (_, i) => {
    const issued = random.int(0, DAYS - 31);
    const lines = Array.from({ length: random.int(1, 4) }, () => ({
      description: random.pick(INVOICE_LINES),
      amount: random.amount(5, 2500),
      itemRef: { id: `item-${random.int(1, 40)}` },
    }));
    const totalAmount = cents(lines.reduce((sum, line) => sum + line.amount, 0));
    const paid = random.pick(['paid', 'open', 'partial']);
    return {
      id: id('inv', i + 1),
      docNumber: `INV-${10_001 + i}`,
      customerRef: random.pick(CUSTOMERS),
      issueDate: date(issued),
      dueDate: date(issued + 30),
      currency: random.pick(['USD', 'USD', 'USD', 'EUR', 'GBP']),
      totalAmount,
      balance: paid === 'paid' ? 0 : paid === 'open' ? totalAmount : random.amount(0, totalAmount),
      lines,
    };
  });
}

const BILL_MEMOS = ['Office rent', 'Net 30; PO #1234', 'Cloud hosting – annual', 'Cleaning (weekly)', 'Paid 50% upfront', 'Ref: "Q3 audit"', 'Parts & labour'];
const BILL_LINES = ['Rent', 'Electricity', 'Internet', 'Office supplies', 'Legal advice', 'Repairs', 'Insurance premium'];

function makeBills(random: Random, vendors: readonly Item[]): Item[] {
  return Array.from({ length: 500 }, (_, i) => {
    const lines = Array.from({ length: random.int(1, 3) }, () => ({ description: random.pick(BILL_LINES), amount: random.amount(20, 4000) }));
    return {
      id: id('bil', i + 1),
      vendorRef: { id: random.pick(vendors).id },
      // Bills with a memo can be pushed to an accounting system since 2023-01-09; some have none.
      ...(random.chance(0.7) ? { memo: random.pick(BILL_MEMOS) } : {}),
      totalAmount: cents(lines.reduce((sum, line) => sum + line.amount, 0)),
      dueDate: date(random.int(0, DAYS - 1)),
      lines,
    };
  });
}

// ---------------------------------------------------------------- deposits

const DEPOSIT_MEMOS = ['Weekly cash deposit', 'Stripe payout', 'Customer refund reversal', 'Owner contribution', 'Interest income', 'Cheque #1042 & #1043', 'Grant – 100% funded'];
const DEPOSIT_LINES = ['Cash sales', 'Card sales', 'Refund', 'Interest', 'Transfer'];

/** Deposits as of the 2023-01-09 release: the memo is on the deposit, never under its lines. */
function makeDeposits(random: Random): Item[] {
  return Array.from({ length: 400 }, (_, i) => {
    const lines = Array.from({ length: random.int(1, 3) }, () => ({ amount: random.amount(10, 8000), description: random.pick(DEPOSIT_LINES) }));
    return {
      id: id('dep', i + 1),
      memo: random.pick(DEPOSIT_MEMOS),
      txnDate: date(random.int(0, DAYS - 1)),
      totalAmount: cents(lines.reduce((sum, line) => sum + line.amount, 0)),
      lines,
    };
  });
}
