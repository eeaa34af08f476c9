import type { Campaign } from '@shared/schemas/campaign';
import { button, html, page, type RenderedEmail } from './layout';

export interface InvitationData {
  campaign: Campaign;
  /** The member's name as the owner entered it, and their role's label. */
  name: string;
  roleLabel: string;
  /** The set-password page, absolute, with its single-use token. */
  url: string;
  /** When the link stops working. */
  expiresAt: Date;
  /** A password reset the owner sent to a member who has a password. */
  reset?: boolean;
}

/** The owner added a team member; the link lets them choose their password. */
export function teamInvitationEmail({
  campaign,
  name,
  roleLabel,
  url,
  expiresAt,
  reset,
}: InvitationData): RenderedEmail {
  if (reset) return passwordResetEmail({ campaign, name, roleLabel, url, expiresAt });
  const subject = `You are invited to the ${campaign.name} admin`;
  const until = expiresAt.toUTCString();
  const text = [
    `Hello ${name},`,
    '',
    `You have been added to the admin team of ${campaign.name} as ${roleLabel}.`,
    'Choose your password with this link (it works once, until ' + until + '):',
    url,
    '',
    'Then sign in at the site with your e-mail address and that password.',
    'If you did not expect this, ignore this e-mail: nothing happens without the link.',
    '',
    campaign.name,
    '',
  ].join('\n');
  const body = html`<p>Hello ${name},</p>
    <p>
      You have been added to the admin team of ${campaign.name} as <strong>${roleLabel}</strong>.
      Choose your password with the link below. It works once, until ${until}.
    </p>
    ${button(url, 'Choose your password')}
    <p>Then sign in at the site with your e-mail address and that password.</p>
    <p style="color:#4b5563;font-size:13px;">
      If you did not expect this, ignore this e-mail: nothing happens without the link.
    </p>`;
  return { subject, text, html: page(campaign, subject, body) };
}

/** The owner sent a member a new link: a password reset (the old password works until it is used). */
function passwordResetEmail({ campaign, name, url, expiresAt }: InvitationData): RenderedEmail {
  const subject = `Reset your password for the ${campaign.name} admin`;
  const until = expiresAt.toUTCString();
  const text = [
    `Hello ${name},`,
    '',
    `The owner of ${campaign.name} sent you a link to choose a new admin password.`,
    'It works once, until ' + until + ':',
    url,
    '',
    'Setting it signs you out on every device. Until then your current password keeps working.',
    'If you did not ask for this, tell the campaign’s owner.',
    '',
    campaign.name,
    '',
  ].join('\n');
  const body = html`<p>Hello ${name},</p>
    <p>
      The owner of ${campaign.name} sent you a link to choose a new admin password. It works once,
      until ${until}.
    </p>
    ${button(url, 'Choose a new password')}
    <p>Setting it signs you out on every device. Until then your current password keeps working.</p>
    <p style="color:#4b5563;font-size:13px;">
      If you did not ask for this, tell the campaign’s owner.
    </p>`;
  return { subject, text, html: page(campaign, subject, body) };
}
