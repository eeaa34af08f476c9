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
import { ADMIN_MESSAGES } from '@shared/schemas/admin-messages';
import type { SecondFactorMethod } from '@shared/schemas/two-factor-messages';
import { toast } from '../../components/ui/toast-store';
import { apiRequest, isUnauthorized } from '../../lib/api-client';
import { pledgeRelatedKeys, queryKeys } from '../../lib/query-keys';

/**
 * What a password sign-in leads to: a session (true), a refusal (false), or a second step: a
 * second factor to give (its methods), or one to set up because the campaign requires it.
 */
type LoginResult =
  boolean | { secondFactor: SecondFactorMethod[] } | { secondFactorSetup: true };

export interface AdminAuth {
  isAuthenticated: boolean;
  /** The owner with the password alone; a team member with e-mail and password (issue 27). */
  login(password: string, email?: string): Promise<LoginResult>;
  /** After the second step (or its set-up): the session is open. */
  completeLogin(): void;
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

async function fetchIsAuthenticated(): Promise<boolean> {
  try {
    const res = await fetch('/api/admin/check', { credentials: 'include' });
    if (!res.ok) return false;
    const data = (await res.json()) as { isAuthenticated?: unknown };
    return data.isAuthenticated === true;
  } catch (err) {
    // Product rule: logged, the user is treated as not authenticated.
    console.error('Admin check failed', err);
    return false;
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

  const checkAuth = useCallback(async () => {
    const ok = await fetchIsAuthenticated();
    setAuthenticated(ok);
    if (!ok) setAdminControls(false);
    setChecked(true);
  }, []);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the session is asked of the server once, after hydration; state changes when the answer arrives
    if (initialAuthenticated === undefined) void checkAuth();
  }, [checkAuth, initialAuthenticated]);

  const completeLogin = useCallback(() => {
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
        completeLogin();
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
      setAdminControls(false);
      queryClient.removeQueries({ queryKey: queryKeys.adminPledges });
    }
  }, [queryClient]);

  const signOutEverywhere = useCallback(async () => {
    try {
      await apiRequest('DELETE', '/api/admin/sessions');
    } finally {
      setAuthenticated(false);
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

  const value = useMemo<AdminAuth>(
    () => ({
      isAuthenticated,
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
