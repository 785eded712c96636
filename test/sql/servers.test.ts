import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SERVERS } from '../support/databases';
import { serverLabels, shortVersion, type ServerOrigin } from '../support/postgres-server';

// The SQL suites name each server in their titles (`… on $label`): two servers with one
// label would make a failure on one of them read as a failure on the other.

const DEBIAN = 'PostgreSQL 15.18 (Debian 15.18-0+deb12u1)';
/** What the npm packages' servers say of themselves. */
const NPM = ['PostgreSQL 13.23', 'PostgreSQL 14.23', 'PostgreSQL 16.14', 'PostgreSQL 17.10'];
const npm = NPM.map((server) => ({ server, origin: 'npm' as const }));

describe('serverLabels', () => {
  it('names each server by its version when no other has it', () => {
    expect(serverLabels([{ server: DEBIAN, origin: 'installed' }, ...npm])).toEqual([
      'PostgreSQL 15.18 server',
      'PostgreSQL 13.23 server',
      'PostgreSQL 14.23 server',
      'PostgreSQL 16.14 server',
      'PostgreSQL 17.10 server',
    ]);
    // DATABASE_URL naming a version no npm package starts: as before.
    expect(serverLabels([{ server: 'PostgreSQL 15.4 (Ubuntu 15.4-1)', origin: 'DATABASE_URL' }, ...npm])[0]).toBe('PostgreSQL 15.4 server');
  });

  it.each(NPM)('tells DATABASE_URL\'s %s from the npm server of that version', (server) => {
    const labels = serverLabels([{ server, origin: 'DATABASE_URL' }, ...npm]);
    const i = NPM.indexOf(server) + 1;
    expect(labels[0]).toBe(`${server} server (DATABASE_URL)`);
    expect(labels[i]).toBe(`${server} server (npm)`);
    // The others keep their plain label.
    expect(labels.filter((label) => label.endsWith(')'))).toHaveLength(2);
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('tells an installed server from the npm server of the same version, as Debian\'s would be with a newer major', () => {
    expect(serverLabels([{ server: 'PostgreSQL 16.14 (Debian 16.14-1.pgdg120+1)', origin: 'installed' }, ...npm])).toEqual([
      'PostgreSQL 16.14 server (installed)',
      'PostgreSQL 13.23 server',
      'PostgreSQL 14.23 server',
      'PostgreSQL 16.14 server (npm)',
      'PostgreSQL 17.10 server',
    ]);
  });

  it('gives servers of distinct versions or origins distinct labels', () => {
    const version = fc.constantFrom(DEBIAN, ...NPM, 'PostgreSQL 16.14 (Debian 16.14-1.pgdg120+1)', 'PostgreSQL 16.2', 'PostgreSQL 18.1', 'EnterpriseDB 16');
    const origin = fc.constantFrom<ServerOrigin>('DATABASE_URL', 'installed', 'npm');
    fc.assert(
      fc.property(fc.uniqueArray(fc.record({ server: version, origin }), { selector: ({ server, origin }) => `${shortVersion(server)}|${origin}`, maxLength: 8 }), (servers) => {
        const labels = serverLabels(servers);
        expect(labels).toHaveLength(servers.length);
        expect(new Set(labels).size).toBe(labels.length);
      }),
    );
  });
});

it('labels every server of this run distinctly', () => {
  const labels = SERVERS.map((server) => server.label);
  expect(new Set(labels).size).toBe(labels.length);
});
