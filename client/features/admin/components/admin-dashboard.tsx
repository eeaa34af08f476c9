import { ArrowLeft, Download, KeyRound, LogOut, ShieldOff, SlidersHorizontal } from 'lucide-react';
import { ROLE_LABELS } from '@shared/admin-roles';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { AGE_BUCKETS, type AgeBucket } from '@shared/schemas/report';
import type { AdminPledge } from '@shared/schemas/pledge';
import type { DeliveryUpdate } from '@shared/schemas/update';
import { Button } from '../../../components/ui/button';
import { reportsTabChunk } from '../../../admin-chunks';
import { Skeleton } from '../../../components/ui/skeleton';
import { Link, navigate, useSearchParam } from '../../../lib/navigation';
import { useAdminAuth } from '../../admin-auth';
import {
  ADMIN_PAGE_SIZE,
  useAdminPledges,
  useAllUpdates,
  usePrefetchDashboard,
  type AdminPledgeParams,
} from '../api';
import { DeletePledgeDialog } from './delete-pledge-dialog';
import { DeleteUpdateDialog } from './delete-update-dialog';
import EditUpdateDialog from './edit-update-dialog';
import { EditPledgeDialog } from './edit-pledge-dialog';
import { RecordPaymentDialog } from './record-payment-dialog';
import { ActivityLog } from './activity-log';
import { DonorDataPanel } from './donor-data-panel';
import { ConfirmDialog } from './confirm-dialog';
import { DASHBOARD_TABS, DashboardTabs, type DashboardTab } from './dashboard-tabs';
import { ExportDialog } from './export-dialog';
import { StatementImport } from './statement-import';
import { OwnPasswordDialog } from './own-password-dialog';
import { TeamTab } from './team-tab';
import { PledgeEmailsDialog } from './pledge-emails-dialog';
import { PledgeTable } from './pledge-table';
import { PostUpdateDialog } from './post-update-dialog';
import { ProgressDialog } from './progress-dialog';
import { StatCards } from './stat-cards';
import { RemindersPanel } from './reminders-panel';
import { UpdatesGrid } from './updates-grid';

const DEFAULT_PARAMS: AdminPledgeParams = {
  search: '',
  status: 'all',
  sort: 'date',
  order: 'desc',
  page: 1,
  pageSize: ADMIN_PAGE_SIZE,
};

const parseAge = (v: string) => AGE_BUCKETS.find((b) => b === v);
const parseTab = (v: string) => DASHBOARD_TABS.find((t) => t === v);

