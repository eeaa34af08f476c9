/**
 * Dates and times in the campaign's time zone (campaign.json's `timeZone`, America/Jamaica): the
 * admin shows every date in it, whatever the browser's zone, so two treasurers in Kingston and
 * London read the same day for the same payment; the fulfilment report counts its days in it.
 */

const formats = new Map<string, Intl.DateTimeFormat>();
function format(
  locale: string,
  timeZone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = `${locale}|${timeZone}|${JSON.stringify(options)}`;
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formats.set(key, f);
  }
  return f;
}

const toDate = (at: string | Date) => (typeof at === 'string' ? new Date(at) : at);

/**
 * "11/26/2026, 4:43:59 PM": a moment, worded as the admin's dates always were (an en-US
 * browser's toLocaleString), now in the campaign's zone rather than the browser's.
 */
export function formatDateTime(at: string | Date, timeZone: string): string {
  return format('en-US', timeZone, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  }).format(toDate(at));
}

/** "26 Nov 2026, 4:43 pm": the shorter wording of the statement imports' list. */
export function formatDateTimeMedium(at: string | Date, timeZone: string): string {
  return format('en-JM', timeZone, { dateStyle: 'medium', timeStyle: 'short' }).format(toDate(at));
}

/** "November 26, 2026": the day of a moment. */
export function formatLongDate(at: string | Date, timeZone: string): string {
  return format('en-US', timeZone, { dateStyle: 'long' }).format(toDate(at));
}

/** YYYY-MM-DD of a moment in `timeZone`. */
export function dayIn(at: string | Date, timeZone: string): string {
  const parts = format('en-CA', timeZone, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(toDate(at));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/** "Nov 23" for a YYYY-MM-DD calendar day (no zone shift: the day is already the zone's). */
export function formatMonthDay(ymd: string): string {
  return format('en-US', 'UTC', { day: 'numeric', month: 'short' }).format(
    new Date(`${ymd}T12:00:00Z`),
  );
}
