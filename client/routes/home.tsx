/** Placeholder, replaced by the page's real implementation. */
export function HomePage() {
  return <h1>HomePage</h1>;
}
