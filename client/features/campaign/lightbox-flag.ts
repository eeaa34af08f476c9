import { LIGHTBOX_STORAGE_KEY } from '@shared/constants';

/** Whether this browser has dismissed the campaign lightbox (it shows on the first visit only). */
export function hasSeenLightbox(): boolean {
  try {
    return localStorage.getItem(LIGHTBOX_STORAGE_KEY) !== null;
  } catch {
    return true; // storage blocked: never nag a visitor we cannot remember
  }
}

export function markLightboxSeen() {
  try {
    localStorage.setItem(LIGHTBOX_STORAGE_KEY, 'true');
  } catch {
    /* storage blocked: it shows again next visit, nothing else to do */
  }
}
