/**
 * Placeholder created by the public-site work so the header can lazy-load it; the admin feature
 * replaces it with the real header controls (it reads useAdminAuth itself).
 */
export default function AdminHeaderControls() {
  return null;
}
