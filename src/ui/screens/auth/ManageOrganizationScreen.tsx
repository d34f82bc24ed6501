/**
 * Manage Organization (SPEC §2, §6: organization admins only). For each organization the user
 * administers: its members (name, email, role; Remove, with a confirmation, for anyone but themselves), the
 * invite form (email and role) that makes an invitation link to copy (there is no mail server, so nothing is
 * emailed), the pending invitations with Copy Link and Cancel, the staff roster (a OneRoster upload with its dry run,
 * and the imported staff: RosterSection.tsx), and the license status (the features their school licenses
 * grant, from GET /users/me). The server enforces the admin rule (server/auth/organizations.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, Form, Input, Label, Radio, RadioGroup, TextField } from 'react-aria-components';
import type { CurrentUser, OrganizationLicense } from '../../../domain/schemas';
import { FREE_TRIAL_LICENSE_KIND } from '../../../domain/wireValues';
import { Spinner } from '../../components/Spinner';
import { buttonStyles, cardStyles } from '../../components/styles';
import { paths } from '../../../domain/routes';
import { AccountPage } from './AccountPage';
import { EmailField, FormMessage, inputStyles } from './AuthField';
import { RosterSection } from './RosterSection';
import { checkEmail, messageOf } from './authForm';
import {
  INVITATION_ROLES,
  invitationLink,
  organizationApi,
  type InvitationRole,
  type OrganizationInvitation,
  type OrganizationMember,
} from './organization';

import { queryKeys } from '../../../api/queryKeys';

const FEATURE_NAMES: Record<string, string> = {
  AUDIO: 'Audio',
  DECODE: 'Decode Mode',
  GROUP_CODES: 'Class codes',
  LANGUAGES: 'Additional languages',
  LEVELS: 'Additional reading levels',
  USER_UPLOAD: 'Uploads',
};

const ROLE_NAMES: Record<string, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
const roleName = (role: string) =>
  role
    .split(',')
    .map((r) => ROLE_NAMES[r.trim()] ?? r.trim())
    .join(', ');

/** How long 'Copied!' shows on a copy button. */
const COPIED_MS = 2000;

/** Copy text to the clipboard; `copied` is true for COPIED_MS after a success, `failed` after a failure. */
function useCopy() {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async (text: string) => {
    clearTimeout(timer.current);
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
    timer.current = setTimeout(() => setState('idle'), COPIED_MS);
  };
  return { state, copy };
}

function CopyLinkButton({ link, label }: { link: string; label: string }) {
  const { state, copy } = useCopy();
  return (
    <>
      <Button onPress={() => void copy(link)} className={`${buttonStyles.secondary} w-fit`}>
        {state === 'copied' ? 'Copied!' : label}
      </Button>
      <span role="status" className="sr-only">
        {state === 'copied' ? 'Invite link copied to clipboard!' : state === 'failed' ? 'Failed to copy link' : ''}
      </span>
      {state === 'failed' ? <span className="text-sm text-danger">Failed to copy link. Select the link and copy it.</span> : null}
    </>
  );
}

