/**
 * Single sign-on on the sign-in page: "Continue with Google" and "Continue with Microsoft" where the
 * deployment has them, and "Sign in with your school", which opens a form with one 'School email' field. The
 * server routes the address by its domain to the school's provider (POST /sso/sign-in) and the page navigates
 * there in full, never in a popup. A round trip that failed comes back as `?error=<code>`, which AuthScreen shows at
 * the top of the card in the spec's error style (src/domain/ssoMessages.ts says what each code tells the user).
 */
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Button, Form } from 'react-aria-components';
import { ApiError } from '../../../api/errors';
import { SSO_LABELS, type PlatformProvider } from '../../../domain/ssoMessages';
import { buttonStyles } from '../../components/styles';
import { api } from '../../platform/api';
import { EmailField, FormMessage } from './AuthField';
import { checkEmail, messageOf } from './authForm';

/** How long the list of providers is reused: it changes only with the deployment's settings. @default 5 minutes */
export const SSO_PROVIDERS_STALE_MS = 5 * 60_000;

const providersQuery = {
  queryKey: ['sso', 'providers'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.getSsoProviders({ signal }),
  staleTime: SSO_PROVIDERS_STALE_MS,
  retry: false,
};

/** Leave for the provider: a full-page navigation. */
function goTo(url: string): void {
  window.location.assign(url);
}

const PROVIDER_LABELS: Record<PlatformProvider, string> = { google: SSO_LABELS.google, microsoft: SSO_LABELS.microsoft };

export function SsoSignIn({ redirectUrl }: { redirectUrl: string }) {
  const providers = useQuery(providersQuery);
  const [schoolOpen, setSchoolOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState<PlatformProvider | 'school' | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const target = redirectUrl ? { redirectUrl } : {};

  const start = async (which: PlatformProvider | 'school', body: Parameters<typeof api.startSso>[0]) => {
    setPending(which);
    setFormError(null);
    try {
      const { url } = await api.startSso(body);
      goTo(url);
    } catch (error) {
      setPending(null);
      if (which === 'school' && error instanceof ApiError && error.code === 'sso_not_configured') {
        setEmailError(error.message);
        (formRef.current?.elements.namedItem('schoolEmail') as HTMLElement | null)?.focus();
      } else setFormError(messageOf(error));
    }
  };

  const submitSchool = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (pending) return;
    const problem = checkEmail(email);
    setEmailError(problem);
    if (problem) return;
    void start('school', { email: email.trim(), ...target });
  };

  const platform = (['google', 'microsoft'] as const).filter((p) => providers.data?.[p]);
  return (
    <section aria-label="Other ways to sign in" className="mt-6 flex flex-col gap-3">
      <div aria-hidden="true" className="flex items-center gap-3 text-sm text-ink-muted">
        <span className="h-px flex-1 bg-line" />
        or
        <span className="h-px flex-1 bg-line" />
      </div>
      <FormMessage kind="error">{formError}</FormMessage>
      {platform.map((provider) => (
        <Button
          key={provider}
          onPress={() => void start(provider, { provider, ...target })}
          isPending={pending === provider}
          className={`${buttonStyles.secondary} w-full py-3 text-base`}
        >
          {PROVIDER_LABELS[provider]}
        </Button>
      ))}
      {schoolOpen ? (
        <Form
          ref={formRef}
          onSubmit={submitSchool}
          validationBehavior="aria"
          validationErrors={emailError ? { schoolEmail: emailError } : {}}
          aria-label={SSO_LABELS.school}
          className="flex flex-col gap-3 rounded-xl border border-line p-4"
        >
          <EmailField label={SSO_LABELS.schoolEmail} name="schoolEmail" value={email} onChange={setEmail} onEdit={() => setEmailError(null)} autoFocus />
          <Button type="submit" isPending={pending === 'school'} className={`${buttonStyles.primary} w-full py-3 text-base`}>
            {SSO_LABELS.continue}
          </Button>
        </Form>
      ) : (
        <Button onPress={() => setSchoolOpen(true)} className={`${buttonStyles.secondary} w-full py-3 text-base`}>
          {SSO_LABELS.school}
        </Button>
      )}
    </section>
  );
}
