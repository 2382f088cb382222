import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCalendarDate, formatDay, formatRecordedAt, languageName, topicLabel } from './display-format';

describe('formatRecordedAt', () => {
  it('reads as a date and a time of day in the named time zone', () => {
    expect(formatRecordedAt(Date.UTC(2026, 10, 20, 9, 30), 'UTC')).toBe('Nov 20, 2026, 9:30 AM');
    expect(formatRecordedAt(Date.UTC(2026, 10, 20, 9, 30), 'America/New_York')).toBe('Nov 20, 2026, 4:30 AM');
  });

  it('says the date is unknown rather than "Invalid Date"', () => {
    expect(formatRecordedAt(Number.NaN, 'UTC')).toBe('Unknown date');
  });
});

describe('languageName', () => {
  it('names the service’s codes, regions included', () => {
    expect(languageName('en_us')).toBe('English (United States)');
    expect(languageName('en_uk')).toBe('English (United Kingdom)');
    expect(languageName('es')).toBe('Spanish');
    expect(languageName('pt')).toBe('Portuguese');
  });

  it('shows a code it cannot name as it is', () => {
    expect(languageName('xx_not a tag')).toBe('xx_not a tag');
    expect(languageName('qaa')).toBe('qaa');
  });
});

describe('topicLabel', () => {
  it('turns a CamelCase taxonomy path into words', () => {
    expect(topicLabel('BusinessAndFinance>Industries>LogisticsAndTransportationIndustry')).toBe(
      'Business and Finance › Industries › Logistics and Transportation Industry',
    );
    expect(topicLabel('Automotive>AutoType>GreenVehicles')).toBe('Automotive › Auto Type › Green Vehicles');
  });

  it('keeps acronyms whole', () => {
    expect(topicLabel('Technology&Computing>AIAndMachineLearning')).toBe(
      'Technology&Computing › AI and Machine Learning',
    );
  });
});

describe('formatDay', () => {
  it('names the day in the named time zone, without a time of day', () => {
    // 23:30 UTC on 13 March is already 14 March in Tokyo.
    expect(formatDay(Date.UTC(2025, 2, 13, 23, 30), 'UTC')).toBe('Mar 13, 2025');
    expect(formatDay(Date.UTC(2025, 2, 13, 23, 30), 'Asia/Tokyo')).toBe('Mar 14, 2025');
    expect(formatDay(Number.NaN)).toBe('Unknown date');
  });

  it('is the date formatRecordedAt writes, whatever the moment and the time zone', () => {
    const zones = ['UTC', 'Asia/Tokyo', 'America/New_York', 'Europe/Paris', 'Pacific/Kiritimati'];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          expect(formatRecordedAt(ms, zone).startsWith(`${formatDay(ms, zone)}, `)).toBe(true);
          expect(formatDay(ms, zone)).not.toMatch(/\d:\d\d/);
        },
      ),
    );
  });
});

describe('formatCalendarDate', () => {
  it("writes the catalog's dates in the one format, on the day the text names", () => {
    expect(formatCalendarDate('2024-09-25')).toBe('Sep 25, 2024');
    expect(formatCalendarDate('2025-03-01T23:30:00Z')).toBe('Mar 1, 2025');
  });

  it('shows text that is not a real date as it came', () => {
    expect(formatCalendarDate('2024-02-30')).toBe('2024-02-30');
    expect(formatCalendarDate('early 2024')).toBe('early 2024');
  });

  it('agrees with formatDay for every day', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date(Date.UTC(1970, 0, 1)),
          max: new Date(Date.UTC(2200, 0, 1)),
          noInvalidDate: true,
        }),
        (date) => {
          const iso = date.toISOString().slice(0, 10);
          expect(formatCalendarDate(iso)).toBe(formatDay(Date.parse(iso), 'UTC'));
        },
      ),
    );
  });
});
