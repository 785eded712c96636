/**
 * The filters of the evaluate scenario, each written three ways: as a query (checked
 * and compiled by qsfilter), as the predicate a careful developer writes by hand for
 * this data (typed checks, the same meaning), and as the equivalent MongoDB query for
 * sift and mingo. `semantics` says whether the MongoDB query means what ours means;
 * where it does not, its match count may still agree on this data, but qsfilter is not
 * said to be faster than it.
 */
import type { Invoice } from './invoices';
import { qsfilter } from './qsfilter';

/**
 * The catalog's invoices, plus `vendorName` and `currency`, which the generated invoices
 * have and the catalog's do not filter. No request parameters: these filters are compiled
 * and run over items, not sent to an endpoint.
 */
export const invoiceData = qsfilter.defineSchema({
  fields: { ...qsfilter.invoices.spec.fields, vendorName: 'string', currency: 'string' },
});

export interface EvalFilter {
  readonly name: string;
  readonly query: string;
  readonly hand: (item: Invoice) => boolean;
  readonly mongo: Record<string, unknown>;
  /**
   * The filter in liqe's Lucene-like language and in filtrex's expressions, where they can
   * say it with the same matches (neither compares dates as instants, nor tests a field of
   * one element of a list): the bench asserts the same count before timing them.
   */
  readonly liqe?: string;
  readonly filtrex?: string;
  readonly semantics: 'same' | 'differs';
  readonly note: string;
}

/** A RegExp that matches `text` literally: built here from a constant, never from user input. */
function literal(text: string): RegExp {
  return new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

const MARCH = Date.UTC(2024, 2, 1);
const JUNE = Date.UTC(2024, 5, 1);

export const FILTERS: readonly EvalFilter[] = [
  {
    name: 'number range',
    query: 'totalAmount=gte:1000;lte:5000',
    hand: (item) => {
      const v = item.totalAmount;
      return typeof v === 'number' && v >= 1000 && v <= 5000;
    },
    mongo: { totalAmount: { $gte: 1000, $lte: 5000 } },
    liqe: 'totalAmount:[1000 TO 5000]',
    filtrex: 'totalAmount >= 1000 and totalAmount <= 5000',
    semantics: 'same',
    note: 'same on numbers (qsfilter also reads numeric strings such as "200.00"; none here)',
  },
  {
    name: 'date range',
    query: 'postedDate=gte:2024-03-01;lt:2024-06-01',
    hand: (item) => {
      const v = item.postedDate;
      if (typeof v !== 'string') return false;
      const t = Date.parse(v);
      return t >= MARCH && t < JUNE;
    },
    mongo: { postedDate: { $gte: '2024-03-01', $lt: '2024-06-01' } },
    semantics: 'differs',
    note: 'MongoDB compares the strings, not the instants: same answer only because every date here is UTC in one format',
  },
  {
    name: 'contains (%Supplies%)',
    query: 'vendorName=%25Supplies%25',
    hand: (item) => {
      const v = item.vendorName;
      return typeof v === 'string' && v.includes('Supplies');
    },
    mongo: { vendorName: { $regex: literal('Supplies') } },
    liqe: 'vendorName:/Supplies/',
    filtrex: 'vendorName ~= "Supplies"',
    semantics: 'same',
    note: 'same ($regex from an escaped constant)',
  },
  {
    name: 'ref id',
    query: 'customerRef.id=42',
    hand: (item) => {
      const ref = item.customerRef;
      if (typeof ref !== 'object' || ref === null) return false;
      const id: unknown = ref.id;
      return id === '42' || id === 42;
    },
    mongo: { 'customerRef.id': { $in: ['42', 42] } },
    // liqe's customerRef.id:42 finds "142" and "420" too: an anchored pattern is its equality.
    liqe: 'customerRef.id:/^42$/ OR customerRef.id:=42',
    filtrex: 'customerRef.id == "42" or customerRef.id == 42',
    semantics: 'same',
    note: 'same ($in ["42", 42]: ids compare as strings, reference §5)',
  },
  {
    name: 'child range, same line',
    query: 'lines.amount=gte:100;lte:500',
    hand: (item) => {
      const lines = item.lines;
      if (!Array.isArray(lines)) return false;
      for (const line of lines) {
        const a = line.amount;
        if (typeof a === 'number' && a >= 100 && a <= 500) return true;
      }
      return false;
    },
    mongo: { lines: { $elemMatch: { amount: { $gte: 100, $lte: 500 } } } },
    semantics: 'same',
    note: 'same ($elemMatch: both bounds on one line)',
  },
  {
    name: 'child contains',
    query: 'lines.description=%25license%25',
    hand: (item) => {
      const lines = item.lines;
      if (!Array.isArray(lines)) return false;
      for (const line of lines) {
        const d = line.description;
        if (typeof d === 'string' && d.includes('license')) return true;
      }
      return false;
    },
    mongo: { lines: { $elemMatch: { description: { $regex: literal('license') } } } },
    semantics: 'same',
    note: 'same',
  },
  {
    name: 'string equality',
    query: 'currency=EUR',
    hand: (item) => item.currency === 'EUR',
    mongo: { currency: 'EUR' },
    liqe: 'currency:/^EUR$/',
    filtrex: 'currency == "EUR"',
    semantics: 'same',
    note: 'same on strings (MongoDB equality would also match inside arrays; none here)',
  },
  {
    name: 'mix of 4',
    query: 'totalAmount=gte:500&vendorName=%25Supplies%25&currency=EUR&lines.description=Consulting%25',
    hand: (item) => {
      const t = item.totalAmount;
      if (typeof t !== 'number' || !(t >= 500)) return false;
      const v = item.vendorName;
      if (typeof v !== 'string' || !v.includes('Supplies')) return false;
      if (item.currency !== 'EUR') return false;
      const lines = item.lines;
      if (!Array.isArray(lines)) return false;
      for (const line of lines) {
        const d = line.description;
        if (typeof d === 'string' && d.startsWith('Consulting')) return true;
      }
      return false;
    },
    mongo: {
      totalAmount: { $gte: 500 },
      vendorName: { $regex: literal('Supplies') },
      currency: 'EUR',
      lines: { $elemMatch: { description: { $regex: /^Consulting/ } } },
    },
    semantics: 'same',
    note: 'same',
  },
];

/** Compiles a filter's query with qsfilter; a corpus query that does not check is a bug in the bench. */
export function compileFilter(filter: EvalFilter, options?: { readonly codegen?: boolean }): (item: unknown) => boolean {
  const checked = qsfilter.check(filter.query, invoiceData);
  if (!checked.ok) throw new Error(`${filter.query}: ${checked.errors[0]?.message}`);
  return qsfilter.compile(checked.value, options);
}

/**
 * A fresh counting loop. Each call returns a function with its own feedback: a loop
 * shared by every predicate would see them all at its call site, go megamorphic, and
 * charge the harness's pollution to whatever is measured. (Bench code: qsfilter's own
 * generated code follows the rules of reference §13.)
 */
export function counter(): (items: readonly unknown[], predicate: (item: unknown) => boolean) => number {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function(
    'items',
    'predicate',
    'let n = 0; for (let i = 0; i < items.length; i++) if (predicate(items[i])) n++; return n;',
  ) as (items: readonly unknown[], predicate: (item: unknown) => boolean) => number;
}
