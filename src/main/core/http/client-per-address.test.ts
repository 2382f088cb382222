import { describe, expect, it } from 'vitest';
import { clientPerAddress } from './client-per-address';

describe('clientPerAddress', () => {
  it('makes one client per address and hands the same one back', () => {
    const made: string[] = [];
    const clientFor = clientPerAddress((baseUrl) => {
      made.push(baseUrl);
      return { baseUrl };
    });
    const us = clientFor('https://api.example');
    expect(clientFor('https://api.example')).toBe(us);
    expect(clientFor('https://api.eu.example')).not.toBe(us);
    expect(made).toEqual(['https://api.example', 'https://api.eu.example']);
  });
});