function InviteForm({ organizationId, organizationName }: { organizationId: string; organizationName: string }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InvitationRole>('member');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [created, setCreated] = useState<OrganizationInvitation | null>(null);
  const mutation = useMutation({
    mutationFn: () => organizationApi.invite(organizationId, email.trim().toLowerCase(), role),
    onSuccess: (invitation) => {
      setCreated(invitation);
      setEmail('');
      void queryClient.invalidateQueries({ queryKey: queryKeys.organizationInvitations(organizationId) });
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = checkEmail(email);
    setFieldError(problem);
    if (problem) {
      event.currentTarget.querySelector<HTMLInputElement>('input[name="email"]')?.focus();
      return;
    }
    setCreated(null);
    mutation.mutate();
  };
  return (
    <div className="flex flex-col gap-4">
      <Form
        onSubmit={submit}
        validationBehavior="aria"
        validationErrors={fieldError ? { email: fieldError } : {}}
        aria-label={`Invite to ${organizationName}`}
        className="flex max-w-md flex-col gap-4"
      >
        <EmailField value={email} onChange={setEmail} onEdit={() => setFieldError(null)} autoComplete="off" />
        <RadioGroup value={role} onChange={(value) => setRole(value as InvitationRole)} className="flex flex-col gap-2">
          <Label className="text-sm font-medium text-ink">Role</Label>
          <div className="flex gap-5">
            {INVITATION_ROLES.map((r) => (
              <Radio
                key={r}
                value={r}
                className="group flex cursor-pointer items-center gap-2 text-ink data-[focus-visible]:outline data-[focus-visible]:outline-solid data-[focus-visible]:outline-2 data-[focus-visible]:outline-primary-700"
              >
                <span className="grid size-4 place-items-center rounded-full border border-line-strong group-data-[selected]:border-primary-900">
                  <span className="size-2 rounded-full group-data-[selected]:bg-primary-900" />
                </span>
                {ROLE_NAMES[r]}
              </Radio>
            ))}
          </div>
        </RadioGroup>
        <FormMessage kind="error">{mutation.error ? messageOf(mutation.error) : null}</FormMessage>
        <Button type="submit" isPending={mutation.isPending} className={`${buttonStyles.primary} w-fit`}>
          Create Invite Link
        </Button>
      </Form>
      {created ? <CreatedInvitation invitation={created} /> : null}
    </div>
  );
}

function CreatedInvitation({ invitation }: { invitation: OrganizationInvitation }) {
  const link = invitationLink(invitation.id);
  return (
    <div className="flex max-w-xl flex-col gap-3 rounded-xl bg-primary-50 p-4" data-testid="created-invitation">
      <p role="status" className="text-sm font-medium text-primary-900">
        Invitation created for {invitation.email}. We sent it to them by email; you can also copy the link and send it yourself.
      </p>
      <TextField value={link} isReadOnly className="flex flex-col gap-1.5">
        <Label className="text-sm font-medium text-ink">Invite link</Label>
        <Input className={inputStyles} onFocus={(e) => e.currentTarget.select()} />
      </TextField>
      <div className="flex flex-wrap items-center gap-3">
        <CopyLinkButton link={link} label="Copy Invite Link" />
      </div>
    </div>
  );
}

function PendingInvitations({ organizationId }: { organizationId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: queryKeys.organizationInvitations(organizationId), queryFn: () => organizationApi.listInvitations(organizationId) });
  const cancel = useMutation({
    mutationFn: (invitationId: string) => organizationApi.cancelInvitation(invitationId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizationInvitations(organizationId) }),
  });
  if (query.isPending) return <Spinner label="Loading invitations…" />;
  if (query.isError) return <FormMessage kind="error">{messageOf(query.error)}</FormMessage>;
  const now = Date.now();
  const pending = query.data.filter((i) => i.status === 'pending' && i.expiresAt.getTime() > now);
  return (
    <div className="flex flex-col gap-3">
      <FormMessage kind="error">{cancel.error ? messageOf(cancel.error) : null}</FormMessage>
      {pending.length === 0 ? (
        <p className="text-ink-muted">No pending invitations.</p>
      ) : (
        <ul aria-label="Pending invitations" className="flex flex-col divide-y divide-line">
          {pending.map((invitation) => (
            <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div>
                <p className="font-medium text-ink">{invitation.email}</p>
                <p className="text-sm text-ink-muted">
                  {roleName(invitation.role)} · expires {invitation.expiresAt.toLocaleDateString()}
                </p>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <CopyLinkButton link={invitationLink(invitation.id)} label="Copy Link" />
                <Button
                  onPress={() => cancel.mutate(invitation.id)}
                  isDisabled={cancel.isPending && cancel.variables === invitation.id}
                  aria-label={`Cancel invitation for ${invitation.email}`}
                  className={buttonStyles.ghost}
                >
                  Cancel
                </Button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function MemberRow({ member, isSelf, organizationId }: { member: OrganizationMember; isSelf: boolean; organizationId: string }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation({
    mutationFn: () => organizationApi.removeMember(organizationId, member.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.organizationMembers(organizationId) }),
  });
  return (
    <tr className="border-t border-line">
      <td className="py-2.5 pe-3 font-medium text-ink wrap-anywhere">
        {member.user.name}
        {isSelf ? <span className="text-ink-muted"> (you)</span> : null}
      </td>
      <td className="py-2.5 pe-3 text-ink-muted wrap-anywhere">{member.user.email}</td>
      <td className="py-2.5 pe-3">{roleName(member.role)}</td>
      <td className="py-2.5 text-end">
        {isSelf ? null : confirming ? (
          <span className="inline-flex flex-wrap items-center justify-end gap-2">
            <Button onPress={() => remove.mutate()} isPending={remove.isPending} className={buttonStyles.secondary}>
              Confirm Remove
            </Button>
            <Button onPress={() => setConfirming(false)} className={buttonStyles.ghost}>
              Keep
            </Button>
          </span>
        ) : (
          <Button onPress={() => setConfirming(true)} aria-label={`Remove ${member.user.name}`} className={buttonStyles.ghost}>
            Remove
          </Button>
        )}
        {remove.error ? (
          <p role="alert" className="mt-1 text-sm text-danger">
            {messageOf(remove.error)}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

function Members({ organizationId, user }: { organizationId: string; user: CurrentUser }) {
  const query = useQuery({ queryKey: queryKeys.organizationMembers(organizationId), queryFn: () => organizationApi.listMembers(organizationId) });
  if (query.isPending) return <Spinner label="Loading members…" />;
  if (query.isError) return <FormMessage kind="error">{messageOf(query.error)}</FormMessage>;
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-start text-sm">
        <caption className="sr-only">Members</caption>
        <thead>
          <tr className="text-start text-ink-muted">
            <th scope="col" className="py-2 pe-3 text-start font-medium">
              Name
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-medium">
              Email
            </th>
            <th scope="col" className="py-2 pe-3 text-start font-medium">
              Role
            </th>
            <th scope="col" className="py-2 text-end font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {query.data.map((member) => (
            <MemberRow key={member.id} member={member} isSelf={member.userId === user.id} organizationId={organizationId} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * 'Valid through 31 July 2027', 'No expiry' or 'Expired on …' (the license's last valid day, UTC). A free trial
 * ('ar-free-trial') says so: 'Free trial, valid through …' or 'Free trial, ended on …'.
 */
export function licenseTerm(license: OrganizationLicense): string {
  const trial = license.kind === FREE_TRIAL_LICENSE_KIND;
  if (license.expiresOn === null) return trial ? 'Free trial, no expiry' : 'No expiry';
  const day = new Date(`${license.expiresOn}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
  if (trial) return license.valid ? `Free trial, valid through ${day}` : `Free trial, ended on ${day}`;
  return license.valid ? `Valid through ${day}` : `Expired on ${day}`;
}

function LicenseStatus({ license }: { license: OrganizationLicense | null }) {
  if (!license) return <p className="mt-2 text-ink-muted">No school license.</p>;
  return (
    <>
      <p className={`mt-2 font-medium ${license.valid ? 'text-primary-800' : 'text-red-800'}`}>{licenseTerm(license)}</p>
      <ul aria-label="Licensed features" className="mt-2 list-disc ps-5 text-ink-muted">
        {license.features.map((f) => (
          <li key={f}>{FEATURE_NAMES[f] ?? f}</li>
        ))}
      </ul>
      {!license.valid && <p className="mt-2 text-ink-muted">Members no longer get these features. Ask us to renew the license.</p>}
    </>
  );
}

function OrganizationSection({
  organization,
  license,
  user,
}: {
  organization: { id: string; name: string };
  license: OrganizationLicense | null;
  user: CurrentUser;
}) {
  const id = `org-${organization.id}`;
  return (
    <section aria-labelledby={id} className={`${cardStyles} flex flex-col gap-6 p-6 sm:p-8`}>
      <h2 id={id} className="text-lg font-semibold">
        {organization.name}
      </h2>
      <div>
        <h3 className="font-medium">Members</h3>
        <div className="mt-2">
          <Members organizationId={organization.id} user={user} />
        </div>
      </div>
      <div>
        <h3 className="font-medium">Invite a member</h3>
        <p className="mt-1 text-sm text-ink-muted">They open the link, sign in or sign up with this email, and accept.</p>
        <div className="mt-3">
          <InviteForm organizationId={organization.id} organizationName={organization.name} />
        </div>
      </div>
      <div>
        <h3 className="font-medium">Pending invitations</h3>
        <div className="mt-2">
          <PendingInvitations organizationId={organization.id} />
        </div>
      </div>
      <RosterSection organizationId={organization.id} />
      <div>
        <h3 className="font-medium">License status</h3>
        <LicenseStatus license={license} />
      </div>
    </section>
  );
}

/** The organizations the user administers, each with its members, invitations and license status. */
function AdministeredOrganizations({ user }: { user: CurrentUser }) {
  const orgs = user.organizationMemberships.filter((m) => m.role === 'org:admin');
  if (orgs.length === 0) return <p className="mt-6 text-ink-muted">Only organization admins can manage an organization.</p>;
  return (
    <div className="mt-8 flex flex-col gap-6">
      {orgs.map(({ organization, license }) => (
        <OrganizationSection key={organization.id} organization={organization} license={license} user={user} />
      ))}
    </div>
  );
}

export function ManageOrganizationScreen() {
  return (
    <AccountPage title="Manage Organization" path={paths.organization} signedOutText="to manage your organization." width="max-w-3xl">
      {(user) => <AdministeredOrganizations user={user} />}
    </AccountPage>
  );
}
