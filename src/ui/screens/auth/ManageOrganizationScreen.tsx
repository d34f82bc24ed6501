/**
 * Manage Organization (SPEC §2, §6: organization admins only). For now it shows the organizations the user
 * administers and the license status (the features their school licenses grant, from GET /users/me). Members and
 * invitation links are a later piece of issue 6; until then the operator manages them (npm run admin).
 */
import { Link } from 'wouter';
import { Spinner } from '../../components/Spinner';
import { cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { withRedirect } from '../../platform/navigation';
import { useCurrentUser } from './session';

const FEATURE_NAMES: Record<string, string> = {
  AUDIO: 'Audio',
  DECODE: 'Decode Mode',
  GROUP_CODES: 'Class codes',
  LANGUAGES: 'Additional languages',
  LEVELS: 'Additional reading levels',
  USER_UPLOAD: 'Uploads',
};

export function ManageOrganizationScreen() {
  useDocumentTitle('Manage Organization');
  const { data: user, isPending } = useCurrentUser();
  if (isPending) return <Spinner label="Loading…" />;
  const orgs = user?.organizationMemberships.filter((m) => m.role === 'org:admin') ?? [];
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="font-serif text-3xl font-semibold text-primary-900">Manage Organization</h1>
      {!user ? (
        <p className="mt-6 text-ink-muted">
          <Link href={withRedirect('/sign-in', '/organization')} className={linkStyles}>
            Sign In
          </Link>{' '}
          to manage your organization.
        </p>
      ) : orgs.length === 0 ? (
        <p className="mt-6 text-ink-muted">Only organization admins can manage an organization.</p>
      ) : (
        <div className="mt-8 flex flex-col gap-6">
          {orgs.map(({ organization }) => (
            <section key={organization.id} aria-labelledby={`org-${organization.id}`} className={`${cardStyles} p-6 sm:p-8`}>
              <h2 id={`org-${organization.id}`} className="text-lg font-semibold">
                {organization.name}
              </h2>
              <h3 className="mt-5 font-medium">License status</h3>
              {user.features.length ? (
                <ul className="mt-2 list-disc ps-5 text-ink-muted">
                  {user.features.map((f) => (
                    <li key={f}>{FEATURE_NAMES[f] ?? f}</li>
                  ))}
                </ul>
              ) : (
                <p className="mt-2 text-ink-muted">No active school license.</p>
              )}
            </section>
          ))}
        </div>
      )}
    </div>
  );
}
