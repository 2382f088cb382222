import { describe, expect, it } from 'vitest';
import { parseTimeArgument } from './time-argument';
import { UsageError } from './usage-error';

describe('times on the command line', () => {
  it('reads hh:mm:ss, mm:ss and seconds, with fractions', () => {
    expect(parseTimeArgument('00:12:31', '--from')).toBe(751_000);
    expect(parseTimeArgument('1:02:03.5', '--from')).toBe(3_723_500);
    expect(parseTimeArgument('12:31', '--from')).toBe(751_000);
    expect(parseTimeArgument('751', '--from')).toBe(751_000);
    expect(parseTimeArgument(' 2.25 ', '--to')).toBe(2250);
  });

  it('says plainly what is wrong with a time and how to write one', () => {
    expect(() => parseTimeArgument('twelve', '--from')).toThrow(
      new UsageError(
        '--from "twelve" is not a time; write it as hh:mm:ss, mm:ss or seconds, such as 00:12:31, 12:31 or 751',
      ),
    );
    expect(() => parseTimeArgument('12:75', '--to')).toThrow(
      '--to "12:75" is not a time: minutes and seconds go up to 59',
    );
    expect(() => parseTimeArgument('1:75:00', '--to')).toThrow('minutes and seconds go up to 59');
    expect(() => parseTimeArgument('-3', '--to')).toThrow('is not a time');
    expect(() => parseTimeArgument(undefined, '--to')).toThrow('--to needs a time, such as 00:12:31');
  });
});
