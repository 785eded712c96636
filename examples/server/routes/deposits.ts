import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { check, defineSchema, toProblemDetails } from 'qsfilter';
import { isStorableText, problem, sendProblem, splitUrl, type BodyError } from '../http';
import type { Item, Store } from '../store/store';
import { nameProblem } from './businesses';

/** The release that stopped storing `memo` under a deposit's lines (RFC 9745 wants the instant, in seconds). */
export const LINE_MEMO_DEPRECATED = { date: '2023-01-09', seconds: Date.UTC(2023, 0, 9) / 1000 } as const;

/**
 * The most lines one deposit may have: more is a 413. Every line is stored and read
 * back by each `GET /deposits?lines.…`: one deposit of 60,000 lines made each such
 * request take 170 ms.
 */
export const MAX_LINES = 1000;

/** A deposit as posted, checked: ready to store, and the lines whose memo was dropped. */
interface PostedDeposit {
  readonly deposit: Item;
  readonly droppedMemoLines: number[];
}

/** The query of `POST /Deposit`: the connection, as the data endpoints require it. */
const CONNECTION = defineSchema({
  fields: {},
  params: { businessName: { type: 'string', required: true }, serviceName: { type: 'string', required: true } },
});

/**
 * `POST /Deposit?businessName=…&serviceName=…`, as of the 2023-01-09 release: the memo lives on the deposit. A memo
 * sent under a line is deprecated: it is not stored there (nor moved), and the answer
 * says so with a `Deprecation` header and a `deprecation` note listing those lines.
 * The total is the sum of the lines. The deposit is then found by `GET /deposits`.
 */
export function depositRoutes(app: FastifyInstance, store: Store): void {
  app.post('/Deposit', async (request, reply) => {
    const { path, query } = splitUrl(request.url);
    // The connection the deposit is pushed to, named as GET /deposits names it.
    const connection = check(query, CONNECTION);
    if (!connection.ok) return sendProblem(reply, toProblemDetails(connection.errors, { instance: path }));
    // The connection's business is one POST /businesses could create.
    const business = connection.value.params.businessName as string; // typed, so sent once
    const wrong = nameProblem(business);
    if (wrong !== undefined) return sendProblem(reply, problem(400, `No business can be named ${JSON.stringify(business)}: ${wrong}`, path));
    const posted = readDeposit(request.body, new Date());
    if ('errors' in posted) {
      const detail = posted.status === 413 ? `A deposit has at most ${MAX_LINES} lines: see errors.` : 'The deposit is not valid: see errors.';
      return sendProblem(reply, problem(posted.status ?? 400, detail, path, { errors: posted.errors }));
    }
    const deposit = { ...connection.value.params, ...posted.deposit };
    await store.insert('deposits', deposit);
    reply.code(201);
    if (posted.droppedMemoLines.length === 0) return { data: deposit };
    reply.header('deprecation', `@${LINE_MEMO_DEPRECATED.seconds}`);
    return {
      data: deposit,
      deprecation: {
        field: 'lines[].memo',
        since: LINE_MEMO_DEPRECATED.date,
        droppedFromLines: posted.droppedMemoLines,
        detail: `Since the ${LINE_MEMO_DEPRECATED.date} release a memo is no longer stored under a deposit's lines, and the memo of ${plural(posted.droppedMemoLines.length, 'line')} ${posted.droppedMemoLines.join(', ')} was dropped. Send the memo on the deposit itself.`,
      },
    };
  });
}

function plural(n: number, word: string): string {
  return n === 1 ? word : `${word}s`;
}

/**
 * Checks a posted body: a JSON object with `lines`, a non-empty array of at most
 * `MAX_LINES` objects each with a finite number `amount` and an optional string
 * `description`; an optional string `memo`; an optional `postedDate` (`YYYY-MM-DD`, or
 * `YYYY-MM-DDT00:00:00` as `GET /deposits` returns it; today in UTC when absent), stored
 * as the API writes date-times: `2023-03-01T00:00:00`, no offset. Text must be storable (no NUL, no lone surrogate), and the total a finite
 * number. Too many lines is a 413, anything else a 400.
 */
