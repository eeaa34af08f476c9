import { formatDateTime } from '@shared/dates';
import { AGE_BUCKETS, AGE_BUCKET_LABELS } from '@shared/schemas/report';
import { useCampaignTimeZone } from '../../../lib/campaign-time-zone';
import { ArrowDown, ArrowUp, ArrowUpDown, Mail, Pencil, Search, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatMoney, formatNumber, timeAgo } from '@shared/format';
import { PAYMENT_STATE_LABEL, paymentProgressText } from '@shared/received';
import { PLEDGE_STATUS_LABEL } from '@shared/schemas/pledge';
import type { AdminPledge } from '@shared/schemas/pledge';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Skeleton } from '../../../components/ui/skeleton';
// The same confirm as on the home's pledge cards: one hook, one set of toasts.
import { seesDonorEmails } from '@shared/admin-roles';
import { useAdminAuth } from '../../admin-auth';
import { useConfirmPledge } from '../../pledges';
import { type AdminPledgeParams, type AdminPledgesResponse } from '../api';

const SEARCH_DEBOUNCE_MS = 300;

type SortKey = AdminPledgeParams['sort'];

const STATUS_OPTIONS = [
  { value: 'all', label: 'All Statuses' },
  { value: 'paid', label: 'Paid Only' },
  { value: 'pending', label: 'Pending Only' },
  { value: 'cancelled', label: 'Cancelled' },
  { value: 'lapsed', label: 'Lapsed' },
] as const;

function SortHeader({
  label,
  sortKey,
  params,
  onSort,
}: {
  label: string;
  sortKey: SortKey;
  params: AdminPledgeParams;
  onSort: (key: SortKey) => void;
}) {
  const active = params.sort === sortKey;
  const Icon = !active ? ArrowUpDown : params.order === 'asc' ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (params.order === 'asc' ? 'ascending' : 'descending') : 'none'}
      className="px-3 py-2"
    >
      <button
        type="button"
        onClick={() => onSort(sortKey)}
        className="-mx-1 inline-flex items-center gap-1 rounded px-1 font-semibold hover:text-ink-900 focus-visible:outline-none focus-visible:ring-3 focus-visible:ring-sun-400"
      >
        {label}
        <Icon className="h-3.5 w-3.5" aria-hidden="true" />
      </button>
    </th>
  );
}

function PledgeRow({
  pledge,
  onEdit,
  onDelete,
  onEmails,
  confirming,
  onConfirm,
  onRecordPayment,
  manage,
}: {
  pledge: AdminPledge;
  /** The money side (owner, treasurer): payments, e-mails, edit, delete. A viewer only reads. */
  manage: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onEmails: () => void;
  confirming: boolean;
  onConfirm: () => void;
  onRecordPayment: () => void;
}) {
  const timeZone = useCampaignTimeZone();
  const recordButton = manage ? (
    <Button
      size="sm"
      variant="ghost"
      className="h-7 px-2 text-xs"
      aria-label={`Record payment from ${pledge.name}`}
      onClick={onRecordPayment}
    >
      Record payment
    </Button>
  ) : null;
  return (
    <tr className="border-t border-ink-100 align-middle">
      <td className="px-3 py-2.5">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-ink-900">{pledge.name}</span>
          {pledge.isAnonymous ? <Badge variant="outline">Anonymous</Badge> : null}
        </div>
      </td>
      <td className="max-w-[16rem] truncate px-3 py-2.5 text-ink-700" title={pledge.email}>
        {pledge.email}
      </td>
      <td className="px-3 py-2.5 font-semibold whitespace-nowrap tabular-nums">
        {formatMoney(pledge.amount, pledge.currency)}
      </td>
      <td className="px-3 py-2.5">
        <div className="flex flex-wrap items-center gap-2">
          {pledge.paymentState === 'part-paid' ? (
            <>
              <Badge variant="outline" className="border-sun-400 bg-sun-100">
                {PAYMENT_STATE_LABEL['part-paid']}
              </Badge>
              <span className="text-xs text-ink-700">{paymentProgressText(pledge)}</span>
              {recordButton}
            </>
          ) : pledge.paymentState === 'over-paid' ? (
            <>
              <Badge variant="outline" className="border-brand-500 bg-brand-100">
                {PAYMENT_STATE_LABEL['over-paid']}
              </Badge>
              <span className="text-xs text-ink-700">{paymentProgressText(pledge)}</span>
              {/* A correction (the wrong total was recorded) stays possible. */}
              {recordButton}
            </>
          ) : pledge.isPaid ? (
            <Badge title={paymentProgressText(pledge)}>{PAYMENT_STATE_LABEL.paid}</Badge>
          ) : pledge.pledgeStatus === 'cancelled' ? (
            // Cancelled by the donor: not counted; a payment that still arrives reopens it.
            <>
              <Badge variant="outline">{PLEDGE_STATUS_LABEL.cancelled}</Badge>
              {recordButton}
            </>
          ) : (
            <>
              <Badge variant="secondary">Pending</Badge>
              {pledge.pledgeStatus === 'lapsed' || pledge.pledgeStatus === 'released' ? (
                <Badge variant="outline">{PLEDGE_STATUS_LABEL[pledge.pledgeStatus]}</Badge>
              ) : null}
              {manage ? (
                <Button
                  size="sm"
                  variant="outline"
                  className="h-7 px-2 text-xs"
                  disabled={confirming}
                  onClick={onConfirm}
                >
                  {confirming ? 'Confirming...' : 'Mark Paid'}
                </Button>
              ) : null}
              {recordButton}
              {pledge.donorSaysSentAt ? (
                <Badge
                  variant="outline"
                  title={`The donor said on ${formatDateTime(pledge.donorSaysSentAt, timeZone)} that the transfer was sent`}
                >
                  Donor says sent
                </Badge>
              ) : null}
            </>
          )}
        </div>
      </td>
      <td className="px-3 py-2.5 whitespace-nowrap text-ink-700">
        <time dateTime={pledge.createdAt} title={formatDateTime(pledge.createdAt, timeZone)}>
          {timeAgo(pledge.createdAt)}
        </time>
      </td>
      <td className="px-3 py-2.5 font-mono text-xs whitespace-nowrap text-ink-800 select-all">
        {pledge.reference}
      </td>
      {manage ? (
        <td className="px-3 py-2.5">
          <div className="flex justify-end gap-1">
            <Button
              variant="ghost"
              size="icon"
              className="h-9 w-9"
              aria-label={`E-mails to ${pledge.name}`}
              title="E-mails"
              onClick={onEmails}
            >
              <Mail className="h-4 w-4" aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="h-9 w-9"
              aria-label={`Edit pledge from ${pledge.name}`}
              onClick={onEdit}
            >
              <Pencil className="h-4 w-4" aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="h-9 w-9 text-red-700 hover:bg-red-50"
              aria-label={`Delete pledge from ${pledge.name}`}
              onClick={onDelete}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </Button>
          </div>
        </td>
      ) : null}
    </tr>
  );
}

