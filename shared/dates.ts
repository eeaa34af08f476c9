/**
 * Dates and times in the campaign's time zone (campaign.json's `timeZone`, America/Jamaica): the
 * admin shows every date in it, whatever the browser's zone, so two treasurers in Kingston and
 * London read the same day for the same payment; the fulfilment report counts its days in it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function format(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-JM', options);
    formats.set(key, f);
  }
  return f;
}

const toDate = (at: string | Date) => (typeof at === 'string' ? new Date(at) : at);

/** "26 Nov 2026, 4:41 pm": a moment, as the admin reads it. */
export function formatDateTime(at: string | Date, timeZone: string): string {
  return format(`dt|${timeZone}`, { timeZone, dateStyle: 'medium', timeStyle: 'short' }).format(
    toDate(at),
  );
}

/** "26 November 2026": the day of a moment. */
export function formatLongDate(at: string | Date, timeZone: string): string {
  return format(`d|${timeZone}`, { timeZone, dateStyle: 'long' }).format(toDate(at));
}

/** YYYY-MM-DD of a moment in `timeZone`. */
export function dayIn(at: string | Date, timeZone: string): string {
  const parts = format(`ymd|${timeZone}`, {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(toDate(at));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** "Mon 23 Nov" for a YYYY-MM-DD calendar day (no zone shift: the day is already the zone's). */
export function formatShortDay(ymd: string): string {
  return format('short|UTC', {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  }).format(new Date(`${ymd}T12:00:00Z`));
}
