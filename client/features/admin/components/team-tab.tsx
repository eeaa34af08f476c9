import { useState, type FormEvent } from 'react';
import { MEMBER_ROLES, ROLE_DESCRIPTIONS, ROLE_LABELS, type MemberRole } from '@shared/admin-roles';
import { memberInviteSchema, type TeamMember } from '@shared/schemas/team';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { FieldError, Label } from '../../../components/ui/label';
import { errorMessage } from '../../../lib/api-client';
import { ConfirmDialog } from './confirm-dialog';
import { SessionsPanel } from './sessions-panel';
import {
  useClearSecondFactors,
  useEndSessions,
  useInviteMember,
  useSendLink,
  useTeam,
  useUpdateMember,
} from '../team-api';

const STATUS_LABEL: Record<TeamMember['status'], string> = {
  invited: 'Invited',
  active: 'Active',
  disabled: 'Disabled',
};

const selectClass =
  'h-9 rounded-lg border border-ink-300 bg-white px-2 text-sm text-ink-900 focus-visible:ring-3 focus-visible:ring-sun-400 focus-visible:outline-none';

function InviteForm() {
  const invite = useInviteMember();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<MemberRole>('viewer');
  const [errors, setErrors] = useState<Partial<Record<'name' | 'email', string>>>({});

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = memberInviteSchema.safeParse({ name, email, role });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'name' || field === 'email') && !next[field]) next[field] = issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    invite.mutate(parsed.data, {
      onSuccess: () => {
        setName('');
        setEmail('');
        setRole('viewer');
      },
    });
  }

  return (
    <Card className="p-5">
      <h3 className="text-lg font-bold text-ink-900">Add a member</h3>
      <p className="mt-1 text-sm text-ink-700">
        They receive an e-mail with a link to choose their own password. The link works once, for 72
        hours.
      </p>
      <form
        onSubmit={submit}
        noValidate
        className="mt-4 grid gap-4 sm:grid-cols-[1fr_1fr_auto_auto]"
      >
        <div className="grid gap-1.5">
          <Label htmlFor="team-name">Name</Label>
          <Input
            id="team-name"
            value={name}
            autoComplete="off"
            aria-invalid={Boolean(errors.name)}
            aria-describedby={errors.name ? 'team-name-error' : undefined}
            onChange={(e) => setName(e.target.value)}
          />
          <FieldError id="team-name-error">{errors.name}</FieldError>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="team-email">E-mail</Label>
          <Input
            id="team-email"
            type="email"
            value={email}
            autoComplete="off"
            aria-invalid={Boolean(errors.email)}
            aria-describedby={errors.email ? 'team-email-error' : undefined}
            onChange={(e) => setEmail(e.target.value)}
          />
          <FieldError id="team-email-error">{errors.email}</FieldError>
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="team-role">Role</Label>
          <select
            id="team-role"
            className={`${selectClass} h-10`}
            value={role}
            onChange={(e) => setRole(e.target.value as MemberRole)}
          >
            {MEMBER_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </div>
        <div className="flex items-end">
          <Button type="submit" disabled={invite.isPending}>
            {invite.isPending ? 'Sending…' : 'Send invitation'}
          </Button>
        </div>
      </form>
      <dl className="mt-4 grid gap-1 text-sm text-ink-700">
        {MEMBER_ROLES.map((r) => (
          <div key={r} className="flex gap-2">
            <dt className="w-20 shrink-0 font-semibold text-ink-800">{ROLE_LABELS[r]}</dt>
            <dd>{ROLE_DESCRIPTIONS[r]}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

function MemberRow({
  member,
  onDisable,
  onClearFactors,
}: {
  member: TeamMember;
  onDisable: () => void;
  onClearFactors: () => void;
}) {
  const update = useUpdateMember();
  const sendLink = useSendLink();
  const isOwner = member.role === 'owner';
  return (
    <tr className="border-t border-ink-100 align-middle">
      <td className="px-3 py-2.5 font-medium text-ink-900">{member.name}</td>
      <td className="px-3 py-2.5 text-ink-700">{member.email ?? 'ADMIN_PASSWORD'}</td>
      <td className="px-3 py-2.5">
        {isOwner ? (
          ROLE_LABELS.owner
        ) : (
          <select
            aria-label={`Role of ${member.name}`}
            className={selectClass}
            value={member.role}
            disabled={update.isPending || member.status === 'disabled'}
            onChange={(e) => update.mutate({ member, role: e.target.value as MemberRole })}
          >
            {MEMBER_ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        )}
      </td>
      <td className="px-3 py-2.5">
        <Badge
          variant={
            member.status === 'active'
              ? 'default'
              : member.status === 'invited'
                ? 'secondary'
                : 'outline'
          }
        >
          {STATUS_LABEL[member.status]}
        </Badge>
      </td>
      <td className="px-3 py-2.5 text-ink-700">{member.secondFactor ? 'Set up' : 'None'}</td>
      <td className="px-3 py-2.5">
        {isOwner ? null : (
          <div className="flex flex-wrap justify-end gap-1">
            {member.status !== 'disabled' ? (
              <Button
                size="sm"
                variant="outline"
                className="h-8"
                disabled={sendLink.isPending}
                aria-label={`${member.status === 'invited' ? 'Resend invitation to' : 'Send a password reset link to'} ${member.name}`}
                onClick={() => sendLink.mutate(member)}
              >
                {member.status === 'invited' ? 'Resend invitation' : 'Send reset link'}
              </Button>
            ) : null}
            {member.secondFactor ? (
              <Button
                size="sm"
                variant="outline"
                className="h-8"
                aria-label={`Clear the second factors of ${member.name}`}
                onClick={onClearFactors}
              >
                Clear second factors
              </Button>
            ) : null}
            {member.status === 'disabled' ? (
              <Button
                size="sm"
                variant="outline"
                className="h-8"
                disabled={update.isPending}
                aria-label={`Enable ${member.name}`}
                onClick={() => update.mutate({ member, disabled: false })}
              >
                Enable
              </Button>
            ) : (
              <Button
                size="sm"
                variant="ghost"
                className="h-8 text-red-700 hover:bg-red-50"
                aria-label={`Disable ${member.name}`}
                onClick={onDisable}
              >
                Disable
              </Button>
            )}
          </div>
        )}
      </td>
    </tr>
  );
}

/**
 * The owner's Team tab: members with their role and status, inviting, role changes, disabling,
 * new links, and the sessions still running (shown to the owner only: GET /api/admin/team is
 * the owner's in shared/admin-roles.ts).
 */
export function TeamTab() {
  const team = useTeam();
  const update = useUpdateMember();
  const endSessions = useEndSessions();
  const clearFactors = useClearSecondFactors();
  const [disabling, setDisabling] = useState<TeamMember | null>(null);
  const [clearing, setClearing] = useState<TeamMember | null>(null);

  return (
    <section aria-labelledby="team-heading" className="grid gap-6">
      <div>
        <h2 id="team-heading" className="text-xl font-bold text-ink-900">
          Team
        </h2>
        <p className="mt-1 text-ink-700">
          Each volunteer signs in with their own e-mail and password. Their role decides what they
          see and change; the activity log names who did what.
        </p>
      </div>
      <InviteForm />
      {team.isError ? (
        <p role="alert" className="text-red-800">
          {errorMessage(team.error, 'Could not load the team.')}
        </p>
      ) : null}
      <Card className="overflow-x-auto">
        <table className="w-full min-w-[720px] text-left text-sm">
          <caption className="sr-only">Team members</caption>
          <thead className="bg-ink-50 text-ink-700">
            <tr>
              {['Name', 'E-mail', 'Role', 'Status', 'Second factor'].map((h) => (
                <th key={h} scope="col" className="px-3 py-2 font-semibold">
                  {h}
                </th>
              ))}
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                Actions
              </th>
            </tr>
          </thead>
          <tbody>
            {(team.data ?? []).map((m) => (
              <MemberRow
                key={m.id}
                member={m}
                onDisable={() => setDisabling(m)}
                onClearFactors={() => setClearing(m)}
              />
            ))}
            {team.isLoading ? (
              <tr className="border-t border-ink-100">
                <td colSpan={6} className="px-3 py-6 text-center text-ink-600">
                  Loading…
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </Card>
      <SessionsPanel
        pendingFor={endSessions.isPending ? endSessions.variables?.accountId : undefined}
        onEnd={(accountId, name) => endSessions.mutate({ accountId, name })}
      />
      <ConfirmDialog
        open={disabling !== null}
        onOpenChange={(open) => {
          if (!open) setDisabling(null);
        }}
        title={`Disable ${disabling?.name ?? 'this member'}?`}
        description="They are signed out everywhere at once and cannot sign in until you enable them again. Their entries in the activity log stay."
        confirmLabel="Disable"
        pendingLabel="Disabling…"
        pending={update.isPending}
        destructive
        onConfirm={() => {
          if (!disabling) return;
          update.mutate(
            { member: disabling, disabled: true },
            { onSettled: () => setDisabling(null) },
          );
        }}
      />
      <ConfirmDialog
        open={clearing !== null}
        onOpenChange={(open) => {
          if (!open) setClearing(null);
        }}
        title={`Clear the second factors of ${clearing?.name ?? 'this member'}?`}
        description="For a member who lost their phone and their recovery codes. Their authenticator app, passkeys and recovery codes stop working and they are signed out everywhere. They then sign in with their password alone, or are led to set up a new second factor if the campaign requires one. Make sure it is really them asking."
        confirmLabel="Clear second factors"
        pendingLabel="Clearing…"
        pending={clearFactors.isPending}
        destructive
        onConfirm={() => {
          if (!clearing) return;
          clearFactors.mutate(clearing, { onSettled: () => setClearing(null) });
        }}
      />
    </section>
  );
}
