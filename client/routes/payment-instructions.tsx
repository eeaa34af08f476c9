/** Placeholder, replaced by the page's real implementation. */
export function PaymentInstructionsPage() {
  return <h1>PaymentInstructionsPage</h1>;
}
