/** The app root: query client, React Aria's router link handling, the error boundary and the routes. */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect } from 'react';
import { RouterProvider } from 'react-aria-components';
import { Router, useLocation } from 'wouter';
import { ErrorBoundary } from './layout/ErrorBoundary';
import { useStableCallback } from './hooks/useStableCallback';
import { queryClient } from './platform/api';
import { trackPageViews } from './platform/analytics';
import { AppRoutes } from './router';

declare module 'react-aria-components' {
  interface RouterConfig {
    routerOptions: { replace?: boolean };
  }
}

function ScrollToTop() {
  const [path] = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [path]);
  return null;
}

/** Every new address is a page view (SPEC §4 'Visited URL', 'Viewed Catalog', 'Viewed Novel'). */
function PageViews() {
  const [path] = useLocation();
  useEffect(() => {
    trackPageViews(path);
  }, [path]);
  return null;
}

function Shell() {
  const [path, navigate] = useLocation();
  // One function for the page's life: a new one would re-render every React Aria control on each new address
  // (a page turn in the reader writes one).
  const routerNavigate = useStableCallback((to: string, options?: { replace?: boolean }) => navigate(to, options));
  return (
    <RouterProvider navigate={routerNavigate}>
      <ScrollToTop />
      <PageViews />
      <ErrorBoundary resetKey={path}>
        <AppRoutes />
      </ErrorBoundary>
    </RouterProvider>
  );
}

export function App() {
  return (
    <QueryClientProvider client={queryClient}>
      <Router>
        <Shell />
      </Router>
    </QueryClientProvider>
  );
}
