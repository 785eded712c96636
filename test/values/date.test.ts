import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, formatDate, instantFromData, readDate } from '../../src/values/date';

/** Epoch ms of a UTC date and time, by `Date`, which knows nothing of our scanner. */
function utc(y: number, m: number, d: number, hh = 0, mm = 0, ss = 0, ms = 0): number {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps the years 0–99 to 1900–1999.
  date.setUTCFullYear(y, m - 1, d);
  date.setUTCHours(hh, mm, ss, ms);
  return date.getTime();
}

function isRealDay(y: number, m: number, d: number): boolean {
  const date = new Date(utc(y, m, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

describe('readDate: dates are whole UTC days', () => {
  it.each([
    ['2023-01-09', utc(2023, 1, 9)],
    ['2024-02-29', utc(2024, 2, 29)],
    ['2000-02-29', utc(2000, 2, 29)], // divisible by 400: a leap year
    ['0000-01-01', utc(0, 1, 1)],
    ['0000-02-29', utc(0, 2, 29)], // year 0 of the proleptic Gregorian calendar is a leap year
    ['9999-12-31', utc(9999, 12, 31)],
    ['1969-12-31', utc(1969, 12, 31)],
  ])('reads %j as its day', (text, start) => {
    expect(readDate(text)).toEqual({ start, end: start + DAY_MS, unit: 'day' });
  });

  it.each(['2023-02-29', '1900-02-29', '2100-02-29', '2023-04-31', '2023-13-01', '2023-00-10', '2023-01-00', '2023-01-32'])(
    'refuses %j: no such day',
    (text) => {
      expect(readDate(text)).toBe('calendar');
    },
  );

  it.each(['', '2023', '2023-1-09', '2023-01-9', '23-01-09', '20230109', '2023/01/09', '+2023-01-09', '12023-01-09', ' 2023-01-09', '2023-01-09 ', '2023-01-09T', '2023-01-09t10:00Z', 'today', '２０２３-01-09'])(
    'refuses %j as syntax',
    (text) => {
      expect(readDate(text)).toBe('syntax');
    },
  );

  it('agrees with Date on which days exist, for every year 0000–9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }), (y, m, d) => {
        const result = readDate(`${pad(y, 4)}-${pad(m)}-${pad(d)}`);
        if (isRealDay(y, m, d)) expect(result).toEqual({ start: utc(y, m, d), end: utc(y, m, d) + DAY_MS, unit: 'day' });
        else expect(result).toBe('calendar');
      }),
      { numRuns: 3000 },
    );
  });
});

