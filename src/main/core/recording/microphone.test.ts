import { describe, expect, it } from 'vitest';
import { Microphone } from './microphone';

describe('Microphone', () => {
  it('is held by one user at a time, and the refusal names who holds it', () => {
    const microphone = new Microphone();
    microphone.take('recorder');
    microphone.take('recorder');
    expect(() => microphone.take('assistant')).toThrow(/The recorder is using the microphone/);
    expect(microphone.heldBy()).toBe('recorder');
    microphone.release('assistant');
    expect(microphone.heldBy()).toBe('recorder');
    microphone.release('recorder');
    microphone.take('assistant');
    expect(() => microphone.take('recorder')).toThrow(/The assistant is listening/);
  });
});
