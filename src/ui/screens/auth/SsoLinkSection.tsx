/**
 * Manage Account's "Sign-in with your school": link the school's provider (the one the account's
 * address routes to), or Google or Microsoft where the deployment has them, to this account, so the next sign-in
 * needs no password. This is where a user whose school sign-in was refused with `account_not_linked` goes after
 * signing in with the password. The link is a full-page round trip to the provider (POST /sso/link); it comes back
 * here with `?linked=<provider>` or `?error=<code>`.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useSearch } from 'wouter';
import { SSO_LABELS, ssoErrorMessage, type PlatformProvider } from '../../../domain/ssoMessages';
import { buttonStyles } from '../../components/styles';
import { api } from '../../platform/api';
import { FormMessage } from './AuthField';
import { messageOf } from './authForm';

/** What Manage Account says once a provider is linked. */
export const LINKED_MESSAGE = 'Your account is linked. Next time, sign in with it instead of your password.';

const LINK_LABELS: Record<PlatformProvider, string> = { google: 'Link Google account', microsoft: 'Link Microsoft account' };

export function SsoLinkSection({ render }: { render: (children: React.ReactNode) => React.ReactNode }) {
  const providers = useQuery({ queryKey: ['sso', 'providers', 'account'], queryFn: ({ signal }) => api.getSsoProviders({ signal }), retry: false });
  const params = new URLSearchParams(useSearch());
  const returned = params.get('error');
  const [error, setError] = useState<string | null>(returned ? ssoErrorMessage(returned) : null);
  const [pending, setPending] = useState<string | null>(null);
  const linked = params.get('linked') ? LINKED_MESSAGE : null;
  const data = providers.data;
  const platform = (['google', 'microsoft'] as const).filter((p) => data?.[p]);
  if (!data?.school && !platform.length && !error && !linked) return null;

  const link = async (key: string, provider?: PlatformProvider) => {
    setPending(key);
    setError(null);
    try {
      const { url } = await api.linkSso(provider ? { provider } : {});
      window.location.assign(url);
    } catch (failure) {
      setPending(null);
      setError(messageOf(failure));
    }
  };

  return render(
    <div className="flex max-w-md flex-col gap-4">
      <FormMessage kind="error">{error}</FormMessage>
      <FormMessage kind="success">{linked}</FormMessage>
      {data?.school?.linked ? <p className="text-ink-muted">{`Your account signs in with ${data.school.name}'s sign-in.`}</p> : null}
      {data?.school && !data.school.linked ? (
        <>
          <p className="text-ink-muted">{`${data.school.name} has its own sign-in. Link it to this account to sign in without a password.`}</p>
          <Button onPress={() => void link('school')} isPending={pending === 'school'} className={`${buttonStyles.primary} w-fit`}>
            {SSO_LABELS.link}
          </Button>
        </>
      ) : null}
      {platform.map((provider) => (
        <Button key={provider} onPress={() => void link(provider, provider)} isPending={pending === provider} className={`${buttonStyles.secondary} w-fit`}>
          {LINK_LABELS[provider]}
        </Button>
      ))}
    </div>,
  );
}
