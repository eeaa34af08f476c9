import type { ReactNode } from 'react';

/** Placeholder: the public-site helper replaces this with the header, main and footer. */
export function AppLayout({ children }: { children: ReactNode }) {
  return <main id="main">{children}</main>;
}
