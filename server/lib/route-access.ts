/**
 * Who may call a route, declared in its options (`config: { access }`) and enforced by the auth
 * plugin: deny by default, so a route with no access is refused.
 */
export type RouteAccess = 'public' | 'admin' | 'signed';
