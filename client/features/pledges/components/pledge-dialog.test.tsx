// @vitest-environment jsdom
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueryClient } from '../../../lib/query-client';
import { queryKeys } from '../../../lib/query-keys';
import PledgeDialog from './pledge-dialog';

afterEach(cleanup);

// jsdom has no layout: Radix's checkbox measures itself with ResizeObserver.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

function renderDialog() {
  const client = createQueryClient();
  client.setQueryData(queryKeys.progress, { currentAmount: 0, goalAmount: 500_000 });
  render(
    <QueryClientProvider client={client}>
      <PledgeDialog open onOpenChange={() => undefined} />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const estimate = () => screen.getByTestId('pledge-estimate').textContent!;

describe('PledgeDialog estimate', () => {
  it('starts at 0 containers and 0.000% with an empty amount', () => {
    renderDialog();
    expect(screen.getByRole('dialog', { name: 'Make a Pledge' }).getAttribute('data-state')).toBe(
      'open',
    );
    expect(estimate()).toMatch(/(?<![\d,])0 meal containers/);
    expect(estimate()).toContain('0.000%');
  });

  it('floors the containers and shows the percent with 3 decimals (USD, US$0.11 each)', async () => {
    const user = renderDialog();
    await user.type(screen.getByLabelText('Pledge Amount'), '100');
    expect(estimate()).toMatch(/(?<![\d,])909 meal containers/); // 909.09 floored
    expect(estimate()).toContain('0.182%');
    await user.clear(screen.getByLabelText('Pledge Amount'));
    await user.type(screen.getByLabelText('Pledge Amount'), '110');
    expect(estimate()).toMatch(/(?<![\d,])1,000 meal containers/); // exact in cents, not 999
    expect(estimate()).toContain('0.200%');
  });

  it('switches to JMD: J$ prefix, 15200 placeholder, J$16.72 per container', async () => {
    const user = renderDialog();
    const amount = screen.getByLabelText('Pledge Amount');
    expect(amount.getAttribute('placeholder')).toBe('100');
    expect(screen.getByText('US$').textContent).toBe('US$');
    await user.click(screen.getByRole('button', { name: 'JMD' }));
    expect(amount.getAttribute('placeholder')).toBe('15200');
    expect(screen.getByText('J$').textContent).toBe('J$');
    await user.type(amount, '15200');
    expect(estimate()).toMatch(/(?<![\d,])909 meal containers/); // 909.09 floored
    expect(estimate()).toContain('0.182%');
  });

  it('shows the schema messages inline when submitted empty', async () => {
    const user = renderDialog();
    await user.click(screen.getByRole('button', { name: 'Submit Pledge' }));
    await waitFor(() =>
      expect(screen.getByText('Name is required').textContent).toBe('Name is required'),
    );
    expect(screen.getByText('Valid email is required').textContent).toBe('Valid email is required');
    expect(screen.getByText('Pledge amount must be at least $1').textContent).toBe(
      'Pledge amount must be at least $1',
    );
    expect(screen.getByLabelText('Full Name').getAttribute('aria-invalid')).toBe('true');
  });

  it('offers delivery news with a labelled box that starts unticked and ticks', async () => {
    const user = renderDialog();
    const box = screen.getByRole('checkbox', { name: 'E-mail me when containers are delivered' });
    expect(box.getAttribute('aria-checked')).toBe('false');
    await user.click(box);
    expect(box.getAttribute('aria-checked')).toBe('true');
  });

  it('has an integer-step amount with min 1 and a hidden honeypot out of the tab order', () => {
    renderDialog();
    const amount = screen.getByLabelText('Pledge Amount');
    expect(amount.getAttribute('step')).toBe('1');
    expect(amount.getAttribute('min')).toBe('1');
    const honeypot = document.querySelector<HTMLInputElement>('input[name="website"]')!;
    expect(honeypot.tabIndex).toBe(-1);
    expect(honeypot.closest('[aria-hidden="true"]')).not.toBeNull();
    expect(honeypot.getAttribute('autocomplete')).toBe('off');
  });
});
