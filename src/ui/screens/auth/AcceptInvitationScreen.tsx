/**
 * /accept-invitation/{id}: the page an organization admin's invite link opens (Manage Organization).
 * Signed out, it asks the visitor to sign in or sign up with the invited email, with links that come back here
 * (redirectUrl). Signed in, it shows the organization and its role, and 'Accept Invitation' makes the user a
 * member (better-auth's accept-invitation), after which they hold the organization's license features. The server
 * refuses an invitation for another email (403), and one that was cancelled, accepted or has expired (404).
 *
 * Verified invitations: until the invitee's address is confirmed (`emailVerified`), the page asks them
 * to open the confirmation link the server mailed when they signed up or signed in through the invitation, and
 * offers a new one. That link verifies the address and comes back here; a link that failed comes back with
 * `?error=…` (better-auth's verify-email).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Button } from 'react-aria-components';
import { Link, useSearch } from 'wouter';
import { ApiError } from '../../../api/errors';
import { Spinner } from '../../components/Spinner';
import { buttonStyles, cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { acceptInvitationPath, paths, signInPath, signUpPath } from '../../../domain/routes';
import { FormMessage } from './AuthField';
import { messageOf } from './authForm';
import { organizationApi } from './organization';
import { useCurrentUser } from './session';
import { queryKeys } from '../../../api/queryKeys';

function Card({ children }: { children: ReactNode }) {
  return <div className={`${cardStyles} mt-8 flex flex-col gap-4 p-6 sm:p-8`}>{children}</div>;
}

/** Shown when a confirmation link came back with an error (better-auth adds `?error=CODE` to the callback). */
export const CONFIRMATION_LINK_FAILED = 'This confirmation link is no longer valid: it has expired or was altered. Send a new one below.';

/** The invitee's address is not proven yet: the way to prove it, and a new link on request. */
function ConfirmAddress({ invitationId, email }: { invitationId: string; email: string }) {
  const linkFailed = new URLSearchParams(useSearch()).has('error');
  const resend = useMutation({ mutationFn: () => organizationApi.sendConfirmationEmail(invitationId) });
  return (
    <>
      <FormMessage kind="error">{linkFailed && !resend.isSuccess ? CONFIRMATION_LINK_FAILED : null}</FormMessage>
      <p className="text-ink">
        To accept, confirm that <strong>{email}</strong> is your address: open the link we emailed you when you signed up or signed in
        through this invitation.
      </p>
      <FormMessage kind="success">{resend.isSuccess ? `We sent a new link to ${resend.data.email}.` : null}</FormMessage>
      <FormMessage kind="error">{resend.error ? messageOf(resend.error) : null}</FormMessage>
      <Button onPress={() => resend.mutate()} isPending={resend.isPending} className={`${buttonStyles.secondary} w-fit`}>
        Send a new link
      </Button>
    </>
  );
}

function SignedIn({ invitationId, emailVerified }: { invitationId: string; emailVerified: boolean }) {
  const queryClient = useQueryClient();
  const invitation = useQuery({ queryKey: queryKeys.invitation(invitationId), queryFn: () => organizationApi.getInvitation(invitationId), retry: false });
  const accept = useMutation({
    mutationFn: () => organizationApi.acceptInvitation(invitationId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.currentUser() }),
  });
  if (invitation.isPending) return <Spinner label="Loading invitation…" />;
  if (invitation.isError) {
    const error = invitation.error;
    return (
      <Card>
        <FormMessage kind="error">{messageOf(error)}</FormMessage>
        {error instanceof ApiError && error.code === 'not_invitation_recipient' ? (
          <p className="text-ink-muted">Sign out from the account menu, then sign in or sign up with the email address the invitation was made for.</p>
        ) : (
          <p className="text-ink-muted">Ask your organization's admin for a new invite link.</p>
        )}
      </Card>
    );
  }
  const { organizationName, role, email } = invitation.data;
  if (accept.isSuccess) {
    return (
      <Card>
        <p role="status" className="text-lg text-ink">
          You have joined <strong>{organizationName}</strong>.
        </p>
        <Link href={paths.catalog} className={`${buttonStyles.primary} w-fit`}>
          Go to the Library
        </Link>
      </Card>
    );
  }
  return (
    <Card>
      <p className="text-lg text-ink">
        You have been invited to join <strong>{organizationName}</strong> as {role === 'admin' ? 'an admin' : 'a member'}.
      </p>
      <p className="text-sm text-ink-muted">Invitation for {email}.</p>
      {emailVerified ? (
        <>
          <FormMessage kind="error">{accept.error ? messageOf(accept.error) : null}</FormMessage>
          <Button onPress={() => accept.mutate()} isPending={accept.isPending} className={`${buttonStyles.primary} w-fit`}>
            Accept Invitation
          </Button>
        </>
      ) : (
        <ConfirmAddress invitationId={invitationId} email={email} />
      )}
    </Card>
  );
}

export function AcceptInvitationScreen({ invitationId }: { invitationId: string }) {
  useDocumentTitle('Accept Invitation');
  const { data: user, isPending } = useCurrentUser();
  const here = acceptInvitationPath(invitationId);
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="font-serif text-3xl font-semibold text-primary-900">Accept Invitation</h1>
      {isPending ? (
        <Spinner label="Loading…" />
      ) : user ? (
        <SignedIn invitationId={invitationId} emailVerified={user.emailVerified} />
      ) : (
        <Card>
          <p className="text-lg text-ink">You have been invited to join an organization.</p>
          <p className="text-ink-muted">
            <Link href={signInPath(here)} className={linkStyles}>
              Sign In
            </Link>{' '}
            or{' '}
            <Link href={signUpPath(here)} className={linkStyles}>
              Sign Up
            </Link>{' '}
            with the email address the invitation was made for, then accept it here.
          </p>
        </Card>
      )}
    </div>
  );
}

export default AcceptInvitationScreen;