export function readDeposit(body: unknown, now: Date): PostedDeposit | { errors: BodyError[]; status?: 413 } {
  if (!isObject(body)) return { errors: [{ pointer: '', detail: 'The body must be a JSON object: { "memo": …, "lines": [{ "amount": 100 }] }.' }] };
  if (Array.isArray(body.lines) && body.lines.length > MAX_LINES) {
    return { status: 413, errors: [{ pointer: '/lines', detail: `A deposit has at most ${MAX_LINES} lines, not ${body.lines.length}: post the rest as another deposit.` }] };
  }
  const errors: BodyError[] = [];
  if (Object.hasOwn(body, 'memo')) checkText(body.memo, '/memo', 'memo', errors);
  const postedDate = Object.hasOwn(body, 'postedDate') ? postedDay(body.postedDate) : now.toISOString().slice(0, 10);
  if (postedDate === undefined) {
    errors.push({ pointer: '/postedDate', detail: 'postedDate must be a date written YYYY-MM-DD, or YYYY-MM-DDT00:00:00 as GET /deposits returns it.' });
  }
  const lines: Item[] = [];
  const droppedMemoLines: number[] = [];
  if (!Array.isArray(body.lines) || body.lines.length === 0) {
    errors.push({ pointer: '/lines', detail: 'lines must be a non-empty array of { "amount": number, "description"?: string }.' });
  } else {
    body.lines.forEach((line: unknown, i: number) => {
      if (!isObject(line)) {
        errors.push({ pointer: `/lines/${i}`, detail: 'Each line must be an object.' });
        return;
      }
      if (typeof line.amount !== 'number' || !Number.isFinite(line.amount)) {
        errors.push({ pointer: `/lines/${i}/amount`, detail: 'amount must be a number.' });
      }
      if (Object.hasOwn(line, 'description')) checkText(line.description, `/lines/${i}/description`, 'description', errors);
      if (Object.hasOwn(line, 'memo')) droppedMemoLines.push(i);
      lines.push({ amount: line.amount, ...(Object.hasOwn(line, 'description') ? { description: line.description } : {}) });
    });
  }
  if (errors.length > 0) return { errors };
  const totalAmount = toCents(lines.reduce((sum, line) => sum + (line.amount as number), 0));
  // Finite amounts can add up past the largest double: JSON would store the total as null.
  if (!Number.isFinite(totalAmount)) return { errors: [{ pointer: '/lines', detail: 'The amounts add up to more than a number can hold.' }] };
  const deposit: Item = {
    id: `dep_${randomUUID()}`,
    ...(Object.hasOwn(body, 'memo') ? { memo: body.memo } : {}),
    postedDate: `${postedDate!}T00:00:00`,
    totalAmount,
    lines,
  };
  return { deposit, droppedMemoLines };
}

/** A string the API can store, or a problem at `pointer`. */
function checkText(value: unknown, pointer: string, name: string, errors: BodyError[]): void {
  if (typeof value !== 'string') errors.push({ pointer, detail: `${name} must be a string.` });
  else if (!isStorableText(value)) errors.push({ pointer, detail: `${name} must be Unicode text without NUL (U+0000).` });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A sum rounded to cents, where a double can tell cents apart: past 2^53 cents (about 90
 * trillion) it cannot, and the sum is kept as it is; scaling it by 100 first would
 * overflow near the largest double and refuse a total that a number holds (1e307).
 */
function toCents(sum: number): number {
  const cents = Math.round(sum * 100);
  return Number.isSafeInteger(cents) ? cents / 100 : sum;
}

/** The day of a posted date, `YYYY-MM-DD`: written so, or at midnight as the API writes date-times; `undefined` for anything else. */
function postedDay(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const day = value.endsWith('T00:00:00') ? value.slice(0, -'T00:00:00'.length) : value;
  return isCalendarDate(day) ? day : undefined;
}

function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const [y, m, d] = text.split('-').map(Number) as [number, number, number];
  // Not Date.UTC, which reads the years 0 to 99 as 1900 to 1999. setUTCFullYear rolls
  // 2023-02-30 over to March: a real date comes back unchanged.
  const date = new Date(0);
  date.setUTCFullYear(y, m - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
