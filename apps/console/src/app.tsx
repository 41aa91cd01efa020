import { useCallback, useEffect, useMemo, useState } from 'preact/hooks';
import { apiClient } from './api/client';
import { liveClient } from './api/live';
import { CallerContext, callerOf, type Caller, type Permissions } from './caller';
import { hrefOf, type AdminSection, type Route } from './lib/route';
import { AdminPage, ADMIN_PAGES } from './pages/admin';
import { CreateShare } from './pages/create-share';
import { SharePage } from './pages/share-page';
import { SharesList } from './pages/shares-list';
import { SignIn } from './pages/sign-in';
import { useRoute } from './routing';
import { forgetToken, saveToken, savedToken } from './session';

/** Signs in with `token`: the permissions answer proves the token good and says who it is. */
const signIn = async (token: string, signOut: () => void): Promise<Caller> => {
  const api = apiClient(token);
  const { permissions } = await api.rest<{ permissions: Permissions }>(
    'GET',
    '/hawser/v1/permissions',
  );
  return callerOf(api, liveClient(token), permissions, signOut);
};

export const App = () => {
  const [caller, setCaller] = useState<Caller | null>(null);
  const [restoring, setRestoring] = useState(() => savedToken() !== null);

  const signOut = useCallback(() => {
    forgetToken();
    setCaller((current) => {
      void current?.live.dispose();
      return null;
    });
  }, []);

  const acceptToken = useCallback(
    async (token: string) => {
      const signedIn = await signIn(token, signOut);
      saveToken(token);
      setCaller(signedIn);
    },
    [signOut],
  );

  useEffect(() => {
    const token = savedToken();
    if (!token) return;
    signIn(token, signOut)
      .then(setCaller, forgetToken)
      .finally(() => setRestoring(false));
  }, [signOut]);

  if (restoring) return <p class="loading">Signing in…</p>;
  if (!caller) return <SignIn onToken={acceptToken} />;
  return (
    <CallerContext.Provider value={caller}>
      <Shell caller={caller} />
    </CallerContext.Provider>
  );
};

const Shell = ({ caller }: { caller: Caller }) => {
  const route = useRoute();
  const { permissions } = caller;
  const adminLinks = useMemo(() => ADMIN_PAGES.filter((page) => caller.can(page.rule)), [caller]);
  useEffect(() => {
    document.title = `${titleOf(route)} · Hawser console`;
    document.getElementById('main')?.focus();
  }, [route]);
  return (
    <>
      <a
        class="skip"
        href="#main"
        onClick={(e) => (e.preventDefault(), document.getElementById('main')?.focus())}
      >
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Hawser</span>
        <nav aria-label="Main">
          <NavLink route={{ page: 'shares' }} current={route} label="Shares" />
          {caller.can('share:create') && (
            <NavLink
              route={{ page: 'create', snapshotId: undefined }}
              current={route}
              label="Create share"
            />
          )}
          {adminLinks.map((page) => (
            <NavLink
              key={page.section}
              route={{ page: 'admin', section: page.section }}
              current={route}
              label={page.title}
            />
          ))}
        </nav>
        <span class="who" aria-label="Signed in as">
          {permissions.user_id} · {permissions.project_id.slice(0, 12)} ·{' '}
          {permissions.is_admin ? 'admin' : permissions.roles.join(', ')}
        </span>
        <button type="button" class="secondary" onClick={caller.signOut}>
          Sign out
        </button>
      </header>
      <main id="main" tabIndex={-1}>
        <Page route={route} />
      </main>
    </>
  );
};

const NavLink = ({ route, current, label }: { route: Route; current: Route; label: string }) => {
  const href = hrefOf(route);
  const active = href === hrefOf(current) || (route.page === 'shares' && current.page === 'share');
  return (
    <a href={href} aria-current={active ? 'page' : undefined}>
      {label}
    </a>
  );
};

const titleOf = (route: Route): string =>
  route.page === 'admin'
    ? (ADMIN_PAGES.find((p) => p.section === route.section)?.title ?? 'Admin')
    : { shares: 'Shares', share: 'Share', create: 'Create share' }[route.page];

const Page = ({ route }: { route: Route }) => {
  switch (route.page) {
    case 'shares':
      return <SharesList />;
    case 'share':
      return <SharePage key={route.id} id={route.id} />;
    case 'create':
      return <CreateShare key={route.snapshotId} snapshotId={route.snapshotId} />;
    case 'admin':
      return <AdminPage section={route.section as AdminSection} />;
  }
};
