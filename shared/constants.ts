/**
 * Business constants of the site (docs/decisions/010-product-rules.md). One place, used by client
 * and server. What a charity changes for its own drive (prices, currencies' display, goal, texts)
 * is in campaign.json instead (shared/schemas/campaign.ts, shared/prices.ts).
 */
export { CURRENCIES, type Currency } from './prices';

export const RECENT_PLEDGES_LIMIT = 8;
/** How many delivery updates the page's embedded data carries; the rest load on demand. */
export const EMBEDDED_UPDATES = 12;
/**
 * GET /api/pledges without an admin session answers at most this many (newest first), also when
 * ?limit is absent or larger: the whole table on the main thread let anyone stall the server.
 */
export const PUBLIC_PLEDGES_MAX = 50;

export const PLEDGE_AMOUNT_MIN = 1;
/** Product rule: a whole number from 1 to 1,000,000,000 in its currency. */
export const PLEDGE_AMOUNT_MAX = 1_000_000_000;
export const NAME_MAX_LENGTH = 200;
export const EMAIL_MAX_LENGTH = 254;
export const RECIPIENT_MAX_LENGTH = 200;
/** Container counts and adjustments stay well inside Postgres' 32-bit integer. */
export const CONTAINER_COUNT_MAX = 100_000_000;
export const ADJUSTMENT_LIMIT = 1_000_000_000;
export const GOAL_MAX = 1_000_000_000;

export const IMAGE_MAX_BYTES = 5_242_880;
export const UPLOAD_BUTTON_DEFAULT_MAX_BYTES = 10_485_760;

export const LIGHTBOX_STORAGE_KEY = 'hasSeenCampaignContext';
export const LIGHTBOX_AUTO_CLOSE_MS = 30_000;
export const LIGHTBOX_FADE_IN_DELAY_MS = 50;
export const LIGHTBOX_FADE_OUT_MS = 300;
export const PROGRESS_FILL_DELAY_MS = 100;
/** Above this percentage the label sits inside the bar. */
export const PROGRESS_LABEL_INSIDE_ABOVE = 8;

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

export const EXPORT_FILE_NAME = 'pledges.csv';

/** The live stream's SSE event name (`event: progress`). */
export const LIVE_EVENT_NAME = 'progress';
/** Live events go out at most this often (at most twice a second), however fast pledges arrive. */
export const LIVE_MIN_INTERVAL_MS = 500;
/** How often the home asks for the numbers when the live stream is not available. */
export const LIVE_POLL_MS = 30_000;

/** The campaign's time zone: the day a payment is recorded on, the dates in e-mails. */
export const CAMPAIGN_TIME_ZONE = 'America/Jamaica';
