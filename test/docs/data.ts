/**
 * Values as the snippet runner (a child process) sends them to the test: JSON, with the
 * values JSON lacks tagged under a key no data of the docs uses. Objects keep their own
 * enumerable properties, as the docs' values show them.
 */

const TAG = '\u0000readme';

type Data = null | boolean | number | string | Data[] | { [key: string]: Data };

/** A value as JSON-safe data. */
export function toData(value: unknown, seen: Set<object> = new Set()): Data {
  switch (typeof value) {
    case 'undefined':
      return { [TAG]: 'undefined' };
    case 'number':
      if (Object.is(value, -0)) return { [TAG]: 'number', value: '-0' };
      return Number.isFinite(value) ? value : { [TAG]: 'number', value: String(value) };
    case 'bigint':
      return { [TAG]: 'bigint', value: String(value) };
    case 'function':
    case 'symbol':
      return `[${typeof value} ${String((value as { name?: unknown }).name ?? value.toString())}]`;
    case 'object': {
      if (value === null) return null;
      if (seen.has(value)) return '[circular]';
      if (value instanceof Date) return { [TAG]: 'date', value: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
      seen.add(value);
      try {
        if (Array.isArray(value)) return Array.from(value, (item: unknown) => toData(item, seen));
        if (value instanceof Map) return { [TAG]: 'map', entries: toData([...value], seen) };
        if (value instanceof Set) return { [TAG]: 'set', values: toData([...value], seen) };
        const data: Record<string, Data> = {};
        if (value instanceof Error) Object.assign(data, { name: value.name, message: value.message });
        for (const key of Object.keys(value)) data[key] = toData((value as Record<string, unknown>)[key], seen);
        return data;
      } finally {
        seen.delete(value);
      }
    }
    default:
      return value as boolean | string;
  }
}

/** The value back from its data. */
export function fromData(data: unknown): unknown {
  if (Array.isArray(data)) return data.map(fromData);
  if (typeof data !== 'object' || data === null) return data;
  const record = data as Record<string, unknown>;
  switch (record[TAG]) {
    case undefined:
      return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fromData(value)]));
    case 'undefined':
      return undefined;
    case 'number':
      return Number(record.value);
    case 'bigint':
      return BigInt(record.value as string);
    case 'date':
      return new Date(record.value === 'invalid' ? Number.NaN : (record.value as string));
    case 'map':
      return new Map(fromData(record.entries) as [unknown, unknown][]);
    case 'set':
      return new Set(fromData(record.values) as unknown[]);
    default:
      throw new Error(`unknown tag ${String(record[TAG])}`);
  }
}
