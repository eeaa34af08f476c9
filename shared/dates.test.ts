import { describe, expect, it } from 'vitest';
import { campaignSchema } from './schemas/campaign';
import {
  dayIn,
  formatDateTime,
  formatDateTimeMedium,
  formatLongDate,
  formatMonthDay,
} from './dates';

// 03:30 UTC on 27 November is still 26 November, 22:30, in Kingston (UTC-5 all year).
const LATE = '2026-11-27T03:30:00Z';

describe('admin dates in the campaign time zone', () => {
  it('words a moment as the admin always did, in the zone given, not the machine’s', () => {
    expect(formatDateTime(LATE, 'America/Jamaica')).toBe('11/26/2026, 10:30:00 PM');
    expect(formatDateTime(LATE, 'Europe/London')).toBe('11/27/2026, 3:30:00 AM');
    expect(formatDateTimeMedium(LATE, 'America/Jamaica')).toBe('26 Nov 2026, 10:30 pm');
    expect(formatLongDate(LATE, 'America/Jamaica')).toBe('November 26, 2026');
  });

  it('gives the zone’s calendar day', () => {
    expect(dayIn(LATE, 'America/Jamaica')).toBe('2026-11-26');
    expect(dayIn(new Date(LATE), 'UTC')).toBe('2026-11-27');
    expect(dayIn('2026-11-27T05:00:00Z', 'America/Jamaica')).toBe('2026-11-27');
    expect(formatMonthDay('2026-11-02')).toBe('Nov 2');
  });

  it('takes the zone from campaign.json, America/Jamaica by default, and refuses an unknown one', () => {
    const zone = campaignSchema.shape.timeZone;
    expect(zone.parse(undefined)).toBe('America/Jamaica');
    expect(zone.parse('Europe/London')).toBe('Europe/London');
    const bad = zone.safeParse('Mars/Olympus_Mons');
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe(
      'timeZone must be an IANA time zone, e.g. America/Jamaica',
    );
  });
});
