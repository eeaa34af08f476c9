import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DonorPledgeView } from '@shared/schemas/email';
import { toast } from '../../components/ui/toast-store';
import { apiRequest, errorMessage, getJson } from '../../lib/api-client';
import { queryKeys } from '../../lib/query-keys';

const statusKey = queryKeys.pledgeStatus;

/**
 * GET /api/pledges/{id}/status?t=: the donor's own pledge, only with the link's token. The page's
 * embedded data carries it when the server rendered the page, so this fetches only in development.
 */
export function useDonorPledge(id: string, token: string) {
  return useQuery<DonorPledgeView>({
    queryKey: statusKey(id),
    queryFn: () =>
      getJson(`/api/pledges/${encodeURIComponent(id)}/status?t=${encodeURIComponent(token)}`),
  });
}

/** "I've sent the transfer": POST /api/pledges/{id}/sent with the token in the body. */
export function useMarkSent(id: string, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await (
        await apiRequest('POST', `/api/pledges/${encodeURIComponent(id)}/sent`, { t: token })
      ).json()) as DonorPledgeView,
    onSuccess: (view) => {
      queryClient.setQueryData(statusKey(id), view);
      toast({
        title: 'Thank you',
        description: 'We have noted that you sent the transfer.',
      });
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessage(error, 'Could not record that. Please try again.'),
        variant: 'destructive',
      }),
  });
}

/**
 * "I can't complete this pledge": POST /api/pledges/{id}/cancel with the token in the
 * body; the page then shows the pledge as cancelled.
 */
export function useCancelPledge(id: string, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await (
        await apiRequest('POST', `/api/pledges/${encodeURIComponent(id)}/cancel`, { t: token })
      ).json()) as DonorPledgeView,
    onSuccess: (view) => {
      queryClient.setQueryData(statusKey(id), view);
      toast({
        title: 'Pledge cancelled',
        description: 'Thank you for letting us know. Your pledge is cancelled.',
      });
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessage(error, 'Could not cancel the pledge. Please try again.'),
        variant: 'destructive',
      }),
  });
}

/**
 * The delivery news choice: POST /api/pledges/{id}/news with the token. Subscribing is this
 * pledge's consent, to today's wording; unsubscribing stops the news to its address.
 */
export function useNewsChoice(id: string, token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (subscribe: boolean) =>
      (await (
        await apiRequest('POST', `/api/pledges/${encodeURIComponent(id)}/news`, {
          t: token,
          subscribe,
        })
      ).json()) as DonorPledgeView,
    onSuccess: (view, subscribe) => {
      queryClient.setQueryData(statusKey(id), view);
      toast(
        subscribe
          ? {
              title: 'Subscribed',
              description: 'We will e-mail you when containers are delivered.',
            }
          : { title: 'Unsubscribed', description: 'We will not send you delivery news.' },
      );
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessage(error, 'Could not save your choice. Please try again.'),
        variant: 'destructive',
      }),
  });
}
