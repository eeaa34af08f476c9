// The pledges feature's public face: other features and the app shell import from here only.
export { CONFIRM_TOASTS, useConfirmPledge } from './api';
export { PledgeDialogProvider, PledgeNowButton } from './components/pledge-dialog-provider';
