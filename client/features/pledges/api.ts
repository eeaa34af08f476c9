import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { CreatedPledge, PledgeCreateInput } from '@shared/schemas/pledge';
import { toast } from '../../components/ui/toast-store';
import { apiRequest, errorMessage } from '../../lib/api-client';
import { pledgeRelatedKeys, recentPledgesQuery } from '../../lib/query-keys';
import { useAdminAuth } from '../admin-auth';

/**
 * The 8 newest pledges (GET /api/pledges?limit=8; the home never downloads the whole list).
 * With admin controls on, the list is fetched again with the session to get the paid status;
 * the public list stays on screen until it arrives.
 */
export function useRecentPledges(adminControls: boolean) {
  const queryClient = useQueryClient();
  useEffect(() => {
    // Do not keep admin-only fields (real names of anonymous donors) once the controls are off.
    if (!adminControls)
      queryClient.removeQueries({ queryKey: recentPledgesQuery(true).queryKey, exact: true });
  }, [adminControls, queryClient]);
  return useQuery({ ...recentPledgesQuery(adminControls), placeholderData: keepPreviousData });
}

function invalidatePledgeData(queryClient: ReturnType<typeof useQueryClient>) {
  return Promise.all(
    pledgeRelatedKeys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}

const PLEDGE_FAILED_FALLBACK = 'Unable to submit your pledge. Please try again.';

/** POST /api/pledges; the dialog decides what happens on success (close, reset, navigate). */
export function useCreatePledge() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      input,
      idempotencyKey,
    }: {
      input: PledgeCreateInput;
      /** One per form submission: a retry of the same submission sends the same key. */
      idempotencyKey: string;
    }) =>
      (await (
        await apiRequest('POST', '/api/pledges', input, { 'Idempotency-Key': idempotencyKey })
      ).json()) as CreatedPledge,
    onSuccess: () => invalidatePledgeData(queryClient),
    onError: (error) => {
      toast({
        title: 'Pledge Failed',
        description: errorMessage(error, PLEDGE_FAILED_FALLBACK),
        variant: 'destructive',
      });
    },
  });
}

/** The confirmation's toasts, also shown by the admin's "Record payment". */
export const CONFIRM_TOASTS = {
  paymentConfirmed: {
    title: 'Payment confirmed',
    description: 'Pledge payment has been marked as paid.',
  },
  confirmFailed: 'Failed to confirm payment',
} as const;

/**
 * PUT /api/pledges/{id}/confirm with an empty object (the original call), from a pledge card in
 * admin mode.
 */
export function useConfirmPledge() {
  const queryClient = useQueryClient();
  const { handleSessionError } = useAdminAuth();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest('PUT', `/api/pledges/${encodeURIComponent(id)}/confirm`, {}),
    onSuccess: () => {
      toast(CONFIRM_TOASTS.paymentConfirmed);
      return invalidatePledgeData(queryClient);
    },
    onError: (error) => {
      if (handleSessionError(error)) return;
      toast({
        title: 'Error',
        description: errorMessage(error, CONFIRM_TOASTS.confirmFailed),
        variant: 'destructive',
      });
    },
  });
}
