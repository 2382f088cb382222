import { describe, expect, it } from 'vitest';
import { parseTypedTime } from './time-argument';
import { UsageError } from './usage-error';

describe('times on the command line', () => {
  it('reads hh:mm:ss, mm:ss and seconds, with fractions, and how finely each was written', () => {
    expect(parseTypedTime('00:12:31', '--from')).toEqual({ ms: 751_000, precisionMs: 1000 });
    expect(parseTypedTime('1:02:03.5', '--from')).toEqual({ ms: 3_723_500, precisionMs: 100 });
    expect(parseTypedTime('12:31', '--from')).toEqual({ ms: 751_000, precisionMs: 1000 });
    expect(parseTypedTime('751', '--from')).toEqual({ ms: 751_000, precisionMs: 1000 });
    expect(parseTypedTime(' 2.25 ', '--to')).toEqual({ ms: 2250, precisionMs: 10 });
    expect(parseTypedTime('2.2505', '--to')).toEqual({ ms: 2251, precisionMs: 1 });
  });

  it('says plainly what is wrong with a time and how to write one', () => {
    expect(() => parseTypedTime('twelve', '--from')).toThrow(
      new UsageError(
        '--from "twelve" is not a time; write it as hh:mm:ss, mm:ss or seconds, such as 00:12:31, 12:31 or 751',
      ),
    );
    expect(() => parseTypedTime('12:75', '--to')).toThrow(
      '--to "12:75" is not a time: minutes and seconds go up to 59',
    );
    expect(() => parseTypedTime('1:75:00', '--to')).toThrow('minutes and seconds go up to 59');
    expect(() => parseTypedTime('-3', '--to')).toThrow('is not a time');
    expect(() => parseTypedTime(undefined, '--to')).toThrow('--to needs a time, such as 00:12:31');
  });
});
