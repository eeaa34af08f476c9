import { ArrowLeft, Download, LogOut, ShieldOff, SlidersHorizontal } from 'lucide-react';
import { Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { roleMay } from '@shared/admin-roles';
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
  useAdminRole,
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
  const { logout, signOutEverywhere, handleSessionError } = useAdminAuth();
  // The address says which view and which age of owed money (the report's links): read once,
  // then kept in step with what the admin picks, so a copied link opens the same view.
  const ageParam = useSearchParam('age');
  const tabParam = useSearchParam('tab');
  const [params, setParamsState] = useState<AdminPledgeParams>(() => ({
    ...DEFAULT_PARAMS,
    age: parseAge(ageParam),
  }));
  const setParams = useCallback((next: AdminPledgeParams) => setParamsState(next), []);
  usePrefetchDashboard(DEFAULT_PARAMS);
  const pledges = useAdminPledges(params);
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
  const role = useAdminRole();
  // Hidden until the role is known: a role that may not read reports never sees the tab flash.
  const hiddenTabs: DashboardTab[] =
    role && roleMay(role, 'GET', '/api/admin/reports/fulfilment') ? [] : ['reports'];
  const shownTab = hiddenTabs.includes(tab) ? 'overview' : tab;
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

  return (
    <div className="mx-auto grid max-w-6xl gap-8 px-4 py-8 sm:px-6">
      <header className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <div>
          <h1 className="text-3xl font-bold text-ink-900">Admin Dashboard</h1>
          <p className="mt-1 text-ink-700">
            Confirm payments, manage pledges and post delivery updates.
          </p>
        </div>
        <div className="flex flex-wrap gap-2 lg:shrink-0 lg:justify-end">
          <Button variant="outline" onClick={() => setProgressOpen(true)}>
            <SlidersHorizontal className="h-4 w-4" aria-hidden="true" />
            Adjust Progress
          </Button>
          <Button onClick={() => setExportOpen(true)}>
            <Download className="h-4 w-4" aria-hidden="true" />
            Export CSV
          </Button>
          <Button variant="outline" onClick={() => void handleLogout()}>
            <LogOut className="h-4 w-4" aria-hidden="true" />
            Logout
          </Button>
          <Button variant="ghost" onClick={() => setSignOutAllOpen(true)}>
            <ShieldOff className="h-4 w-4" aria-hidden="true" />
            Sign out all sessions
          </Button>
          <Button variant="ghost" asChild>
            <Link to="/">
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back to Home
            </Link>
          </Button>
        </div>
      </header>

      <DashboardTabs value={shownTab} onChange={setTab} hidden={hiddenTabs} />

      {shownTab === 'reports' ? (
        <div role="tabpanel" id="admin-panel-reports" aria-labelledby="admin-tab-reports">
          <Suspense fallback={<Skeleton className="h-96 w-full" />}>
            <reportsTabChunk.Component onOpenAge={openAge} />
          </Suspense>
        </div>
      ) : shownTab === 'import' ? (
        <div role="tabpanel" id="admin-panel-import" aria-labelledby="admin-tab-import">
          <StatementImport />
        </div>
      ) : shownTab === 'activity' ? (
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
          <StatCards stats={pledges.data?.stats} />

          <UpdatesGrid
            updates={updates.data}
            onPost={() => setPostOpen(true)}
            onEdit={setEditingUpdate}
            onDelete={setDeletingUpdate}
          />

          {pledges.isError && !pledges.data ? (
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

          <RemindersPanel />
        </div>
      )}

      <ExportDialog
        open={exportOpen}
        onOpenChange={setExportOpen}
        totalPledges={pledges.data?.stats.totalPledges}
      />
      <PostUpdateDialog open={postOpen} onOpenChange={setPostOpen} />
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
