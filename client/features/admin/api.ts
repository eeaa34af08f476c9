import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryKey,
} from '@tanstack/react-query';
import { EXPORT_FILE_NAME } from '@shared/constants';
import { formatMinor } from '@shared/format';
import type { UploadedImage, UploadUrlResponse } from '@shared/api-types';
import type { AdminEmailMessage } from '@shared/schemas/email';
import type {
  AdminPledge,
  AdminPledgePage,
  AdminPledgeQuery,
  PledgeEdit,
  PledgeStats,
} from '@shared/schemas/pledge';
import type { Progress, ProgressUpdate } from '@shared/schemas/progress';
import type { AuditPage } from '@shared/schemas/audit';
import type { PledgeReminders, ReminderSettings } from '@shared/schemas/reminders';
import type { RetentionStatus } from '@shared/schemas/privacy';
import type { FulfilmentReport } from '@shared/schemas/report';
import type {
  DismissedLinesPage,
  ReviewLinesPage,
  StatementImportResult,
  StatementMapping,
  StatementPreview,
  StatementImportList,
  StatementUndoResult,
} from '@shared/schemas/statement';
import type { SubscriberCount } from '@shared/schemas/news';
import type {
  DeliveryUpdate,
  PostedUpdate,
  UpdateCreate,
  UpdateEdit,
} from '@shared/schemas/update';
import { toast, type ToastInput } from '../../components/ui/toast-store';
import { apiRequest, errorMessage, getJson, throwIfNotOk } from '../../lib/api-client';
import { pledgeRelatedKeys, queryKeys, updatesQuery } from '../../lib/query-keys';
import { useAdminAuth } from '../admin-auth';
import { CONFIRM_TOASTS } from '../pledges';
import { TOASTS } from './messages';

export type AdminPledgesResponse = AdminPledgePage & { stats: PledgeStats };
export type AdminPledgeParams = Omit<AdminPledgeQuery, 'search'> & { search: string };

export const ADMIN_PAGE_SIZE = 25;

function adminPledgesUrl(p: AdminPledgeParams): string {
  const qs = new URLSearchParams({
    status: p.status,
    sort: p.sort,
    order: p.order,
    page: String(p.page),
    pageSize: String(p.pageSize),
  });
  if (p.search.trim()) qs.set('search', p.search.trim());
  if (p.age) qs.set('age', p.age);
  return `/api/admin/pledges?${qs}`;
}

const adminPledgesQuery = (params: AdminPledgeParams) =>
  queryOptions({
    queryKey: [...queryKeys.adminPledges, params],
    queryFn: () => getJson<AdminPledgesResponse>(adminPledgesUrl(params)),
    placeholderData: keepPreviousData,
  });

/**
 * One page of the dashboard table plus the stat cards. The server searches, filters, sorts and
 * pages (docs/decisions/006-admin-table-paging.md); the previous page stays on screen while the
 * next one loads, so the table does not jump.
 */
export function useAdminPledges(params: AdminPledgeParams, enabled = true) {
  return useQuery({ ...adminPledgesQuery(params), enabled });
}

/**
 * Every update (the first screen's embedded list may be cut short), fetched again whenever the
 * dashboard mounts.
 */
export function useAllUpdates() {
  return useQuery({ ...updatesQuery, refetchOnMount: 'always' });
}

/**
 * Starts the dashboard's first requests while it renders. A query fetches when its component
 * commits, and React holds back the commit of content that was behind a lazy boundary (the admin
 * route, the header controls) by up to 300 ms per reveal: measured, the first page was requested
 * 350-650 ms after the dashboard had rendered. Prefetching in render overlaps the two.
 */
export function usePrefetchDashboard(params: AdminPledgeParams, enabled = true) {
  // An editor does not read the pledge list (shared/admin-roles.ts): nothing to prefetch.
  const queryClient = useQueryClient();
  const options = adminPledgesQuery(params);
  if (enabled && !queryClient.getQueryState(options.queryKey))
    void queryClient.prefetchQuery(options);
}

interface AdminMutationOptions<TVars, TData> {
  mutationFn: (vars: TVars) => Promise<TData>;
  /** Query-key prefixes to refresh after success. */
  invalidate: readonly QueryKey[];
  success: ToastInput | ((data: TData, vars: TVars) => ToastInput);
  /** The failure toast's title and the text shown when the server gave no message. */
  failureTitle?: string;
  fallback: string;
}

/**
 * An admin write (product rule, docs/decisions/010-product-rules.md): a 401 re-checks the session
 * and shows "Session Expired"; any other failure shows the server's message (or the fallback);
 * success refreshes the lists that show the data and shows the success toast.
 */
