/** Placeholder, replaced by the page's real implementation. */
export function NotFoundPage() {
  return <h1>NotFoundPage</h1>;
}
