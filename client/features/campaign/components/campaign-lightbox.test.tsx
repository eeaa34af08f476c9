// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { campaignSchema } from '@shared/schemas/campaign';
import { CampaignLightbox } from './campaign-lightbox';

const campaign = campaignSchema.parse(
  JSON.parse(
    readFileSync(path.resolve(import.meta.dirname, '../../../../config/campaign.json'), 'utf8'),
  ),
);

const box = () => screen.queryByTestId('campaign-lightbox');

/** Another modal on the page (the pledge form, say), removed after the test. */
const otherDialogs: HTMLElement[] = [];
function openOtherDialog(role: 'dialog' | 'alertdialog' = 'dialog') {
  const dialog = document.createElement('div');
  dialog.setAttribute('role', role);
  document.body.append(dialog);
  otherDialogs.push(dialog);
}

beforeEach(() => {
  localStorage.clear();
  vi.useFakeTimers();
});
afterEach(() => {
  for (const dialog of otherDialogs.splice(0)) dialog.remove();
  cleanup();
  vi.useRealTimers();
});

describe('CampaignLightbox', () => {
  it('shows the five sections and fades in after 50 ms', () => {
    render(<CampaignLightbox campaign={campaign} />);
    expect(box()!.dataset.phase).toBe('mounted');
    expect(box()!.className).toContain('opacity-0');
    for (const title of ['Context', 'Problem 1', 'Problem 2', 'Solution', 'How You Can Help'])
      expect(screen.getByRole('heading', { name: title }).textContent).toBe(title);
    // The shipped text quotes the goal and prices by placeholder, filled in from the config.
    expect(box()!.textContent).toContain(
      'Donate to support delivery of 500,000 meal containers. Pledge in US$ or J$, then pay by bank transfer: every US$0.11 or J$16.72 provides one container.',
    );
    expect(box()!.textContent).not.toContain('{');
    act(() => vi.advanceTimersByTime(49));
    expect(box()!.dataset.phase).toBe('mounted');
    act(() => vi.advanceTimersByTime(1));
    expect(box()!.dataset.phase).toBe('visible');
    expect(box()!.className).toContain('opacity-100');
  });

  it('stays closed, and unseen for a later visit, when the donor is already in another dialog', () => {
    openOtherDialog();
    render(<CampaignLightbox campaign={campaign} />);
    act(() => vi.advanceTimersByTime(1000));
    expect(box()).toBeNull();
    expect(localStorage.getItem('hasSeenCampaignContext')).toBeNull();
  });

  it('gives way, unseen, to a dialog that opens while it is still fading in', async () => {
    render(<CampaignLightbox campaign={campaign} />);
    expect(box()!.dataset.phase).toBe('mounted');
    openOtherDialog();
    // The observer reports in a microtask.
    await act(async () => {});
    act(() => vi.advanceTimersByTime(1000));
    expect(box()).toBeNull();
    expect(localStorage.getItem('hasSeenCampaignContext')).toBeNull();
  });

  it('closes, seen, when another dialog opens once it is shown', async () => {
    render(<CampaignLightbox campaign={campaign} />);
    act(() => vi.advanceTimersByTime(50));
    expect(box()!.dataset.phase).toBe('visible');
    openOtherDialog('alertdialog');
    await act(async () => {});
    expect(box()).toBeNull();
    expect(localStorage.getItem('hasSeenCampaignContext')).toBe('true');
  });

  it('closes on a click anywhere, fades out over 300 ms and remembers it', () => {
    render(<CampaignLightbox campaign={campaign} />);
    act(() => vi.advanceTimersByTime(50));
    fireEvent.click(screen.getByText('Solution'));
    expect(localStorage.getItem('hasSeenCampaignContext')).not.toBeNull();
    expect(box()!.dataset.phase).toBe('leaving');
    expect(box()!.className).toContain('opacity-0');
    act(() => vi.advanceTimersByTime(299));
    expect(box()).not.toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(box()).toBeNull();
  });

  it('closes with its close button', () => {
    render(<CampaignLightbox campaign={campaign} />);
    act(() => vi.advanceTimersByTime(50));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    act(() => vi.advanceTimersByTime(300));
    expect(box()).toBeNull();
    expect(localStorage.getItem('hasSeenCampaignContext')).not.toBeNull();
  });

  it('closes by itself after 30 seconds', () => {
    render(<CampaignLightbox campaign={campaign} />);
    act(() => vi.advanceTimersByTime(29_999));
    expect(box()!.dataset.phase).toBe('visible');
    act(() => vi.advanceTimersByTime(1));
    expect(box()!.dataset.phase).toBe('leaving');
    act(() => vi.advanceTimersByTime(300));
    expect(box()).toBeNull();
    expect(localStorage.getItem('hasSeenCampaignContext')).not.toBeNull();
  });

  it('does not show once seen', () => {
    localStorage.setItem('hasSeenCampaignContext', 'true');
    render(<CampaignLightbox campaign={campaign} />);
    expect(box()).toBeNull();
  });
});
