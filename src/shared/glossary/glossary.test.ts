import { describe, expect, it } from 'vitest';
import { glossaryKindOfEntity } from './glossary';

describe('glossaryKindOfEntity', () => {
  it('names people, places and organisations the service detected, and the rest terms', () => {
    expect(glossaryKindOfEntity('person_name')).toBe('person');
    expect(glossaryKindOfEntity('location')).toBe('place');
    expect(glossaryKindOfEntity('organization')).toBe('organisation');
    expect(glossaryKindOfEntity('money_amount')).toBe('term');
  });
});
