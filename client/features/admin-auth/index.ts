// The admin-auth feature's public face: other features and the app shell import from here only.
export { AdminAuthProvider, useAdminAuth } from './context';
