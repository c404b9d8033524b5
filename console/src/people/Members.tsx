/**
 * The Members page (#/members): who is in the account, with their roles, folders and when they
 * were last active, and the invitations not yet accepted. Everyone sees the list; admins and
 * owners invite, resend and withdraw invitations, change roles and remove people. What the role
 * cannot do stays on the page, disabled, with the reason (access.ts). The server's refusals (the
 * last owner, an owner's role) come back in words where the person acted.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { memberBlock, peopleBlock, scopeBlock } from '../access.js';
import { Dialog } from '../screens/Dialog.js';
import { EmptyState, Skeleton } from '../ui/Feedback.js';
import { Icon } from '../ui/Icon.js';
import type { IconName } from '../ui/icons.js';
import { showToast } from '../ui/toasts.js';
import {
  attempt,
  ROLE_LABELS,
  shownTime,
  sinceText,
  type Folder,
  type Invitation,
  type InvitationSent,
  type Member,
  type MemberChange,
} from './calls.js';
import { AccessFields, accessOf, type AccessChoice } from './AccessFields.js';
import './people.css';

type Loaded<T> = T | null | { problem: string };
const isProblem = <T,>(v: Loaded<T>): v is { problem: string } => typeof v === 'object' && v !== null && 'problem' in v;

const personLabel = (m: { name: string | null; email: string }) => m.name?.trim() || m.email;

export function Members({ me }: { me: Me }) {
  const block = peopleBlock(me);
  const [members, setMembers] = useState<Loaded<Member[]>>(null);
  const [invitations, setInvitations] = useState<Loaded<Invitation[]>>(null);
  const [folders, setFolders] = useState<Folder[]>([]);
  const [inviting, setInviting] = useState(false);
  const [sent, setSent] = useState<InvitationSent | null>(null);
  const [changing, setChanging] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const loadMembers = async () => {
    const answer = await attempt((c) => c.GET('/api/v1/members'));
    setMembers(answer.ok ? answer.data.data : { problem: answer.message });
  };
  const loadInvitations = async () => {
    if (block) return;
    const answer = await attempt((c) => c.GET('/api/v1/invitations'));
    setInvitations(answer.ok ? answer.data.data.filter((i) => i.status === 'pending') : { problem: answer.message });
  };
  useEffect(() => {
    void loadMembers();
    void loadInvitations();
    // Folder names for clients' rows, and the invite dialog's folder picker.
    if (!scopeBlock(me, 'folders.read')) void attempt((c) => c.GET('/api/v1/folders')).then((a) => a.ok && setFolders(a.data.data));
  }, []);

  const folderNames = (ids: readonly string[] | null) =>
    ids === null ? '' : ids.map((id) => folders.find((f) => f.id === id)?.name ?? 'a folder').join(', ') || 'no folders';

  const resend = async (invitation: Invitation, anchor: Element) => {
    const answer = await attempt((c) => c.POST('/api/v1/invitations/{id}/resend', { params: { path: { id: invitation.id } } }));
    if (!answer.ok) return showToast(`Not resent: ${answer.message}`, { tone: 'error', anchor });
    setSent(answer.data);
    showToast(
      answer.data.mailed ? `A new link was mailed to ${invitation.email}` : `A new link for ${invitation.email} is ready to hand over`,
      { tone: 'success', anchor },
    );
    void loadInvitations();
  };
  const revoke = async (invitation: Invitation, anchor: Element) => {
    const answer = await attempt((c) => c.DELETE('/api/v1/invitations/{id}', { params: { path: { id: invitation.id } } }));
    if (!answer.ok) return showToast(`Not withdrawn: ${answer.message}`, { tone: 'error', anchor });
    showToast(`The invitation of ${invitation.email} was withdrawn; its link no longer works`, { tone: 'success' });
    if (sent?.id === invitation.id) setSent(null);
    await loadInvitations();
    heading.current?.focus();
  };

  const pending = Array.isArray(invitations) ? invitations : [];
  return (
    <section class="people" aria-labelledby="members-title">
      <div class="people-head">
        <h1 id="members-title" ref={heading} tabIndex={-1}>
          Members
        </h1>
        <button
          type="button"
          class="primary"
          disabled={block !== null}
          aria-describedby={block ? 'members-blocked' : undefined}
          onClick={() => setInviting(true)}
        >
          <Icon name="user-plus" />
          Invite member
        </button>
      </div>
      {block && (
        <p class="hint" id="members-blocked">
          {block}
        </p>
      )}
      {sent && <SentLink sent={sent} onDone={() => setSent(null)} />}

      {isProblem(members) ? (
        <p class="field-error" role="alert">
          The members could not be loaded. {members.problem}
        </p>
      ) : members === null ? (
        <Skeleton rows={4} label="Loading members…" />
      ) : (
        <div class="table-wrap" role="region" aria-label="Members (scrolls sideways on a narrow screen)" tabIndex={0}>
          <table class="people-table cards-on-phone">
            <caption class="visually-hidden">Members of {me.account.name}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                <th scope="col">Folders</th>
                <th scope="col">Last active</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const self = m.userId === me.user?.id;
                const rowBlock = memberBlock(me, m.role, self);
                return (
                  <tr key={m.userId}>
                    <th scope="row">
                      <span class="person-cell">
                        <strong>
                          {personLabel(m)}
                          {self && <span class="you"> (you)</span>}
                        </strong>
                        {m.name?.trim() && <small>{m.email}</small>}
                      </span>
                    </th>
                    <td data-label="Role">
                      <span class={`badge role-${m.role}`}>{ROLE_LABELS[m.role]}</span>
                      {m.role === 'client' && m.clientAccess && <small> · {m.clientAccess === 'edit' ? 'can edit' : 'view only'}</small>}
                      {m.twoFactor && (
                        <span class="two-factor-mark" title="Two-factor sign-in is on">
                          <Icon name="shield-lock" />
                          <span class="visually-hidden">Two-factor sign-in on</span>
                        </span>
                      )}
                    </td>
                    <td data-label="Folders">{m.role === 'client' ? folderNames(m.folderIds) : <span class="muted">All</span>}</td>
                    <td data-label="Last active">
                      {m.lastSeenAt ? (
                        <time title={shownTime(m.lastSeenAt)}>{sinceText(m.lastSeenAt)}</time>
                      ) : (
                        <span class="muted">Not yet</span>
                      )}
                    </td>
                    <td class="row-actions">
                      <RowAction
                        icon="edit"
                        label="Change role"
                        name={`Change role of ${personLabel(m)}`}
                        block={rowBlock}
                        onClick={() => setChanging(m)}
                      />
                      <RowAction
                        icon="trash"
                        label="Remove"
                        name={`Remove ${personLabel(m)}`}
                        block={rowBlock}
                        onClick={() => setRemoving(m)}
                      />
                      {rowBlock && !block && <small class="row-reason">{rowBlock}</small>}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {!block && (
        <section class="invitations" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Pending invitations</h2>
          {isProblem(invitations) ? (
            <p class="field-error" role="alert">
              The invitations could not be loaded. {invitations.problem}
            </p>
          ) : invitations === null ? (
            <Skeleton rows={2} label="Loading invitations…" />
          ) : pending.length === 0 ? (
            <EmptyState icon="user-plus" title="No invitations waiting">
              <p>Invite someone with “Invite member”: they get a link by mail, valid for 7 days.</p>
            </EmptyState>
          ) : (
            <div class="table-wrap" role="region" aria-label="Pending invitations (scrolls sideways on a narrow screen)" tabIndex={0}>
              <table class="people-table cards-on-phone">
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Invited by</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {pending.map((i) => (
                    <tr key={i.id}>
                      <th scope="row">{i.email}</th>
                      <td data-label="Role">
                        <span class={`badge role-${i.role}`}>{ROLE_LABELS[i.role]}</span>
                        {i.role === 'client' && <small> · {folderNames(i.folderIds)}</small>}
                      </td>
                      <td data-label="Invited by">
                        {i.invitedBy ? personLabel(i.invitedBy) : <span class="muted">Someone since removed</span>}
                      </td>
                      <td data-label="Expires">
                        <time dateTime={i.expiresAt}>{shownTime(i.expiresAt)}</time>
                      </td>
                      <td class="row-actions">
                        <RowAction
                          icon="upload"
                          label="Resend"
                          name={`Resend the invitation of ${i.email}`}
                          onClick={(a) => void resend(i, a)}
                        />
                        <RowAction
                          icon="x"
                          label="Withdraw"
                          name={`Withdraw the invitation of ${i.email}`}
                          onClick={(a) => void revoke(i, a)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      )}

      {inviting && (
        <InviteDialog
          me={me}
          folders={folders}
          onClose={(answer) => {
            setInviting(false);
            if (!answer) return;
            setSent(answer);
            showToast(answer.mailed ? `Invitation mailed to ${answer.email}` : `Invitation made for ${answer.email}; hand over the link`, {
              tone: 'success',
            });
            void loadInvitations();
          }}
        />
      )}
      {changing && (
        <RoleDialog
          me={me}
          member={changing}
          folders={folders}
          onClose={(changed) => {
            setChanging(null);
            if (changed) void loadMembers();
          }}
        />
      )}
      {removing && (
        <RemoveDialog
          member={removing}
          onClose={(removed) => {
            setRemoving(null);
            if (!removed) return;
            showToast(`${personLabel(removing)} was removed from ${me.account.name}`, { tone: 'success' });
            void loadMembers().then(() => heading.current?.focus());
          }}
        />
      )}
    </section>
  );
}

/** A row's action: its words shown, the row named for screen readers; disabled with the reason as its title. */
function RowAction({
  icon,
  label,
  name,
  block = null,
  onClick,
}: {
  icon: IconName;
  label: string;
  /** The accessible name: the label's words first, then which row. */
  name: string;
  block?: string | null;
  onClick(anchor: Element): void;
}) {
  return (
    <button
      type="button"
      class="ghost"
      disabled={block !== null}
      title={block ?? undefined}
      aria-label={name}
      onClick={(e) => onClick(e.currentTarget)}
    >
      <Icon name={icon} />
      <span>{label}</span>
    </button>
  );
}

