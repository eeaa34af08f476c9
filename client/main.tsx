import './lib/zod-csp';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { preloadAdminChunks } from './admin-chunks';
import { createRoot } from 'react-dom/client';
import { Toaster } from './components/ui/toaster';
import { TooltipProvider } from './components/ui/tooltip';
import { AdminAuthProvider } from './features/admin-auth/context';
import { readInitialData, seedQueryCache } from './lib/initial-data';
import { createQueryClient } from './lib/query-client';
import { AppRouter } from './router';
import './styles.css';

const initial = readInitialData();
const queryClient = createQueryClient();
seedQueryCache(queryClient, initial);
await preloadAdminChunks(window.location.pathname, initial?.isAuthenticated ?? false);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AdminAuthProvider initialAuthenticated={initial?.isAuthenticated}>
        <TooltipProvider>
          <AppRouter />
          <Toaster />
        </TooltipProvider>
      </AdminAuthProvider>
    </QueryClientProvider>
  </StrictMode>,
);
