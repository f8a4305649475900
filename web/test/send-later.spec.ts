import { suggestedTime, tomorrowAt } from '../src/compose/send-later';
import { fromZonedInput } from '../src/conversations/times';

describe('send later’s times', () => {
  // 23:30 UTC on 2 December 2026: already 3 December in Tokyo, still 2 December in New York.
  const now = Date.UTC(2026, 11, 2, 23, 30, 0);

  it('takes tomorrow morning in the zone the reader reads times in', () => {
    expect(tomorrowAt(now, 9, 'Asia/Tokyo')).toBe(Date.UTC(2026, 11, 4, 0, 0, 0)); // 9:00 on 4 December, JST
    expect(tomorrowAt(now, 9, 'America/New_York')).toBe(Date.UTC(2026, 11, 3, 14, 0, 0)); // 9:00 on 3 December, EST
    expect(tomorrowAt(now, 9, 'UTC')).toBe(Date.UTC(2026, 11, 3, 9, 0, 0));
  });

  it('goes over the end of a month and a year, and over a change of clocks', () => {
    expect(tomorrowAt(Date.UTC(2026, 11, 31, 12), 9, 'UTC')).toBe(Date.UTC(2027, 0, 1, 9));
    // New York's clocks go forward on 8 March 2026: 9:00 that day is 13:00 UTC (EDT), the day before 14:00 (EST).
    expect(tomorrowAt(Date.UTC(2026, 2, 7, 17), 9, 'America/New_York')).toBe(Date.UTC(2026, 2, 8, 13));
  });

  it('starts the time field an hour ahead, to the minute, as the zone’s wall clock', () => {
    const field = suggestedTime(now, 'Asia/Tokyo');
    expect(field).toBe('2026-12-03T09:30');
    expect(fromZonedInput(field, 'Asia/Tokyo')).toBe(now + 3_600_000);
  });
});
