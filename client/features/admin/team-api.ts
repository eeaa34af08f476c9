import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MemberRole } from '@shared/admin-roles';
import type {
  ActivityPerson,
  AdminSession,
  ChangePassword,
  TeamMember,
} from '@shared/schemas/team';
import { toast, type ToastInput } from '../../components/ui/toast-store';
import { apiRequest, errorMessage, getJson } from '../../lib/api-client';
import { useAdminAuth } from '../admin-auth';

/** The Team tab's data: not pledge data, so its own keys. */
const teamKeys = {
  members: ['team', 'members'] as const,
  sessions: ['team', 'sessions'] as const,
  people: ['team', 'activity-people'] as const,
};

export function useTeam() {
  return useQuery({
    queryKey: teamKeys.members,
    queryFn: async () => (await getJson<{ members: TeamMember[] }>('/api/admin/team')).members,
    refetchOnMount: 'always',
  });
}

export function useSessions() {
  return useQuery({
    queryKey: teamKeys.sessions,
    queryFn: async () =>
      (await getJson<{ sessions: AdminSession[] }>('/api/admin/sessions')).sessions,
    refetchOnMount: 'always',
  });
}

/** Whom the Activity tab can filter by (anyone who reads the activity may ask). */
export function useActivityPeople() {
  return useQuery({
    queryKey: teamKeys.people,
    queryFn: async () =>
      (await getJson<{ people: ActivityPerson[] }>('/api/admin/activity/people')).people,
  });
}

/** A Team write: a 401 is "Session Expired", another failure the server's message in a toast. */
function useTeamMutation<TVars>(opts: {
  mutationFn: (vars: TVars) => Promise<unknown>;
  success: (vars: TVars) => ToastInput;
  fallback: string;
}) {
  const queryClient = useQueryClient();
  const { handleSessionError } = useAdminAuth();
  return useMutation({
    mutationFn: opts.mutationFn,
    onSuccess: async (_data, vars) => {
      toast(opts.success(vars));
      await queryClient.invalidateQueries({ queryKey: ['team'] });
    },
    onError: (error) => {
      if (handleSessionError(error)) return;
      toast({
        title: 'Error',
        description: errorMessage(error, opts.fallback),
        variant: 'destructive',
      });
    },
  });
}

export function useInviteMember() {
  return useTeamMutation<{ name: string; email: string; role: MemberRole }>({
    mutationFn: (body) => apiRequest('POST', '/api/admin/team', body),
    success: (v) => ({
      title: 'Invitation sent',
      description: `${v.name} will receive a link to set a password (valid 72 hours).`,
    }),
    fallback: 'Could not invite the member',
  });
}

export function useUpdateMember() {
  return useTeamMutation<{ member: TeamMember; role?: MemberRole; disabled?: boolean }>({
    mutationFn: ({ member, role, disabled }) =>
      apiRequest('PATCH', `/api/admin/team/${member.id}`, { role, disabled }),
    success: ({ member, role, disabled }) => ({
      title:
        disabled === true
          ? 'Member disabled'
          : disabled === false
            ? 'Member enabled'
            : 'Role changed',
      description:
        disabled === true
          ? `${member.name} is signed out and can no longer sign in.`
          : disabled === false
            ? `${member.name} can sign in again.`
            : `${member.name} is now ${role ?? member.role}.`,
    }),
    fallback: 'Could not change the member',
  });
}

/** A new link: the invitation again for an invited member, a password reset for an active one. */
export function useSendLink() {
  return useTeamMutation<TeamMember>({
    mutationFn: (member) => apiRequest('POST', `/api/admin/team/${member.id}/invitation`),
    success: (member) => ({
      title: member.status === 'invited' ? 'Invitation sent again' : 'Reset link sent',
      description: `A new link went to ${member.email ?? member.name}; older links stop working.`,
    }),
    fallback: 'Could not send the link',
  });
}

export function useEndSessions() {
  return useTeamMutation<{ accountId: string; name: string }>({
    mutationFn: ({ accountId }) => apiRequest('DELETE', `/api/admin/team/${accountId}/sessions`),
    success: ({ name }) => ({
      title: 'Signed out',
      description: `Every session of ${name} has ended.`,
    }),
    fallback: 'Could not end the sessions',
  });
}

/** A member who lost phone and recovery codes: their app, passkeys and codes go, and sessions. */
export function useClearSecondFactors() {
  return useTeamMutation<TeamMember>({
    mutationFn: (member) => apiRequest('DELETE', `/api/admin/team/${member.id}/second-factors`),
    success: (member) => ({
      title: 'Second factors cleared',
      description: `${member.name} is signed out and signs in with their password alone until they set up a new one.`,
    }),
    fallback: 'Could not clear the second factors',
  });
}

/** The signed-in member's own password (the server ends their other sessions). */
export function useChangeOwnPassword() {
  const { handleSessionError } = useAdminAuth();
  return useMutation({
    mutationFn: (body: ChangePassword) => apiRequest('POST', '/api/admin/password', body),
    onError: (error) => {
      handleSessionError(error);
    },
  });
}