describe('readDate: date-times are instants', () => {
  it.each([
    ['2023-01-09T10:00Z', utc(2023, 1, 9, 10)],
    ['2023-01-09T10:00:30Z', utc(2023, 1, 9, 10, 0, 30)],
    ['2023-01-09T10:00:00+01:00', utc(2023, 1, 9, 9)],
    ['2023-01-09T10:00:00-05:30', utc(2023, 1, 9, 15, 30)],
    ['2023-01-09T00:00:00+14:00', utc(2023, 1, 8, 10)],
    ['2023-01-09T23:59:59Z', utc(2023, 1, 9, 23, 59, 59)],
    ['2023-01-09T00:00:00-00:00', utc(2023, 1, 9)],
    ['2023-01-09T10:00:00.5Z', utc(2023, 1, 9, 10, 0, 0, 500)],
    ['2023-01-09T10:00:00.12Z', utc(2023, 1, 9, 10, 0, 0, 120)],
    ['2023-01-09T10:00:00.123Z', utc(2023, 1, 9, 10, 0, 0, 123)],
    // 4 to 9 fraction digits are truncated to milliseconds, never rounded.
    ['2023-01-09T10:00:00.1239Z', utc(2023, 1, 9, 10, 0, 0, 123)],
    ['2023-01-09T10:00:00.999999999Z', utc(2023, 1, 9, 10, 0, 0, 999)],
    ['0000-01-01T00:00:00Z', utc(0, 1, 1)],
    ['9999-12-31T23:59:59.999Z', utc(9999, 12, 31, 23, 59, 59, 999)],
    ['0000-01-01T00:30:00+00:30', utc(0, 1, 1)],
  ])('reads %j as one millisecond', (text, start) => {
    expect(readDate(text)).toEqual({ start, end: start + 1, unit: 'instant' });
  });

  it.each(['2023-01-09T24:00:00Z', '2023-01-09T23:60:00Z', '2023-01-09T23:59:60Z', '2023-02-30T10:00:00Z'])(
    'refuses %j: no such time',
    (text) => {
      expect(readDate(text)).toBe('calendar');
    },
  );

  it.each(['2023-01-09T10:00:00+24:00', '2023-01-09T10:00:00+01:60', '2023-01-09T10:00:00-99:00'])('refuses %j: no such offset, a time that exists', (text) => {
    expect(readDate(text)).toBe('offset-range');
  });

  it.each(['2023-01-09T10:00', '2023-01-09T10:00:00', '2023-01-09T10:00:00.123'])(
    'refuses %j: a date-time needs an offset',
    (text) => {
      expect(readDate(text)).toBe('offset-missing');
    },
  );

  it.each(['2023-01-09T10:00:00 01:00', '2023-01-09T10:00 05:30'])('refuses %j: its "+" arrived as a space', (text) => {
    expect(readDate(text)).toBe('offset-space');
  });

  it.each(['2023-01-09T10:00:00+0100', '2023-01-09T10:00:00-0530'])('refuses %j: an offset without its colon', (text) => {
    expect(readDate(text)).toBe('offset-colon');
  });

  it.each(['2023-01-09T10:00:00.Z', '2023-01-09T10:00:00.1234567890Z'])('refuses %j: a fraction has 1 to 9 digits', (text) => {
    expect(readDate(text)).toBe('fraction');
  });

  it.each(['0000-01-01T00:00:00+01:00', '9999-12-31T23:59:59-00:01', '9999-12-31T23:30:00-01:00'])(
    'refuses %j: the instant is outside the years 0000–9999',
    (text) => {
      expect(readDate(text)).toBe('range');
    },
  );

  it.each([
    '2023-01-09T10Z',
    '2023-01-09T1:00Z',
    '2023-01-09T10:0Z',
    '2023-01-09T10:00:0Z',
    '2023-01-09T10:00.5Z',
    '2023-01-09T10:00:00z',
    '2023-01-09 10:00:00Z',
    '2023-01-09T10:00:00+01',
    '2023-01-09T10:00:00+01:00:00',
    '2023-01-09T10:00:00Z ',
    '2023-01-09T10:00:00ZZ',
    '2023-01-09T10:00:00UTC',
  ])('refuses %j as syntax', (text) => {
    expect(readDate(text)).toBe('syntax');
  });

  it('agrees with Date.toISOString for any instant of the years 0000–9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: utc(0, 1, 1), max: utc(10000, 1, 1) - 1 }), (t) => {
        expect(readDate(new Date(t).toISOString())).toEqual({ start: t, end: t + 1, unit: 'instant' });
      }),
      { numRuns: 2000 },
    );
  });

  it('applies any offset as Date does', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: utc(1, 1, 1), max: utc(9999, 1, 1) }),
        fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
        (t, offset) => {
          const local = new Date(t + offset * 60_000).toISOString().slice(0, 19);
          const sign = offset < 0 ? '-' : '+';
          const text = `${local}${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
          const start = t - (t % 1000 + 1000) % 1000;
          expect(readDate(text)).toEqual({ start, end: start + 1, unit: 'instant' });
        },
      ),
    );
  });
});

describe('formatDate', () => {
  it.each(['2023-01-09', '0000-01-01', '9999-12-31', '2023-01-09T09:00:00.000Z', '0000-01-01T00:00:00.000Z'])(
    'prints the range of %j back as it was read',
    (text) => {
      const range = readDate(text);
      expect(typeof range).toBe('object');
      if (typeof range === 'object') expect(formatDate(range)).toBe(text);
    },
  );

  it('prints an instant with an offset in UTC', () => {
    const range = readDate('2023-01-09T10:00:00.1239+01:00');
    expect(typeof range === 'object' && formatDate(range)).toBe('2023-01-09T09:00:00.123Z');
  });
});

describe('instantFromData', () => {
  it.each([
    ['2023-01-09', utc(2023, 1, 9)],
    ['2023-01-09T10:00:00+01:00', utc(2023, 1, 9, 9)],
    // The API's own form: no offset, read as UTC.
    ['2020-12-31T00:00:00', utc(2020, 12, 31)],
    ['2023-01-09T10:00', utc(2023, 1, 9, 10)],
    ['2023-01-09T10:00:00.1239', utc(2023, 1, 9, 10) + 123],
    [new Date(utc(2023, 1, 9, 9)), utc(2023, 1, 9, 9)],
  ])('reads %j', (value, expected) => {
    expect(instantFromData(value)).toBe(expected);
  });

  it('reads a Date from another realm, and never calls a getTime of the object', () => {
    const foreign: unknown = runInNewContext('new Date(Date.UTC(2023, 0, 9))');
    expect(foreign instanceof Date).toBe(false);
    expect(instantFromData(foreign)).toBe(utc(2023, 1, 9));
    const spoofed = Object.assign(new Date(utc(2023, 1, 9)), {
      getTime: () => {
        throw new Error('called');
      },
    });
    expect(instantFromData(spoofed)).toBe(utc(2023, 1, 9));
    // An object that merely claims to be a Date, or a proxy of one, is not a Date.
    expect(instantFromData(Object.create(Date.prototype))).toBeUndefined();
    expect(instantFromData(new Proxy(new Date(), {}))).toBeUndefined();
  });

  it.each([new Date(NaN), '2023-02-30', '2023-01-09T10:00:00 ', '2023-01-09T24:00:00', 1673254800000, null, undefined, {}])(
    'never reads %s as an instant',
    (value) => {
      expect(instantFromData(value)).toBeUndefined();
    },
  );
});
