import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../examples/server/app';
import { MemoryStore } from '../../../examples/server/store/memory';
import type { Store } from '../../../examples/server/store/store';
import { SERVER, useDatabase, type Database } from '../../support/databases';

/**
 * A 500 answer says "the error is logged": it must be, with its cause, whatever the log
 * setting (issue 16: nothing was logged unless LOG=1). The failure here is a real one,
 * an error from the Postgres server.
 */

let db: Database;
useDatabase(SERVER, {}, async (opened) => {
  db = opened;
});

/** A store whose finds fail in the database, as a store with a broken query would. */
function failingStore(): Store {
  const memory = new MemoryStore({});
  return {
    find: async () => {
      await db.query('SELECT 1 / (SELECT count(*)::int FROM pg_class WHERE false)');
      throw new Error('unreachable');
    },
    insert: (resource, item) => memory.insert(resource, item),
    remove: (resource, select) => memory.remove(resource, select),
  };
}

describe('a request that fails in the server', () => {
  it.each([false, true])('answers a 500 problem and logs the error with its cause (request log %s)', async (logger) => {
    const lines: string[] = [];
    const app = buildApp({ store: failingStore(), logger, logStream: { write: (line: string) => lines.push(line) } });
    try {
      const response = await app.inject({ method: 'GET', url: '/vendors?businessName=Acme&serviceName=quickbooks&vendorName=%25acme%25' });
      expect(response.statusCode).toBe(500);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.json()).toMatchObject({ status: 500, detail: 'The server failed; the error is logged.', instance: '/vendors' });
      const errors = lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: { message: string; code?: string; stack?: string } }).filter((l) => l.level >= 50);
      expect(errors).toHaveLength(1);
      expect(errors[0]!.msg).toBe('GET /vendors failed: division by zero');
      // The database's own error, with its SQLSTATE and where it was raised.
      expect(errors[0]!.err).toMatchObject({ message: 'division by zero', code: '22012' });
      expect(errors[0]!.err!.stack).toContain('division by zero');
      // The request log only with LOG=1.
      expect(lines.some((line) => line.includes('"incoming request"'))).toBe(logger);
    } finally {
      await app.close();
    }
  });

  it('logs nothing for an answer that is not a failure', async () => {
    const lines: string[] = [];
    const app = buildApp({ store: new MemoryStore({}), logStream: { write: (line: string) => lines.push(line) } });
    try {
      expect((await app.inject({ method: 'GET', url: '/vendors?vendorName=%acme%' })).statusCode).toBe(400);
      expect((await app.inject({ method: 'GET', url: '/nowhere' })).statusCode).toBe(404);
      expect(lines).toEqual([]);
    } finally {
      await app.close();
    }
  });
});
