// @vitest-environment jsdom
import { act } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hydrateRoot, type Root } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { InitialData } from '@shared/api-types';
import { campaignSchema } from '@shared/schemas/campaign';
import { App } from './app';
import { renderer } from './entry-server';
import { seedQueryCache } from './lib/initial-data';
import { createQueryClient } from './lib/query-client';

/**
 * The server's HTML hydrated by the browser's app, with React's development build (the unit
 * project), which reports every mismatch, attributes included, on console.error: the production
 * build only reports some, and the end-to-end tests run that one.
 */
const campaign = campaignSchema.parse(
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../config/campaign.json'), 'utf8')),
);

/** Rendered ten minutes before the browser runs it: a cached page is up to a minute old. */
const RENDERED_AT = new Date(Date.now() - 10 * 60_000);
const minutesBefore = (min: number) => new Date(RENDERED_AT.getTime() - min * 60_000).toISOString();

function data(over: Partial<InitialData> = {}): InitialData {
  return {
    isAuthenticated: false,
    campaign,
    progress: {
      currentAmount: 61_359,
      manualAdjustment: 0,
      goalAmount: 500_000,
      confirmedAmount: 20_000,
      donorCount: 9,
      pledgeCount: 10,
      updatedAt: RENDERED_AT.toISOString(),
    },
    pledges: [
      {
        id: '7b1f1c52-4c0e-4d0a-9a57-1d6a3c1e0001',
        name: 'Marcia <b>Campbell</b>',
        amount: 2500,
        currency: 'USD',
        containers: 22_727,
        isAnonymous: false,
        createdAt: minutesBefore(3),
      },
      {
        id: '7b1f1c52-4c0e-4d0a-9a57-1d6a3c1e0002',
        name: 'Anonymous',
        amount: 152_000,
        currency: 'JMD',
        containers: 9090,
        isAnonymous: true,
        createdAt: minutesBefore(60 * 26),
      },
    ],
    updates: [
      {
        id: '7b1f1c52-4c0e-4d0a-9a57-1d6a3c1e0003',
        imageUrl: '/uploads/a.webp',
        recipient: 'Black River Community Kitchen',
        containerCount: 1200,
        deliveryDate: '2025-01-05',
        createdAt: minutesBefore(5),
        width: 800,
        height: 600,
      },
    ],
    renderedAt: RENDERED_AT.toISOString(),
    ...over,
  };
}

const STATUS_ID = '7b1f1c52-4c0e-4d0a-9a57-1d6a3c1e0009';
const statusView = {
  id: STATUS_ID,
  name: 'Devon Williams',
  amount: 152_000,
  currency: 'JMD' as const,
  containers: 9090,
  // Late evening in Jamaica, already the next day in UTC: the page says the Jamaican day.
  createdAt: '2025-01-05T03:30:00.000Z',
  status: 'pending' as const,
  reference: 'MRJ-7K4Q-2',
  amountReceived: null,
  currencyReceived: null,
  outstandingAmount: 152_000,
  paymentConfirmedAt: null,
  donorSaysSentAt: null,
};

let root: Root | undefined;
const errors: string[] = [];

beforeAll(async () => {
  await renderer.prepare();
});

afterEach(() => {
  act(() => root?.unmount());
  root = undefined;
  document.body.innerHTML = '';
  errors.length = 0;
  vi.restoreAllMocks();
});

/** Renders `url` on "the server", puts it in the page and hydrates it as client/main.tsx does. */
async function serverThenHydrate(url: string, initial: InitialData) {
  const { pathname, search } = new URL(url, 'http://localhost');
  window.history.replaceState(null, '', url);
  const { html, title } = renderer.render({ pathname, search, data: initial });
  const container = document.createElement('div');
  container.id = 'root';
  container.innerHTML = html;
  document.body.append(container);
  const serverHeading = container.querySelector('h1');

  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args.map(String).join(' '));
  });
  const queryClient = createQueryClient();
  seedQueryCache(queryClient, initial);
  await act(async () => {
    root = hydrateRoot(
      container,
      <App queryClient={queryClient} initial={initial} initialPathname={pathname} />,
      { onRecoverableError: (error) => errors.push(`recoverable: ${String(error)}`) },
    );
  });
  return { container, serverHeading, html, title };
}

describe('server rendering and hydration', () => {
  it('hydrates the home without a mismatch, then moves relative times to the real clock', async () => {
    const { container, serverHeading, html, title } = await serverThenHydrate('/', data());
    expect(title).toBe('Meals for Recovery Jamaica — Pledge meal containers');
    expect(html).toContain('Meals for Recovery Jamaica');
    expect(html).toContain('61,359');
    expect(html).toContain('Pledge Now');
    // Text is escaped by React, never markup.
    expect(html).toContain('Marcia &lt;b&gt;Campbell&lt;/b&gt;');
    expect(html).toContain('3 minutes ago');
    expect(errors).toEqual([]);
    // React adopted the server's elements rather than replacing them.
    expect(serverHeading).not.toBeNull();
    expect(container.querySelector('h1')).toBe(serverHeading);
    // After hydration the page uses the browser's clock: the HTML was ten minutes old.
    expect(container.textContent).toContain('13 minutes ago');
    expect(document.documentElement.dataset.interactive).toBe('true');
  });

  it('hydrates an admin session’s home (admin header controls) without a mismatch', async () => {
    const { container, html } = await serverThenHydrate('/', data({ isAuthenticated: true }));
    expect(html).toContain('aria-label="Logout"');
    expect(errors).toEqual([]);
    expect(container.querySelector('[aria-label="Logout"]')).not.toBeNull();
  });

  it('hydrates the 404 page for any address the server answered with 404', async () => {
    const { container, serverHeading, title } = await serverThenHydrate(
      '/pledge/7b1f1c52-4c0e-4d0a-9a57-1d6a3c1e0009?t=wrong',
      data({ notFound: true }),
    );
    expect(title).toBe('404 Page Not Found');
    expect(serverHeading?.textContent).toBe('404 Page Not Found');
    expect(errors).toEqual([]);
    expect(container.querySelector('h1')).toBe(serverHeading);
  });

  it('hydrates the donor status page from its embedded pledge, dates in the campaign’s time zone', async () => {
    const { container, serverHeading, html, title } = await serverThenHydrate(
      `/pledge/${STATUS_ID}?t=token`,
      data({ pledgeStatus: statusView }),
    );
    expect(title).toBe('Your Pledge Status');
    const text = container.textContent;
    expect(html).toContain('Devon Williams');
    expect(text).toContain('Thank you, Devon Williams.');
    expect(text).toContain('January 4, 2025');
    expect(text).toContain('MRJ-7K4Q-2');
    expect(errors).toEqual([]);
    expect(container.querySelector('h1')).toBe(serverHeading);
  });

  it('reports a mismatch when the browser renders other data (the check can fail)', async () => {
    const initial = data();
    const { pathname } = new URL('/', 'http://localhost');
    const { html } = renderer.render({ pathname, search: '', data: initial });
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      errors.push(args.map(String).join(' '));
    });
    const queryClient = createQueryClient();
    const other = data({ progress: { ...initial.progress, currentAmount: 70_000 } });
    seedQueryCache(queryClient, other);
    await act(async () => {
      root = hydrateRoot(
        container,
        <App queryClient={queryClient} initial={other} initialPathname="/" />,
        { onRecoverableError: (error) => errors.push(`recoverable: ${String(error)}`) },
      );
    });
    expect(errors.join('\n')).toMatch(/hydrat/i);
  });
});
