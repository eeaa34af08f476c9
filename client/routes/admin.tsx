/** Placeholder, replaced by the page's real implementation. */
export function AdminPage() {
  return <h1>AdminPage</h1>;
}
