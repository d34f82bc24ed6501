/**
 * /debug (SPEC §2): API reachability, build info, analytics (the first-party endpoint and the events sent this
 * session; the third-party integration flags), runtime environment.
 */
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { API_PREFIX } from '../../../api';
import { buttonStyles, cardStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { queries } from '../../platform/api';
import { analyticsFlags, buildInfo, runtimeEnvironment } from '../../platform/env';
import { ANALYTICS_ENDPOINT, useAnalyticsSent } from '../../platform/analytics';

function Badge({ tone, children }: { tone: 'good' | 'bad' | 'neutral'; children: ReactNode }) {
  const colors = {
    good: 'bg-primary-100 text-primary-900',
    bad: 'bg-red-100 text-red-900',
    neutral: 'bg-paper text-ink-muted border border-line',
  }[tone];
  return <span className={`inline-flex rounded-full px-2.5 py-0.5 text-sm font-semibold ${colors}`}>{children}</span>;
}

function Section({ title, children, footer }: { title: string; children: ReactNode; footer?: ReactNode }) {
  return (
    <section aria-labelledby={`debug-${title}`} className={`${cardStyles} p-6`}>
      <h2 id={`debug-${title}`} className="text-xl font-semibold">
        {title}
      </h2>
      <dl className="mt-4 grid grid-cols-[minmax(8rem,auto)_1fr] gap-x-6 gap-y-3 text-sm">{children}</dl>
      {footer && <div className="mt-5">{footer}</div>}
    </section>
  );
}

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <>
      <dt className="font-medium text-ink-muted">{term}</dt>
      <dd className="min-w-0 break-words text-ink">{children}</dd>
    </>
  );
}

export function DebugScreen() {
  useDocumentTitle('Status');
  const ping = useQuery({ ...queries.ping(), staleTime: 0 });
  const flags = analyticsFlags();
  const sent = useAnalyticsSent();

  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-semibold tracking-tight">Status</h1>
      <p className="mt-2 text-ink-muted">What this copy of Lectern knows about itself.</p>

      <div className="mt-8 grid gap-6">
        <Section
          title="API"
          footer={
            <button type="button" className={`${buttonStyles.secondary} py-1.5`} onClick={() => void ping.refetch()} disabled={ping.isFetching}>
              Check again
            </button>
          }
        >
          <Row term="Reachability">
            <span aria-live="polite">
              {ping.isPending && <Badge tone="neutral">Checking…</Badge>}
              {ping.isSuccess && <Badge tone="good">Reachable</Badge>}
              {ping.isError && <Badge tone="bad">Unreachable</Badge>}
            </span>
          </Row>
          <Row term="Base URL">
            <code>{API_PREFIX}</code>
          </Row>
          {ping.isSuccess && <Row term="Server time">{ping.data.time}</Row>}
          {ping.isError && <Row term="Error">{ping.error.message}</Row>}
        </Section>

        <Section title="Build">
          <Row term="Version">{buildInfo.version}</Row>
          <Row term="Commit">
            <code>{buildInfo.commit}</code>
          </Row>
          <Row term="Built at">{buildInfo.builtAt}</Row>
        </Section>

        <Section title="Analytics">
          <Row term="First-party analytics">
            <Badge tone="good">Configured</Badge> <code className="ms-2 text-xs text-ink-muted">POST {ANALYTICS_ENDPOINT}</code>
          </Row>
          <Row term="Events sent this session">
            <span aria-live="polite">{sent}</span>
          </Row>
          {flags.map((flag) => (
            <Row key={flag.key} term={flag.name}>
              {flag.configured ? <Badge tone="good">Configured</Badge> : <Badge tone="neutral">Not configured</Badge>}{' '}
              <code className="ms-2 text-xs text-ink-muted">{flag.key}</code>
            </Row>
          ))}
        </Section>

        <Section title="Environment">
          <Row term="Runtime environment">{runtimeEnvironment}</Row>
        </Section>
      </div>
    </div>
  );
}
