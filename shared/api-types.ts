import type { Campaign } from './schemas/campaign';
import type { Progress } from './schemas/progress';
import type { PublicPledge } from './schemas/pledge';
import type { DeliveryUpdate } from './schemas/update';

/** Body of every rejected request (DECISIONS, Errors). */
export interface ApiError {
  message: string;
  errors?: Record<string, string>;
}

/**
 * Data the server places in the HTML as a non-executable JSON script tag (id "initial-data"),
 * so the first screen renders without a request chain.
 */
export interface InitialData {
  campaign: Campaign;
  progress: Progress;
  pledges: PublicPledge[];
  updates: DeliveryUpdate[];
  /** The server's answer to "is this an admin session?" at page load. */
  isAuthenticated: boolean;
}

export interface UploadUrlResponse {
  uploadURL: string;
}