/**
 * Pledge Management (product rule): search (debounced), status filter, Amount/Date sorting and
 * paging, all done by the server (docs/decisions/006-admin-table-paging.md).
 */
export function PledgeTable({
  params,
  onParamsChange,
  data,
  isLoading,
  isFetching,
  onEdit,
  onDelete,
  onRecordPayment,
  onEmails,
}: {
  params: AdminPledgeParams;
  onParamsChange: (next: AdminPledgeParams) => void;
  data: AdminPledgesResponse | undefined;
  isLoading: boolean;
  isFetching: boolean;
  onEdit: (pledge: AdminPledge) => void;
  onDelete: (pledge: AdminPledge) => void;
  onRecordPayment: (pledge: AdminPledge) => void;
  onEmails: (pledge: AdminPledge) => void;
}) {
  const confirm = useConfirmPledge();
  // What the role may do (shared/admin-roles.ts); the server refuses the rest anyway.
  const auth = useAdminAuth();
  const manage = auth.may('PUT', '/api/pledges/:id/confirm');
  // A role that sees e-mails masked cannot search by them either (the server ignores them).
  const byEmail = auth.account ? seesDonorEmails(auth.account.role) : true;
  const columns = manage ? 7 : 6;
  const [searchInput, setSearchInput] = useState(params.search);

  // Ask the server once the admin pauses typing, back on page 1.
  useEffect(() => {
    if (searchInput === params.search) return;
    const t = setTimeout(
      () => onParamsChange({ ...params, search: searchInput, page: 1 }),
      SEARCH_DEBOUNCE_MS,
    );
    return () => clearTimeout(t);
  }, [searchInput, params, onParamsChange]);

  function sortBy(key: SortKey) {
    const order = params.sort === key ? (params.order === 'desc' ? 'asc' : 'desc') : 'desc';
    onParamsChange({ ...params, sort: key, order, page: 1 });
  }

  const total = data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / params.pageSize));
  const first = total === 0 ? 0 : (params.page - 1) * params.pageSize + 1;
  const last = Math.min(total, params.page * params.pageSize);
  const sortText =
    params.sort === 'date'
      ? params.order === 'desc'
        ? 'by date, newest first'
        : 'by date, oldest first'
      : params.order === 'desc'
        ? 'by amount, largest first'
        : 'by amount, smallest first';

  return (
    <section aria-labelledby="pledge-management-heading" className="grid gap-4">
      <h2 id="pledge-management-heading" className="text-xl font-bold text-ink-900">
        Pledge Management
      </h2>
      <Card className="overflow-hidden">
        <div className="flex flex-col gap-3 border-b border-ink-100 p-4 sm:flex-row sm:items-end">
          <div className="grid flex-1 gap-1.5">
            <Label htmlFor="pledge-search">Search</Label>
            <div className="relative">
              <Search
                className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-ink-500"
                aria-hidden="true"
              />
              <Input
                id="pledge-search"
                type="search"
                placeholder={byEmail ? 'Search by name or email...' : 'Search by name...'}
                className="pl-9"
                aria-describedby="pledge-search-hint"
                value={searchInput}
                onChange={(e) => setSearchInput(e.target.value)}
              />
            </div>
            <p id="pledge-search-hint" className="text-xs text-ink-600">
              Also finds a payment reference, typed with or without dashes.
            </p>
          </div>
          <div className="grid gap-1.5 sm:w-48">
            <Label htmlFor="pledge-status">Status</Label>
            <select
              id="pledge-status"
              value={params.status}
              onChange={(e) =>
                onParamsChange({
                  ...params,
                  status: e.target.value as AdminPledgeParams['status'],
                  page: 1,
                })
              }
              className="h-11 w-full rounded-lg border border-ink-300 bg-white px-3 text-base text-ink-900 focus-visible:border-brand-700 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none"
            >
              {STATUS_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-1.5 sm:w-48">
            <Label htmlFor="pledge-age">Money owed for</Label>
            <select
              id="pledge-age"
              value={params.age ?? ''}
              onChange={(e) =>
                onParamsChange({
                  ...params,
                  age: AGE_BUCKETS.find((b) => b === e.target.value),
                  page: 1,
                })
              }
              className="h-11 w-full rounded-lg border border-ink-300 bg-white px-3 text-base text-ink-900 focus-visible:border-brand-700 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none"
            >
              <option value="">Any age</option>
              {AGE_BUCKETS.map((b) => (
                <option key={b} value={b}>
                  {AGE_BUCKET_LABELS[b]}
                </option>
              ))}
            </select>
          </div>
        </div>

        <div className="overflow-x-auto">
          <table className="w-full min-w-[880px] text-left text-sm" aria-busy={isFetching}>
            <caption className="sr-only">Pledges, sorted {sortText}</caption>
            <thead className="bg-ink-50 text-ink-700">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Name
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Email
                </th>
                <SortHeader label="Amount" sortKey="amount" params={params} onSort={sortBy} />
                <th scope="col" className="px-3 py-2 font-semibold">
                  Status
                </th>
                <SortHeader label="Date" sortKey="date" params={params} onSort={sortBy} />
                {/* Added after the spec's columns, so their positions stay as they were. */}
                <th scope="col" className="px-3 py-2 font-semibold">
                  Reference
                </th>
                {manage ? (
                  <th scope="col" className="px-3 py-2 text-right font-semibold">
                    Actions
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody className={isFetching && !isLoading ? 'opacity-70 transition-opacity' : ''}>
              {isLoading && !data ? (
                Array.from({ length: 5 }, (_, i) => (
                  <tr key={i} className="border-t border-ink-100">
                    <td colSpan={columns} className="px-3 py-3">
                      <Skeleton className="h-5 w-full" />
                    </td>
                  </tr>
                ))
              ) : !data || data.items.length === 0 ? (
                <tr className="border-t border-ink-100">
                  <td colSpan={columns} className="px-3 py-10 text-center text-ink-600">
                    No pledges found matching your criteria.
                  </td>
                </tr>
              ) : (
                data.items.map((p) => (
                  <PledgeRow
                    key={p.id}
                    pledge={p}
                    onEdit={() => onEdit(p)}
                    onDelete={() => onDelete(p)}
                    onEmails={() => onEmails(p)}
                    confirming={confirm.isPending && confirm.variables === p.id}
                    onConfirm={() => confirm.mutate(p.id)}
                    onRecordPayment={() => onRecordPayment(p)}
                    manage={manage}
                  />
                ))
              )}
            </tbody>
          </table>
        </div>

        <nav
          aria-label="Pledge pages"
          className="flex flex-col gap-3 border-t border-ink-100 p-4 text-sm text-ink-700 sm:flex-row sm:items-center sm:justify-between"
        >
          <p aria-live="polite">
            {total === 0
              ? 'No pledges'
              : `Showing ${formatNumber(first)}–${formatNumber(last)} of ${formatNumber(total)} pledges`}
          </p>
          <div className="flex items-center gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={params.page <= 1}
              onClick={() => onParamsChange({ ...params, page: params.page - 1 })}
            >
              Previous
            </Button>
            <span className="tabular-nums">
              Page {formatNumber(params.page)} of {formatNumber(pages)}
            </span>
            <Button
              variant="outline"
              size="sm"
              disabled={params.page >= pages}
              onClick={() => onParamsChange({ ...params, page: params.page + 1 })}
            >
              Next
            </Button>
          </div>
        </nav>
      </Card>
    </section>
  );
}