/** The link of an invitation just made or renewed: mailed or not, it can be copied and handed over. */
function SentLink({ sent, onDone }: { sent: InvitationSent; onDone(): void }) {
  const panel = useRef<HTMLDivElement>(null);
  const [copied, setCopied] = useState('');
  useEffect(() => panel.current?.focus(), [sent.id, sent.link]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(sent.link);
      setCopied('Link copied.');
    } catch {
      setCopied('The browser did not allow copying; select the link and copy it.');
    }
  };
  return (
    <div class="notice sent-link" ref={panel} tabIndex={-1} role="region" aria-labelledby="sent-link-title">
      <h2 id="sent-link-title">Invitation for {sent.email}</h2>
      <p>
        {sent.mailed
          ? 'It was mailed. You can also hand over the link yourself:'
          : 'The mail server did not take the mail: hand over this link yourself.'}{' '}
        It works once, until {shownTime(sent.expiresAt)}.
      </p>
      <code class="secret" id="invitation-link">
        {sent.link}
      </code>
      <div class="actions">
        <button type="button" onClick={() => void copy()}>
          <Icon name="copy" />
          Copy link
        </button>
        <button type="button" class="ghost" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status">{copied}</p>
    </div>
  );
}

function InviteDialog({ me, folders, onClose }: { me: Me; folders: Folder[]; onClose(answer: InvitationSent | null): void }) {
  const [choice, setChoice] = useState<AccessChoice>({ role: 'editor', clientAccess: 'view', folderIds: [] });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (form: FormData) => {
    const email = String(form.get('email') ?? '').trim();
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) return setError('Enter the email address to invite, like name@example.com.');
    const access = accessOf(choice);
    if ('error' in access) return setError(access.error);
    setBusy(true);
    const answer = await attempt((c) => c.POST('/api/v1/invitations', { body: { email, ...access.body } }));
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    onClose(answer.data);
  };
  return (
    <Dialog
      title="Invite a member"
      submitLabel={busy ? 'Inviting…' : 'Send invitation'}
      busy={busy}
      error={error}
      onSubmit={(f) => void submit(f)}
      onCancel={() => onClose(null)}
    >
      <label class="field-label" for="invite-email">
        Email address
      </label>
      <input id="invite-email" name="email" type="email" autoComplete="off" autoFocus maxLength={254} />
      <AccessFields me={me} choice={choice} folders={folders} onChange={setChoice} idPrefix="invite" />
    </Dialog>
  );
}

