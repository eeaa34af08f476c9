import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';
import { roleMay, type AdminRole } from '@shared/admin-roles';
import { ADMIN_MESSAGES } from '@shared/schemas/admin-messages';
import type { SecondFactorMethod } from '@shared/schemas/two-factor-messages';
import { toast } from '../../components/ui/toast-store';
import { apiRequest, isUnauthorized } from '../../lib/api-client';
import { pledgeRelatedKeys, queryKeys } from '../../lib/query-keys';

/** Who is signed in: the UI shows only what the role may use. */
export interface AdminAccount {
  name: string;
  role: AdminRole;
}

/**
 * What a password sign-in leads to: a session (true), a refusal (false), or a second step: a
 * second factor to give (its methods), or one to set up because the campaign requires it.
 */
type LoginResult = boolean | { secondFactor: SecondFactorMethod[] } | { secondFactorSetup: true };

export interface AdminAuth {
  isAuthenticated: boolean;
  /** Null until the server has said who it is (a moment after the page loads signed in). */
  account: AdminAccount | null;
  /** Whether the signed-in role may call an admin route (shared/admin-roles.ts); false while unknown. */
  may(method: string, route: string): boolean;
  /** The owner with the password alone; a team member with e-mail and password. */
  login(password: string, email?: string): Promise<LoginResult>;
  /** After the second step (or its set-up): the session is open. */
  completeLogin(): Promise<void>;
  logout(): Promise<void>;
  /** Ends every admin session (all devices, this one included). */
  signOutEverywhere(): Promise<void>;
  checkAuth(): Promise<void>;
  /** The home's "admin controls" toggle: on after login, off after logout. */
  adminControls: boolean;
  setAdminControls(on: boolean): void;
  /**
   * For admin mutations: a 401 re-checks the session and shows "Session Expired". Returns true if
   * handled.
   */
  handleSessionError(error: unknown): boolean;
}

const AdminAuthContext = createContext<AdminAuth | null>(null);

async function fetchSession(): Promise<{ ok: boolean; account: AdminAccount | null }> {
  try {
    const res = await fetch('/api/admin/check', { credentials: 'include' });
    if (!res.ok) return { ok: false, account: null };
    const data = (await res.json()) as { isAuthenticated?: unknown; account?: AdminAccount };
    const ok = data.isAuthenticated === true;
    return { ok, account: ok ? (data.account ?? null) : null };
  } catch (err) {
    // Product rule: logged, the user is treated as not authenticated.
    console.error('Admin check failed', err);
    return { ok: false, account: null };
  }
}

/**
 * The admin session. The first check is the server's answer embedded in the page when
 * there is one (no extra round trip before the first paint); otherwise nothing renders until
 * GET /api/admin/check answers.
 */
export function AdminAuthProvider({
  children,
  initialAuthenticated,
}: {
  children: ReactNode;
  initialAuthenticated?: boolean;
}) {
  const queryClient = useQueryClient();
  const [isAuthenticated, setAuthenticated] = useState(initialAuthenticated ?? false);
  const [checked, setChecked] = useState(initialAuthenticated !== undefined);
  const [adminControls, setAdminControls] = useState(false);
  const [account, setAccount] = useState<AdminAccount | null>(null);

  const checkAuth = useCallback(async () => {
    const { ok, account: who } = await fetchSession();
    setAuthenticated(ok);
    setAccount(who);
    if (!ok) setAdminControls(false);
    setChecked(true);
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the session is asked of the server once, after hydration; state changes when the answer arrives
    if (initialAuthenticated === undefined) void checkAuth();
  }, [checkAuth, initialAuthenticated]);

  useEffect(() => {
    // The page's embedded flag is shared by every admin (a cached page), so who is signed in, and
    // their role, is asked of the server after hydration. A failed request changes nothing: the
    // next admin call's 401, if any, ends the session as before.
    if (!initialAuthenticated) return;
    let cancelled = false;
    fetch('/api/admin/check', { credentials: 'include' })
      .then(async (res) => {
        const data = (await res.json()) as { isAuthenticated?: unknown; account?: AdminAccount };
        if (cancelled) return;
        if (data.isAuthenticated === true) setAccount(data.account ?? null);
        else if (res.ok) {
          setAuthenticated(false);
          setAdminControls(false);
        }
      })
      .catch((err: unknown) => console.warn('Could not read who is signed in', err));
    return () => {
      cancelled = true;
    };
  }, [initialAuthenticated]);

  const completeLogin = useCallback(async () => {
    // Who is signed in, and their role, before the dashboard shows what that role may use.
    const who = await fetchSession();
    setAccount(who.account);
    setAuthenticated(true);
    setAdminControls(true);
    // Lists now carry admin fields (e-mail, paid status).
    for (const key of pledgeRelatedKeys) void queryClient.invalidateQueries({ queryKey: key });
  }, [queryClient]);

  const login = useCallback(
    async (password: string, email?: string) => {
      try {
        const res = await fetch('/api/admin/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          // No e-mail: the owner's password (the spec's body, unchanged).
          body: JSON.stringify(email ? { email, password } : { password }),
          credentials: 'include',
        });
        if (!res.ok) return false;
        const data = (await res.json()) as {
          isAuthenticated?: boolean;
          secondFactor?: { methods: SecondFactorMethod[] };
          secondFactorSetup?: true;
        };
        if (data.secondFactor) return { secondFactor: data.secondFactor.methods };
        if (data.secondFactorSetup) return { secondFactorSetup: true as const };
        await completeLogin();
        return true;
      } catch (err) {
        console.error('Admin login failed', err);
        return false;
      }
    },
    [completeLogin],
  );

  const logout = useCallback(async () => {
    try {
      await apiRequest('POST', '/api/admin/logout');
    } catch (err) {
      console.error('Admin logout failed', err);
    } finally {
      setAuthenticated(false);
      setAccount(null);
      setAdminControls(false);
      queryClient.removeQueries({ queryKey: queryKeys.adminPledges });
    }
  }, [queryClient]);

  const signOutEverywhere = useCallback(async () => {
    try {
      await apiRequest('DELETE', '/api/admin/sessions');
    } finally {
      setAuthenticated(false);
      setAccount(null);
      setAdminControls(false);
      queryClient.removeQueries({ queryKey: ['/api/admin/pledges'] });
    }
  }, [queryClient]);

  const handleSessionError = useCallback(
    (error: unknown) => {
      if (!isUnauthorized(error)) return false;
      void checkAuth();
      toast({
        title: ADMIN_MESSAGES.sessionExpiredTitle,
        description: ADMIN_MESSAGES.sessionExpired,
        variant: 'destructive',
      });
      return true;
    },
    [checkAuth],
  );

  const may = useCallback(
    (method: string, route: string) => (account ? roleMay(account.role, method, route) : false),
    [account],
  );

  const value = useMemo<AdminAuth>(
    () => ({
      isAuthenticated,
      account,
      may,
      login,
      completeLogin,
      logout,
      signOutEverywhere,
      checkAuth,
      adminControls: isAuthenticated && adminControls,
      setAdminControls,
      handleSessionError,
    }),
    [
      isAuthenticated,
      account,
      may,
      login,
      completeLogin,
      logout,
      signOutEverywhere,
      checkAuth,
      adminControls,
      handleSessionError,
    ],
  );

  if (!checked) return null;
  return <AdminAuthContext.Provider value={value}>{children}</AdminAuthContext.Provider>;
}

export function useAdminAuth(): AdminAuth {
  const ctx = useContext(AdminAuthContext);
  if (!ctx) throw new Error('useAdminAuth must be used within AdminAuthProvider');
  return ctx;
}
