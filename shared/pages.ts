/**
 * The site's pages: their addresses and document titles, one list for the client's router, the
 * server that answers and renders them, and the status links in e-mails. Any other address is the
 * 404 page.
 */
export const PAGE_PATHS = {
  home: '/',
  paymentInstructions: '/payment-instructions',
  admin: '/admin',
} as const;

/**
 * Pages the server renders as plain HTML, without the client app: they work and load
 * fast with JavaScript off, and the app links to them with plain links.
 */
export const SERVER_PAGE_PATHS = {
  whereTheMoneyGoes: '/where-the-money-goes',
  privacy: '/privacy',
} as const;

/**
 * A team member's invitation or reset link, /admin/join?t={token}: its own route, not
 * in PAGE_PATHS, because its answer keeps the token out of caches and referrers.
 */
export const ADMIN_JOIN_PATH = '/admin/join';
const ADMIN_JOIN_TITLE = 'Set your password';

/** The pages with a fixed address (the donor's status page has one per pledge). */
export const APP_ROUTES: readonly string[] = Object.values(PAGE_PATHS);

/** The donor's status page, /pledge/{id}?t={token}. */
export const STATUS_PAGE_PREFIX = '/pledge/';
export const STATUS_PATH = /^\/pledge\/([^/]+)$/;

export function statusPagePath(pledgeId: string, token: string): string {
  return `${STATUS_PAGE_PREFIX}${pledgeId}?t=${token}`;
}

export const NOT_FOUND_TITLE = '404 Page Not Found';
export const STATUS_TITLE = 'Your Pledge Status';

const TITLES: Record<string, string> = {
  [PAGE_PATHS.paymentInstructions]: 'Thank You for Your Pledge — Payment instructions',
  [PAGE_PATHS.admin]: 'Admin Dashboard',
};

/** Where client/index.html takes the campaign's title and description (filled in when served). */
export const SITE_TITLE_PLACEHOLDER = '%CAMPAIGN_SITE_TITLE%';
export const SITE_DESCRIPTION_PLACEHOLDER = '%CAMPAIGN_SITE_DESCRIPTION%';

/**
 * The document title of a route (the server puts it in the HTML it renders); the home's is the
 * campaign's siteTitle.
 */
export function routeTitle(
  pathname: string,
  campaign: { siteTitle: string },
  notFound = false,
): string {
  if (notFound) return NOT_FOUND_TITLE;
  if (STATUS_PATH.test(pathname)) return STATUS_TITLE;
  if (pathname === PAGE_PATHS.home) return campaign.siteTitle;
  if (pathname === ADMIN_JOIN_PATH) return ADMIN_JOIN_TITLE;
  return TITLES[pathname] ?? NOT_FOUND_TITLE;
}