function useAdminMutation<TVars, TData = unknown>(opts: AdminMutationOptions<TVars, TData>) {
  const queryClient = useQueryClient();
  const { handleSessionError } = useAdminAuth();
  return useMutation({
    mutationFn: opts.mutationFn,
    onSuccess: async (data, vars) => {
      toast(typeof opts.success === 'function' ? opts.success(data, vars) : opts.success);
      await Promise.all(
        opts.invalidate.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
    onError: (error) => {
      if (handleSessionError(error)) return;
      toast({
        title: opts.failureTitle ?? TOASTS.errorTitle,
        description: errorMessage(error, opts.fallback),
        variant: 'destructive',
      });
    },
  });
}

/**
 * "Record payment" (docs/decisions/013-statement-matching.md): what actually arrived. A pending
 * pledge is confirmed with it (the confirm call's optional body); a confirmed one (a later
 * instalment) gets its received amount edited.
 */
export function useRecordPayment() {
  return useAdminMutation<
    /** The total that arrived, in cents (J$12.34 is 1234). */
    { pledge: AdminPledge; amountReceivedMinor: number; currencyReceived: 'USD' | 'JMD' },
    AdminPledge
  >({
    mutationFn: async ({ pledge, amountReceivedMinor, currencyReceived }) =>
      (pledge.isPaid
        ? await apiRequest('PATCH', `/api/pledges/${pledge.id}`, {
            updates: { amountReceivedMinor, currencyReceived },
          })
        : await apiRequest('PUT', `/api/pledges/${pledge.id}/confirm`, {
            amountReceivedMinor,
            currencyReceived,
          })
      ).json(),
    invalidate: pledgeRelatedKeys,
    success: (p) =>
      p.paymentState === 'part-paid'
        ? {
            title: 'Part payment recorded',
            description: `${formatMinor(p.outstandingMinor ?? Math.round(p.outstandingAmount * 100), p.currency)} is still outstanding.`,
          }
        : CONFIRM_TOASTS.paymentConfirmed,
    fallback: CONFIRM_TOASTS.confirmFailed,
  });
}

export function useEditPledge() {
  return useAdminMutation<{ id: string; updates: PledgeEdit['updates'] }, AdminPledge>({
    mutationFn: async ({ id, updates }) =>
      (await apiRequest('PATCH', `/api/pledges/${id}`, { updates })).json(),
    invalidate: pledgeRelatedKeys,
    success: TOASTS.pledgeUpdated,
    fallback: TOASTS.editPledgeFailed,
  });
}

export function useDeletePledge() {
  return useAdminMutation<string>({
    mutationFn: (id) => apiRequest('DELETE', `/api/pledges/${id}`),
    invalidate: pledgeRelatedKeys,
    success: TOASTS.pledgeDeleted,
    fallback: TOASTS.deletePledgeFailed,
  });
}

export function useUpdateProgress() {
  return useAdminMutation<ProgressUpdate, Progress>({
    mutationFn: async (input) => (await apiRequest('PUT', '/api/progress', input)).json(),
    invalidate: [queryKeys.progress],
    success: TOASTS.progressUpdated,
    failureTitle: TOASTS.progressFailedTitle,
    fallback: TOASTS.progressFailed,
  });
}

export function usePostUpdate() {
  return useAdminMutation<UpdateCreate, PostedUpdate>({
    mutationFn: async (input) => (await apiRequest('POST', '/api/updates', input)).json(),
    invalidate: [queryKeys.updates],
    success: (posted) =>
      posted.notified === undefined
        ? TOASTS.updatePosted
        : TOASTS.updatePostedAndMailed(posted.notified),
    fallback: TOASTS.postFailed,
  });
}

const newsSubscribersKey = ['news-subscribers'] as const;

/**
 * How many addresses a notification would reach (one e-mail per address), read each time the
 * post dialog opens, so the number next to the choice is today's.
 */
export function useNewsSubscribers(enabled: boolean) {
  return useQuery({
    queryKey: newsSubscribersKey,
    queryFn: () => getJson<SubscriberCount>('/api/admin/news/subscribers'),
    enabled,
    refetchOnMount: 'always',
  });
}

export function useEditUpdate() {
  return useAdminMutation<{ id: string; updates: UpdateEdit['updates'] }, DeliveryUpdate>({
    mutationFn: async ({ id, updates }) =>
      (await apiRequest('PATCH', `/api/updates/${id}`, { updates })).json(),
    invalidate: [queryKeys.updates],
    success: TOASTS.updateModified,
    fallback: TOASTS.editUpdateFailed,
  });
}

export function useDeleteUpdate() {
  return useAdminMutation<string>({
    mutationFn: (id) => apiRequest('DELETE', `/api/updates/${id}`),
    invalidate: [queryKeys.updates],
    success: TOASTS.updateDeleted,
    fallback: TOASTS.deleteUpdateFailed,
  });
}

/** Saves a blob under a file name through a temporary object URL. */
function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser a moment to start the download before the URL is revoked.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** GET /api/pledges/export, saved as pledges.csv; failures carry the JSON message. */
export function useExportPledges() {
  const { handleSessionError } = useAdminAuth();
  return useMutation({
    mutationFn: async () => {
      const res = await fetch('/api/pledges/export', { credentials: 'include' });
      await throwIfNotOk(res);
      saveBlob(await res.blob(), EXPORT_FILE_NAME);
    },
    onSuccess: () => toast(TOASTS.exported),
    onError: (error) => {
      if (handleSessionError(error)) return;
      toast({
        title: TOASTS.exportFailedTitle,
        description: errorMessage(error, TOASTS.exportFailed),
        variant: 'destructive',
      });
    },
  });
}

/**
 * POST /api/objects/upload: a signed, single-use URL for one PUT of the image bytes. With object
 * storage it is the bucket's (signed for `size` bytes) and comes with a completion link.
 */
export async function requestUploadUrl(size?: number): Promise<UploadUrlResponse> {
  const body = size === undefined ? undefined : { size };
  return (await (
    await apiRequest('POST', '/api/objects/upload', body)
  ).json()) as UploadUrlResponse;
}

/** Object storage: the server checks and stores what the browser PUT to the bucket. */
export async function completeUpload(completeURL: string): Promise<UploadedImage> {
  return (await (await apiRequest('POST', completeURL)).json()) as UploadedImage;
}

/** The stored image's address: the signed upload URL without its query string (product rule). */
export function imageUrlFromUploadUrl(uploadURL: string): string {
  return uploadURL.split('?')[0]!;
}

/**
 * The Activity tab: the audit log, newest first, optionally for one pledge (id or reference) and
 * one person (an account id).
 */
export function useActivity(pledge: string, actor = '') {
  const qs = new URLSearchParams({ limit: '100' });
  if (pledge.trim()) qs.set('pledge', pledge.trim());
  if (actor) qs.set('actor', actor);
  return useQuery({
    queryKey: [...queryKeys.adminPledges, 'activity', pledge.trim(), actor],
    queryFn: () => getJson<AuditPage>(`/api/admin/activity?${qs}`),
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
}

async function postJson<T>(url: string, body: unknown): Promise<T> {
  return (await (await apiRequest('POST', url, body)).json()) as T;
}

/**
 * Sends a statement file as the raw request body (no base64, no JSON around 5 MB of text), with
 * its options in the query string.
 */
async function postFile<T>(
  url: string,
  file: Blob,
  query: Record<string, string | undefined>,
): Promise<T> {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, v);
  const res = await fetch(`${url}?${params}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/octet-stream' },
    body: file,
    credentials: 'include',
  });
  await throwIfNotOk(res);
  return (await res.json()) as T;
}

/** Reads the file's columns and first rows (CSV), or its transactions (OFX, CAMT.053). */
export const previewStatement = (file: Blob, firstRowIsData?: boolean) =>
  postFile<StatementPreview>('/api/admin/statements/preview/file', file, {
    firstRowIsData: firstRowIsData === undefined ? undefined : String(firstRowIsData),
  });

/** Imports the file; a CSV with its mapping, saved under `mappingName` for the next one. */
export const importStatement = (
  fileName: string,
  file: Blob,
  mapping: StatementMapping | undefined,
  mappingName?: string,
) =>
  postFile<StatementImportResult>('/api/admin/statements/import/file', file, {
    fileName,
    mapping: mapping ? JSON.stringify(mapping) : undefined,
    mappingName: mappingName?.trim() || undefined,
  });

/**
 * The review of open statement lines (docs/decisions/013-statement-matching.md). Its pages stay in
 * the cache when the Import tab unmounts, so coming back shows them at once (and refreshes them).
 */
export const statementKeys = {
  all: ['statements'] as const,
  lines: (page: number) => ['statements', 'lines', page] as const,
  dismissed: ['statements', 'dismissed'] as const,
};

export function useStatementLines(page: number) {
  return useQuery({
    queryKey: statementKeys.lines(page),
    queryFn: () => getJson<ReviewLinesPage>(`/api/admin/statements/lines?page=${page}`),
    refetchOnMount: 'always',
    placeholderData: keepPreviousData,
  });
}

export function useDismissedLines(enabled: boolean) {
  return useQuery({
    queryKey: statementKeys.dismissed,
    queryFn: () => getJson<DismissedLinesPage>('/api/admin/statements/dismissed?pageSize=200'),
    enabled,
    refetchOnMount: 'always',
  });
}

/** Pledges for the "Find a pledge" search of the review: by reference, name or e-mail. */
export function usePledgeSearch(term: string) {
  const search = term.trim();
  return useQuery({
    queryKey: [...queryKeys.adminPledges, 'statement-search', search],
    queryFn: () =>
      getJson<AdminPledgesResponse>(
        `/api/admin/pledges?${new URLSearchParams({ search, pageSize: '10' })}`,
      ),
    enabled: search.length >= 2,
    placeholderData: keepPreviousData,
  });
}

export function useDismissLine() {
  return useAdminMutation<{ id: string; reason: string }>({
    mutationFn: ({ id, reason }) =>
      postJson(`/api/admin/statements/lines/${id}/dismiss`, { reason }),
    invalidate: [statementKeys.all],
    success: (_data, { reason }) => ({
      title: 'Line dismissed',
      description: `Dismissed as "${reason}". You can restore it from the dismissed lines.`,
    }),
    fallback: 'The line could not be dismissed.',
  });
}

export function useRestoreLine() {
  return useAdminMutation<string>({
    mutationFn: (id) => postJson(`/api/admin/statements/lines/${id}/restore`, {}),
    invalidate: [statementKeys.all],
    success: { title: 'Line restored', description: 'The line is back in the review.' },
    fallback: 'The line could not be restored.',
  });
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Confirms the ticked statement lines in one batch; refreshes pledges, progress, activity and the
 * review. The toast counts lines and pledges apart (two lines can pay one pledge).
 */
export function useConfirmStatementLines() {
  return useAdminMutation<
    { lineId: string; pledgeId: string }[],
    { confirmed: number; skipped: number }
  >({
    mutationFn: (lines) => postJson('/api/admin/statements/confirm', { lines }),
    invalidate: [...pledgeRelatedKeys, statementKeys.all],
    success: (r, lines) => {
      const pledges = new Set(lines.map((l) => l.pledgeId)).size;
      return {
        title: 'Payments confirmed',
        description: r.skipped
          ? `${plural(r.confirmed, 'line')} confirmed; ${plural(r.skipped, 'line')} had been confirmed already.`
          : `${plural(r.confirmed, 'line')} matched: ${plural(pledges, 'pledge')} confirmed from the statement.`,
      };
    },
    fallback: CONFIRM_TOASTS.confirmFailed,
  });
}

/** The newest statement imports, each of which can be undone. */
export function useStatementImports() {
  return useQuery({
    queryKey: [...statementKeys.all, 'imports'],
    queryFn: () => getJson<StatementImportList>('/api/admin/statements/imports'),
    refetchOnMount: 'always',
  });
}

/** Undoes a whole import: its payments reversed, its lines removed (audited). */
export function useUndoStatementImport() {
  return useAdminMutation<string, StatementUndoResult>({
    mutationFn: (id) => postJson(`/api/admin/statements/imports/${id}/undo`, {}),
    invalidate: [...pledgeRelatedKeys, statementKeys.all],
    success: (r) => ({
      title: 'Import undone',
      description: `${plural(r.linesRemoved, 'line')} removed; ${plural(r.paymentsReversed, 'payment')} of ${plural(r.pledgesChanged, 'pledge')} reversed. The file can be imported again.`,
    }),
    fallback: 'The import could not be undone.',
  });
}

const pledgeEmailsKey = (id: string) => ['/api/admin/pledges', id, 'emails'] as const;

/**
 * The e-mails of one pledge (docs/decisions/014-email-outbox.md): sent, waiting (with the last
 * error) or failed.
 */
export function usePledgeEmails(id: string | undefined) {
  return useQuery({
    queryKey: pledgeEmailsKey(id ?? ''),
    queryFn: () =>
      getJson<{ items: AdminEmailMessage[] }>(`/api/admin/pledges/${id}/emails`).then(
        (r) => r.items,
      ),
    enabled: id !== undefined,
    // The worker sends in the background: look again while something is waiting.
    refetchInterval: (query) =>
      query.state.data?.some((m) => m.status === 'waiting') ? 2_000 : false,
    staleTime: 0,
  });
}

export function useResendInstructions() {
  const queryClient = useQueryClient();
  return useAdminMutation<string, { items: AdminEmailMessage[] }>({
    mutationFn: async (id) =>
      (await apiRequest('POST', `/api/admin/pledges/${id}/emails/resend`, {})).json(),
    invalidate: [],
    success: (data, id) => {
      queryClient.setQueryData(pledgeEmailsKey(id), data.items);
      return TOASTS.instructionsResent;
    },
    fallback: TOASTS.resendFailed,
  });
}

const reminderSettingsKey = ['/api/admin/reminders'] as const;
const pledgeRemindersKey = (id: string) => ['/api/admin/pledges', id, 'reminders'] as const;

/** The schedule (read-only), the campaign-wide pause and what is lapsed. */
export function useReminderSettings() {
  return useQuery({
    queryKey: reminderSettingsKey,
    queryFn: () => getJson<ReminderSettings>('/api/admin/reminders'),
    staleTime: 0,
  });
}

export function useCampaignReminderPause() {
  const queryClient = useQueryClient();
  return useAdminMutation<boolean, ReminderSettings>({
    mutationFn: async (paused) =>
      (await apiRequest('PUT', '/api/admin/reminders', { paused })).json(),
    invalidate: [],
    success: (data) => {
      queryClient.setQueryData(reminderSettingsKey, data);
      return { title: data.pausedAt ? 'Reminders paused' : 'Reminders resumed' };
    },
    fallback: 'Could not change the reminders. Please try again.',
  });
}

/** "Release lapsed pledges": they stop counting in the totals. */
export function useReleaseLapsed() {
  return useAdminMutation<void, { released: number }>({
    mutationFn: async () =>
      (await apiRequest('POST', '/api/admin/pledges/lapsed/release', {})).json(),
    invalidate: [reminderSettingsKey, ...pledgeRelatedKeys],
    success: (data) => ({
      title: 'Lapsed pledges released',
      description: `${data.released} pledge${data.released === 1 ? '' : 's'} no longer counted.`,
    }),
    fallback: 'Could not release the lapsed pledges. Please try again.',
  });
}

/** One pledge's reminders: those sent, the next one due, its pause. */
export function usePledgeReminders(id: string | undefined) {
  return useQuery({
    queryKey: pledgeRemindersKey(id ?? ''),
    queryFn: () => getJson<PledgeReminders>(`/api/admin/pledges/${id}/reminders`),
    enabled: id !== undefined,
    staleTime: 0,
  });
}

export function usePledgeReminderPause() {
  const queryClient = useQueryClient();
  return useAdminMutation<{ id: string; paused: boolean }, PledgeReminders>({
    mutationFn: async ({ id, paused }) =>
      (await apiRequest('PUT', `/api/admin/pledges/${id}/reminders`, { paused })).json(),
    invalidate: [],
    success: (data, { id }) => {
      queryClient.setQueryData(pledgeRemindersKey(id), data);
      return { title: data.pausedAt ? 'Reminders paused' : 'Reminders resumed' };
    },
    fallback: 'Could not change the reminders. Please try again.',
  });
}

// --- Donor data and privacy ---------------------------------------------------------

/** GET /api/admin/privacy: the retention rule and when it anonymises. */
export function useRetention() {
  return useQuery({
    queryKey: [...queryKeys.adminPledges, 'privacy'],
    queryFn: () => getJson<RetentionStatus>('/api/admin/privacy'),
  });
}

/** POST /api/admin/privacy/erase: every pledge of one address (a request by letter). */
export function useEraseEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (email: string) =>
      (await (await apiRequest('POST', '/api/admin/privacy/erase', { email })).json()) as {
        erased: number;
      },
    onSuccess: async ({ erased }) => {
      toast({
        title: 'Donor data erased',
        description: `${erased} pledge${erased === 1 ? '' : 's'} erased.`,
      });
      await Promise.all(
        [queryKeys.adminPledges, ...pledgeRelatedKeys].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    },
    onError: (error) =>
      toast({
        title: 'Error',
        description: errorMessage(error, 'Could not erase the data.'),
        variant: 'destructive',
      }),
  });
}

/** The fulfilment report (the Reports tab), fetched afresh each time the tab opens. */
export function useFulfilmentReport() {
  return useQuery({
    queryKey: ['admin', 'reports', 'fulfilment'],
    queryFn: () => getJson<FulfilmentReport>('/api/admin/reports/fulfilment'),
    staleTime: 0,
  });
}
