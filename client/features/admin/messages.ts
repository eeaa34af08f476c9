import { EDIT_AMOUNT_MESSAGE } from '@shared/schemas/pledge';

/** The admin area's toast texts: fixed product wording (tests find them by this text). */
export const TOASTS = {
  errorTitle: 'Error',
  progressUpdated: {
    title: 'Progress Updated',
    description: 'The campaign progress has been successfully updated.',
  },
  progressFailedTitle: 'Update Failed',
  progressFailed: 'Invalid password or update failed.',
  postFailed: 'Failed to post update',
  editUpdateFailed: 'Failed to update delivery update',
  editPledgeFailed: 'Failed to update pledge',
  deletePledgeFailed: 'Failed to delete pledge',
  resendFailed: 'Failed to resend the instructions',
  instructionsResent: {
    title: 'Instructions queued',
    description: 'The payment instructions will be e-mailed to the donor again.',
  },
  deleteUpdateFailed: 'Failed to delete update',
  exported: { title: 'Export successful', description: 'Pledges CSV has been downloaded' },
  exportFailedTitle: 'Export failed',
  exportFailed: 'Failed to export pledges',
  updatePosted: { title: 'Update posted', description: 'Your delivery update has been published.' },
  updatePostedAndMailed: (n: number) => ({
    title: 'Update posted',
    description: `Your delivery update has been published. ${n === 1 ? '1 subscriber' : `${n.toLocaleString('en-US')} subscribers`} will get it by e-mail.`,
  }),
  imageUploadedCreate: {
    title: 'Image uploaded',
    description: 'Now add a caption and publish your update',
  },
  imageUploadedEdit: {
    title: 'Image uploaded',
    description: 'New image will be used when you save.',
  },
  // The spec gives only these titles; the descriptions are ours.
  updateModified: { title: 'Update modified', description: 'Your changes have been saved.' },
  pledgeUpdated: { title: 'Pledge updated', description: 'The pledge details have been saved.' },
  pledgeDeleted: { title: 'Pledge deleted', description: 'The pledge has been removed.' },
  updateDeleted: { title: 'Update deleted', description: 'The delivery update has been removed.' },
  invalidAmount: { title: 'Invalid amount', description: EDIT_AMOUNT_MESSAGE },
} as const;