function RoleDialog({ me, member, folders, onClose }: { me: Me; member: Member; folders: Folder[]; onClose(changed: boolean): void }) {
  const [choice, setChoice] = useState<AccessChoice>({
    role: member.role,
    clientAccess: member.clientAccess ?? 'view',
    folderIds: member.folderIds ?? [],
  });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = personLabel(member);
  const submit = async () => {
    const access = accessOf(choice);
    if ('error' in access) return setError(access.error);
    setBusy(true);
    const body: MemberChange = access.body;
    const answer = await attempt((c) => c.PATCH('/api/v1/members/{userId}', { params: { path: { userId: member.userId } }, body }));
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    showToast(`${label} is now ${ROLE_LABELS[choice.role].toLowerCase()}`, { tone: 'success' });
    onClose(true);
  };
  return (
    <Dialog
      title={`Change role of ${label}`}
      submitLabel={busy ? 'Saving…' : 'Save role'}
      busy={busy}
      error={error}
      onSubmit={() => void submit()}
      onCancel={() => onClose(false)}
    >
      <AccessFields me={me} choice={choice} folders={folders} onChange={setChoice} idPrefix="role" />
      <p class="hint">The change counts from their next request, in every session and key.</p>
    </Dialog>
  );
}

function RemoveDialog({ member, onClose }: { member: Member; onClose(removed: boolean): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const label = personLabel(member);
  const remove = async () => {
    setBusy(true);
    const answer = await attempt((c) => c.DELETE('/api/v1/members/{userId}', { params: { path: { userId: member.userId } } }));
    setBusy(false);
    if (!answer.ok) return setError(answer.message);
    onClose(true);
  };
  return (
    <Dialog
      title={`Remove ${label}?`}
      submitLabel={busy ? 'Removing…' : 'Remove member'}
      danger
      busy={busy}
      error={error}
      onSubmit={() => void remove()}
      onCancel={() => onClose(false)}
    >
      <p>
        They are signed out of this account at once, and the API keys they made here stop working. Their links stay. You can invite them
        again later.
      </p>
    </Dialog>
  );
}
