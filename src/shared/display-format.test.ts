import { describe, expect, it } from 'vitest';
import { formatCitationDate, formatRecordedAt, languageName, topicLabel } from './display-format';

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

describe('formatCitationDate', () => {
  it('names the day as a citation does, in the named time zone', () => {
    // 23:30 UTC on 13 March is already 14 March in Tokyo.
    expect(formatCitationDate(Date.UTC(2025, 2, 13, 23, 30), 'UTC')).toBe('13 March 2025');
    expect(formatCitationDate(Date.UTC(2025, 2, 13, 23, 30), 'Asia/Tokyo')).toBe('14 March 2025');
    expect(formatCitationDate(Number.NaN)).toBe('Unknown date');
  });
});
