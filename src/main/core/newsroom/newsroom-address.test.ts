import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { newsroomAddressText, parseNewsroomAddress } from './newsroom-address';
import { newsroomPoolConfig, defaultNewsroomBounds } from './newsroom-connection';

describe('the newsroom address', () => {
  it('reads user, host, port and database, and writes them back the same', () => {
    const address = parseNewsroomAddress('postgres://ana@db.example.org:6432/verbatim');
    expect(address).toEqual({ user: 'ana', host: 'db.example.org', port: 6432, database: 'verbatim' });
    expect(newsroomAddressText(address)).toBe('postgres://ana@db.example.org:6432/verbatim');
    expect(parseNewsroomAddress('postgresql://ana@[::1]/verbatim')).toEqual({
      user: 'ana',
      host: '::1',
      port: 5432,
      database: 'verbatim',
    });
  });

  it.each([
    ['https://ana@db.example.org/verbatim', 'The newsroom address must start with postgres://'],
    ['postgres://db.example.org/verbatim', 'The newsroom address needs a user name of at most 63 bytes'],
    ['postgres://ana@db.example.org/', 'The newsroom address needs a database name of at most 63 bytes'],
    ['postgres://ana@db.example.org/verbatim?sslmode=disable', 'The newsroom address takes no options'],
    ['not an address', 'The newsroom address is not an address'],
  ])('refuses %s in words', (text, sentence) => {
    expect(() => parseNewsroomAddress(text)).toThrow(sentence);
  });

  it('refuses any address holding a password without ever repeating it', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 4 }), (user, password) => {
        const text = `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@db.example.org/verbatim`;
        let message = '';
        try {
          parseNewsroomAddress(text, 'VERBATIM_NEWSROOM_URL');
        } catch (error) {
          message = (error as Error).message;
        }
        expect(message).toBe(
          'VERBATIM_NEWSROOM_URL must not hold the password: remove it from the address and set VERBATIM_NEWSROOM_PASSWORD instead.',
        );
      }),
    );
  });

  it('connects with TLS verify-full to any host but this machine', () => {
    const config = (host: string) =>
      newsroomPoolConfig(
        { address: { user: 'ana', host, port: 5432, database: 'verbatim' }, password: 'x' },
        defaultNewsroomBounds,
      );
    for (const local of ['127.0.0.1', '::1', 'localhost', 'LOCALHOST']) expect(config(local).ssl).toBe(false);
    for (const remote of ['db.example.org', '127.0.0.2', '10.0.0.5', 'localhost.example.org'])
      expect(config(remote).ssl).toEqual({ rejectUnauthorized: true });
    expect(config('db.example.org')).toMatchObject({
      connectionTimeoutMillis: defaultNewsroomBounds.connectTimeoutMs,
      statement_timeout: defaultNewsroomBounds.statementTimeoutMs,
    });
  });
});
