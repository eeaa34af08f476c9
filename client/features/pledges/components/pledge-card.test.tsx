// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Pledge } from '@shared/schemas/pledge';
import { createQueryClient } from '../../../lib/query-client';
import { AdminAuthProvider } from '../../admin-auth';
import { PledgeCard } from './pledge-card';

afterEach(cleanup);

const NOW = new Date('2025-03-01T12:00:00Z');

function pledge(over: Partial<Pledge> = {}): Pledge {
  return {
    id: 'p1',
    name: 'Marcia Campbell',
    amount: 1250,
    currency: 'USD',
    containers: 11_363,
    isAnonymous: false,
    createdAt: new Date(NOW.getTime() - 3 * 60_000).toISOString(),
    ...over,
  };
}

function wrap(children: ReactNode) {
  return (
    <QueryClientProvider client={createQueryClient()}>
      <AdminAuthProvider initialAuthenticated>{children}</AdminAuthProvider>
    </QueryClientProvider>
  );
}

describe('PledgeCard', () => {
  it('shows the name, relative time and a US$ amount with separators', () => {
    render(wrap(<PledgeCard pledge={pledge()} now={NOW} />));
    const card = screen.getByRole('article');
    expect(card.textContent).toContain('Marcia Campbell');
    expect(card.textContent).toContain('3 minutes ago');
    expect(card.textContent).toContain('US$1,250');
    expect(card.textContent).toContain('11,363 containers');
  });

  it('shows J$ for JMD and "Anonymous" for anonymous pledges', () => {
    render(
      wrap(
        <PledgeCard
          pledge={pledge({
            name: 'Hidden Person',
            isAnonymous: true,
            currency: 'JMD',
            amount: 15200,
          })}
          now={NOW}
        />,
      ),
    );
    const card = screen.getByRole('article');
    expect(card.textContent).toContain('Anonymous');
    expect(card.textContent).not.toContain('Hidden Person');
    expect(card.textContent).toContain('J$15,200');
  });

  it('shows no admin controls without the flag', () => {
    render(wrap(<PledgeCard pledge={pledge({ isPaid: false })} now={NOW} />));
    expect(screen.queryByText('Pending')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark Paid' })).toBeNull();
  });

  it('with admin controls: Pending and "Mark Paid" on unpaid, Paid and no button on paid', () => {
    const { unmount } = render(
      wrap(<PledgeCard pledge={pledge({ isPaid: false })} adminControls now={NOW} />),
    );
    expect(screen.getByText('Pending').textContent).toBe('Pending');
    expect(screen.getByRole('button', { name: 'Mark Paid' }).hasAttribute('disabled')).toBe(false);
    unmount();

    render(wrap(<PledgeCard pledge={pledge({ isPaid: true })} adminControls now={NOW} />));
    expect(screen.getByText('Paid').textContent).toBe('Paid');
    expect(screen.queryByRole('button', { name: 'Mark Paid' })).toBeNull();
  });
});
