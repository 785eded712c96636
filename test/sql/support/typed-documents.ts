import fc from 'fast-check';
import { sortItems, type Filter } from '../../../src/index';
import { canonicalDate } from '../../../src/sql/typed';
import { typedItems, type TypedItem, type TypedLine } from './arbitraries';
import { object, type Json } from './json';
import { RAW_NUMBERS } from './pools';

/**
 * Documents of the typed target's canonical forms (reference §14.1), from the typed items
 * of the SQL suites: what the typed target reads exactly, and `sqlConstraints` lets in.
 */

/** Reads choices for a document's spelling, one after the other, round and round. */
function chooser(choices: readonly number[]): () => number {
  let i = 0;
  return () => choices[i++ % choices.length]!;
}

const INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * A typed item as a document of the canonical forms. `varied` spells values every way
 * the form allows (a date with or without its time, fraction or extra digits; any JSON
 * number token; ids that are integers as numbers), which filters must all read alike;
 * otherwise each value has one spelling (`canonicalDate`, the shortest number), for
 * which the order is `sortItems`' to the last tie.
 */
function typedDocument(item: TypedItem, varied: boolean, choose: () => number): Json {
  const number = (n: number | null | undefined): Json | undefined => {
    if (n === undefined) return undefined;
    if (n === null || !Number.isFinite(n)) return null;
    return varied && choose() % 5 === 0 ? { raw: RAW_NUMBERS[choose() % RAW_NUMBERS.length]! } : n;
  };
  const date = (d: Date | null | undefined): Json | undefined => {
    if (d === undefined || d === null) return d === null ? null : undefined;
    const iso = d.toISOString();
    if (!varied) return canonicalDate(d.getTime());
    switch (choose() % 4) {
      case 0:
        return canonicalDate(d.getTime());
      case 1:
        return iso.slice(0, 19) + (d.getUTCMilliseconds() === 0 ? '' : iso.slice(19, 23));
      case 2:
        return iso.slice(0, 23);
      default:
        return `${iso.slice(0, 23)}${choose() % 10}71`; // truncated to the millisecond by both
    }
  };
  const id = (v: string | number | null): Json => {
    if (typeof v === 'string' && varied && INTEGER.test(v) && Number.isSafeInteger(Number(v)) && choose() % 2 === 0) return Number(v);
    return v;
  };
  const entries = (fields: Record<string, Json | undefined>): [string, Json][] =>
    Object.entries(fields).filter((e): e is [string, Json] => e[1] !== undefined);
  const line = (l: TypedLine): Json =>
    object(entries({ label: l.label, qty: number(l.qty), on: date(l.on), item: l.item && object([['id', id(l.item.id)]]) }));
  // Own properties only: an item without "toString" would find Object.prototype's.
  const own = <K extends keyof TypedItem>(k: K): TypedItem[K] | undefined => (Object.hasOwn(item, k) ? item[k] : undefined);
  return object(
    entries({
      amount: number(item.amount),
      score: number(item.score),
      name: item.name,
      toString: own('toString'),
      at: date(item.at),
      ref: item.ref && object([['id', id(item.ref.id)]]),
      lines: item.lines?.map(line),
    }),
  );
}

/** Typed items as documents of the canonical forms, every spelling of them (`varied`) or one. */
export const typedDocuments = (varied: boolean): fc.Arbitrary<Json[]> =>
  fc.tuple(typedItems, fc.array(fc.nat(), { minLength: 50, maxLength: 50 })).map(([items, choices]) => {
    const choose = chooser(choices);
    return items.map((item) => typedDocument(item, varied, choose));
  });


/**
 * The ids of kept documents in `sortItems`' order (ties in the order kept). A document may
 * be a primitive (a whole document `9007199254740993` is the number 2^53), and equal
 * primitives are one Map key: each sorted document takes the first id of its value not
 * taken yet, which `sortItems`' stability makes the right one.
 */
export function sortedIds(kept: readonly { readonly id: number; readonly doc: unknown }[], filter: Filter, caseInsensitive = false): number[] {
  const taken = new Set<number>();
  return sortItems(
    kept.map(({ doc }) => doc),
    filter,
    { caseInsensitive },
  ).map((doc) => {
    const entry = kept.find(({ id, doc: candidate }) => !taken.has(id) && Object.is(candidate, doc))!;
    taken.add(entry.id);
    return entry.id;
  });
}
