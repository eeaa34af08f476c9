import { ArrowLeft, Lock } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../components/ui/button';
import { Card } from '../components/ui/card';
import { AdminDashboard } from '../features/admin/components/admin-dashboard';
import { LoginDialog } from '../features/admin/components/login-dialog';
import { useAdminAuth } from '../features/admin-auth/context';
import { Link } from '../lib/navigation';

/** /admin: gated on the client by the session flag; the server checks every call. */
export function AdminPage() {
  const { isAuthenticated } = useAdminAuth();
  return isAuthenticated ? <AdminDashboard /> : <AdminAccessRequired />;
}

function AdminAccessRequired() {
  // The login dialog opens by itself each time this screen appears.
  const [loginOpen, setLoginOpen] = useState(true);
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <Card className="p-8 text-center">
        <span className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-brand-50 text-brand-700">
          <Lock className="h-7 w-7" aria-hidden="true" />
        </span>
        <h1 className="mt-4 text-2xl font-bold text-ink-900">Admin Access Required</h1>
        <p className="mt-2 text-ink-700">
          Log in with the admin password to manage pledges, delivery updates and campaign progress.
        </p>
        <div className="mt-6 flex flex-col justify-center gap-2 sm:flex-row">
          <Button onClick={() => setLoginOpen(true)}>Login as Admin</Button>
          <Button variant="outline" asChild>
            <Link to="/">
              <ArrowLeft className="h-4 w-4" aria-hidden="true" />
              Back to Home
            </Link>
          </Button>
        </div>
      </Card>
      <LoginDialog open={loginOpen} onOpenChange={setLoginOpen} />
    </div>
  );
}
