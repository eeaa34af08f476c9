// The campaign feature's public face: other features and the app shell import from here only.
export { useCampaign } from './use-campaign';
