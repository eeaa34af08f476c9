// Moved to tests/support/ (issue 10): re-exported so tests written against this path still
// compile. Remove this file once nothing imports from it.
export { rawRequest, type RawResponse } from '../../support/http';
export { sleep } from '../../support/net';
export {
  adminPledge,
  adminPledges,
  createPledge,
  everything,
  expectCleanError,
  pledgeBody,
  type AdminPledgeView,
} from '../../support/api';

export { listRoutes, type RouteInfo } from './routes';
