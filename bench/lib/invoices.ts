/**
 * Deterministic invoices for the evaluate scenario: the same seed gives the same data on
 * every machine, so match counts are part of the results and a changed count means a
 * changed meaning. Every invoice is built by the same literal in the same key order,
 * as JSON.parse or a database driver would give them: one hidden class per level.
 */

export interface Line {
  description: string;
  amount: number;
  itemRef: { id: string };
}

export interface Invoice {
  id: string;
  invoiceNumber: string;
  customerRef: { id: string; name: string };
  vendorName: string;
  /** An ISO date-time string in UTC, as `Date.prototype.toISOString` writes it. */
  postedDate: string;
  /** A date-only string, `YYYY-MM-DD`. */
  dueDate: string;
  currency: string;
  totalAmount: number;
  amountDue: number;
  lines: Line[];
}

/** sfc32: a small, fast PRNG with a 128-bit state; uniform in [0, 1). */
export function prng(seed: number): () => number {
  let a = 0x9e3779b9;
  let b = 0x243f6a88;
  let c = 0xb7e15162;
  let d = seed | 0;
  const next = (): number => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 16; i++) next();
  return next;
}

const VENDORS = [
  'Acme Corp', 'Globex', 'Initech', 'Umbrella Office Supplies', 'Stark Industries', 'Wayne Enterprises',
  'Wonka Industries', 'Hooli', 'Soylent Supplies Ltd', 'Cyberdyne Systems', 'Tyrell Corporation', 'Vandelay Industries',
  'Pied Piper', 'Dunder Mifflin Paper Supplies', 'Gringotts', 'Monarch Solutions', 'Oceanic Airlines', 'Massive Dynamic',
  'Nakatomi Trading', 'Sterling Cooper', 'Prestige Worldwide', 'Bluth Company', 'Los Pollos Hermanos', 'Blue Sun Supplies',
  'Café Müller GmbH', '株式会社サンプル', "O'Brien & Sons", 'Northwind Traders', 'Contoso', 'Fabrikam',
];

const DESCRIPTIONS = [
  'Consulting fee', 'Consulting fee (travel)', 'Hosting (monthly)', 'Software license', 'Software license renewal',
  'Support contract', 'Office supplies', 'Travel expenses', 'Hardware', 'Training', 'Maintenance', 'Freight',
];

const CURRENCIES = ['USD', 'USD', 'USD', 'EUR', 'EUR', 'GBP', 'CAD', 'JPY'];

const START = Date.UTC(2023, 0, 1);
const SPAN = Date.UTC(2025, 0, 1) - START;

function cents(x: number): number {
  return Math.round(x * 100) / 100;
}

export function generateInvoices(count: number, seed = 42): Invoice[] {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const invoices: Invoice[] = [];
  for (let i = 0; i < count; i++) {
    const lineCount = 1 + Math.floor(random() * 5);
    const lines: Line[] = [];
    let total = 0;
    for (let l = 0; l < lineCount; l++) {
      // Mostly small amounts, a long tail of large ones.
      const amount = cents(5 + random() ** 3 * 4000);
      total += amount;
      lines.push({ description: pick(DESCRIPTIONS), amount, itemRef: { id: `SKU-${1 + Math.floor(random() * 300)}` } });
    }
    const issued = START + Math.floor(random() * SPAN);
    const customer = 1 + Math.floor(random() * 500);
    const totalAmount = cents(total);
    invoices.push({
      id: `inv_${i.toString(36)}`,
      invoiceNumber: `INV-${new Date(issued).getUTCFullYear()}-${String(i).padStart(6, '0')}`,
      customerRef: { id: String(customer), name: `Customer ${customer}` },
      vendorName: pick(VENDORS),
      postedDate: new Date(issued).toISOString(),
      dueDate: new Date(issued + 30 * 86_400_000).toISOString().slice(0, 10),
      currency: pick(CURRENCIES),
      totalAmount,
      amountDue: random() < 0.6 ? 0 : cents(totalAmount * random()),
      lines,
    });
  }
  return invoices;
}