/** The signed-in /admin page (its parts: docs/decisions/010-product-rules.md). */
export function AdminDashboard() {
  const { logout, signOutEverywhere, handleSessionError, account, may } = useAdminAuth();
  // The address says which view and which age of owed money (the report's links): read once,
  // then kept in step with what the admin picks, so a copied link opens the same view.
  const ageParam = useSearchParam('age');
  const tabParam = useSearchParam('tab');
  const [params, setParamsState] = useState<AdminPledgeParams>(() => ({
    ...DEFAULT_PARAMS,
    age: parseAge(ageParam),
  }));
  const setParams = useCallback((next: AdminPledgeParams) => setParamsState(next), []);
  // What the signed-in role may use (shared/admin-roles.ts); the server refuses the rest anyway.
  const readsPledges = may('GET', '/api/admin/pledges');
  usePrefetchDashboard(DEFAULT_PARAMS, readsPledges);
  const pledges = useAdminPledges(params, readsPledges);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const visibleTabs: DashboardTab[] = [
    'overview',
    ...(may('POST', '/api/admin/statements/import') ? (['import'] as const) : []),
    ...(may('GET', '/api/admin/activity') ? (['activity'] as const) : []),
    ...(may('GET', '/api/admin/reports/fulfilment') ? (['reports'] as const) : []),
    ...(may('GET', '/api/admin/team') ? (['team'] as const) : []),
  ];
  const updates = useAllUpdates();

  const [exportOpen, setExportOpen] = useState(false);
  const [postOpen, setPostOpen] = useState(false);
  const [progressOpen, setProgressOpen] = useState(false);
  const [editingUpdate, setEditingUpdate] = useState<DeliveryUpdate | null>(null);
  const [deletingUpdate, setDeletingUpdate] = useState<DeliveryUpdate | null>(null);
  const [editingPledge, setEditingPledge] = useState<AdminPledge | null>(null);
  const [payingPledge, setPayingPledge] = useState<AdminPledge | null>(null);
  const [deletingPledge, setDeletingPledge] = useState<AdminPledge | null>(null);
  const [tab, setTab] = useState<DashboardTab>(() => parseTab(tabParam) ?? 'overview');
  useEffect(() => {
    const qs = new URLSearchParams();
    if (tab !== 'overview') qs.set('tab', tab);
    if (params.age) qs.set('age', params.age);
    const next = `${window.location.pathname}${qs.size ? `?${qs}` : ''}`;
    if (next !== `${window.location.pathname}${window.location.search}`) {
      window.history.replaceState(null, '', next);
    }
  }, [tab, params.age]);

  // An age in the report opens the pledge table filtered to it, scrolled into view.
  const scrollToTable = useRef(false);
  const openAge = useCallback((age: AgeBucket) => {
    scrollToTable.current = true;
    setParamsState((p) => ({ ...p, age, status: 'all', search: '', page: 1 }));
    setTab('overview');
  }, []);
  useEffect(() => {
    if (tab !== 'overview' || !scrollToTable.current) return;
    scrollToTable.current = false;
    document.getElementById('pledge-management-heading')?.scrollIntoView({ block: 'start' });
  }, [tab]);
  const [emailsOf, setEmailsOf] = useState<AdminPledge | null>(null);

  // A 401 while loading (the session ended elsewhere) is a Session Expired like any admin call.
  useEffect(() => {
    if (pledges.error) handleSessionError(pledges.error);
  }, [pledges.error, handleSessionError]);

  // After a delete empties the last page, step back to the new last page.
  const total = pledges.data?.total;
  useEffect(() => {
    if (total === undefined) return;
    const pages = Math.max(1, Math.ceil(total / params.pageSize));
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the page count is known only when the list arrives; stepping back changes the query
    if (params.page > pages) setParamsState((p) => ({ ...p, page: pages }));
  }, [total, params.page, params.pageSize]);

  async function handleLogout() {
    navigate('/');
    await logout();
  }

  const [signOutAllOpen, setSignOutAllOpen] = useState(false);
  const [signingOutAll, setSigningOutAll] = useState(false);
  async function handleSignOutAll() {
    setSigningOutAll(true);
    try {
      await signOutEverywhere();
      navigate('/');
    } finally {
      setSigningOutAll(false);
      setSignOutAllOpen(false);
    }
  }

  // Who is signed in arrives a moment after the page (the page itself is shared by every admin).
  if (!account) return <p className="p-8 text-center text-ink-600">Loading…</p>;

  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        {/* The title keeps its line; the owner's six buttons wrap beside it instead. */}
        <div className="lg:min-w-80">
          <h1 className="text-3xl font-bold text-ink-900">Admin Dashboard</h1>
          <p className="mt-1 text-ink-700">
            Confirm payments, manage pledges and post delivery updates.
          </p>
          <p className="mt-1 text-sm text-ink-700" data-testid="signed-in-as">
            Signed in as <span className="font-semibold text-ink-900">{account.name}</span> (
            {ROLE_LABELS[account.role]})
          </p>
        </div>
        <div className="flex flex-wrap gap-2 lg:justify-end">
          {may('PUT', '/api/progress') ? (
            <Button variant="outline" onClick={() => setProgressOpen(true)}>
              <SlidersHorizontal className="h-4 w-4" aria-hidden="true" />
              Adjust Progress
            </Button>
          ) : null}
          {may('GET', '/api/pledges/export') ? (
            <Button onClick={() => setExportOpen(true)}>
              <Download className="h-4 w-4" aria-hidden="true" />
              Export CSV
            </Button>
          ) : null}
          <Button variant="outline" onClick={() => void handleLogout()}>
            <LogOut className="h-4 w-4" aria-hidden="true" />
            Logout
          </Button>
          {account.role === 'owner' ? null : (
            <Button variant="ghost" onClick={() => setPasswordOpen(true)}>
              <KeyRound className="h-4 w-4" aria-hidden="true" />
              Change password
            </Button>
          )}
          {may('DELETE', '/api/admin/sessions') ? (
            <Button variant="ghost" onClick={() => setSignOutAllOpen(true)}>
              <ShieldOff className="h-4 w-4" aria-hidden="true" />
              Sign out all sessions
            </Button>
          ) : null}
          <Button variant="ghost" asChild>
            <Link to="/">
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back to Home
            </Link>
          </Button>
        </div>
      </header>

      <DashboardTabs value={tab} onChange={setTab} visible={visibleTabs} />

      {tab === 'team' && visibleTabs.includes('team') ? (
        <div role="tabpanel" id="admin-panel-team" aria-labelledby="admin-tab-team">
          <TeamTab />
        </div>
      ) : tab === 'reports' && visibleTabs.includes('reports') ? (
        <div role="tabpanel" id="admin-panel-reports" aria-labelledby="admin-tab-reports">
          <Suspense fallback={<Skeleton className="h-96 w-full" />}>
            <reportsTabChunk.Component onOpenAge={openAge} />
          </Suspense>
        </div>
      ) : tab === 'import' && visibleTabs.includes('import') ? (
        <div role="tabpanel" id="admin-panel-import" aria-labelledby="admin-tab-import">
          <StatementImport />
        </div>
      ) : tab === 'activity' && visibleTabs.includes('activity') ? (
        <div role="tabpanel" id="admin-panel-activity" aria-labelledby="admin-tab-activity">
          <ActivityLog />
          <div className="mt-10">
            <DonorDataPanel />
          </div>
        </div>
      ) : (
        <div
          role="tabpanel"
          id="admin-panel-overview"
          aria-labelledby="admin-tab-overview"
          className="grid gap-8"
        >
          {readsPledges ? <StatCards stats={pledges.data?.stats} /> : null}

          <UpdatesGrid
            canEdit={may('POST', '/api/updates')}
            updates={updates.data}
            onPost={() => setPostOpen(true)}
            onEdit={setEditingUpdate}
            onDelete={setDeletingUpdate}
          />

          {readsPledges && pledges.isError && !pledges.data ? (
            <div
              role="alert"
              className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-800"
            >
              Could not load the pledges.{' '}
              <Button variant="link" className="h-auto p-0" onClick={() => void pledges.refetch()}>
                Try again
              </Button>
            </div>
          ) : null}

          {readsPledges ? (
            <PledgeTable
              params={params}
              onParamsChange={setParams}
              data={pledges.data}
              isLoading={pledges.isLoading}
              isFetching={pledges.isFetching}
              onEdit={setEditingPledge}
              onDelete={setDeletingPledge}
              onRecordPayment={setPayingPledge}
              onEmails={setEmailsOf}
            />
          ) : null}

          {may('GET', '/api/admin/reminders') ? <RemindersPanel /> : null}
        </div>
      )}

      <ExportDialog
        open={exportOpen}
        onOpenChange={setExportOpen}
        totalPledges={pledges.data?.stats.totalPledges}
      />
      <PostUpdateDialog open={postOpen} onOpenChange={setPostOpen} />
      <OwnPasswordDialog open={passwordOpen} onOpenChange={setPasswordOpen} />
      <ProgressDialog open={progressOpen} onOpenChange={setProgressOpen} />
      <ConfirmDialog
        open={signOutAllOpen}
        onOpenChange={setSignOutAllOpen}
        title="Sign out all sessions?"
        description="Every device signed in to the admin area, this one included, will need the password again. Use this if a phone or laptop was lost or the password may have leaked."
        confirmLabel="Sign out all sessions"
        pendingLabel="Signing out…"
        pending={signingOutAll}
        destructive
        onConfirm={() => void handleSignOutAll()}
      />
      {editingUpdate ? (
        <EditUpdateDialog
          update={editingUpdate}
          open
          onOpenChange={(open) => {
            if (!open) setEditingUpdate(null);
          }}
        />
      ) : null}
      <DeleteUpdateDialog
        update={deletingUpdate}
        onOpenChange={(open) => {
          if (!open) setDeletingUpdate(null);
        }}
      />
      <EditPledgeDialog
        pledge={editingPledge}
        onOpenChange={(open) => {
          if (!open) setEditingPledge(null);
        }}
      />
      <RecordPaymentDialog
        pledge={payingPledge}
        onOpenChange={(open) => {
          if (!open) setPayingPledge(null);
        }}
      />
      <DeletePledgeDialog
        pledge={deletingPledge}
        onOpenChange={(open) => {
          if (!open) setDeletingPledge(null);
        }}
      />
      <PledgeEmailsDialog
        pledge={emailsOf}
        onOpenChange={(open) => {
          if (!open) setEmailsOf(null);
        }}
      />
    </div>
  );
}
