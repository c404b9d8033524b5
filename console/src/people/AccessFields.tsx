/**
 * The role picker of the invite and change-role dialogs: each role the signed-in person may give,
 * with what it lets someone do; for a client, edit or view access and the folders it works in.
 */
import type { Me } from '../api/client.js';
import { assignableRoles } from '../access.js';
import { ROLE_HINTS, ROLE_LABELS, type Folder, type MemberChange } from './calls.js';

type Role = Me['role'];
export interface AccessChoice {
  role: Role;
  clientAccess: 'edit' | 'view';
  folderIds: string[];
}

/** The request's role fields for a choice, or why it cannot be sent. */
export function accessOf(choice: AccessChoice): { body: Required<Pick<MemberChange, 'role'>> & MemberChange } | { error: string } {
  if (choice.role !== 'client') return { body: { role: choice.role, clientAccess: null, folderIds: null } };
  if (choice.folderIds.length === 0) return { error: 'Choose at least one folder the client works in.' };
  return { body: { role: 'client', clientAccess: choice.clientAccess, folderIds: choice.folderIds } };
}

export function AccessFields({
  me,
  choice,
  folders,
  onChange,
  idPrefix,
}: {
  me: Me;
  choice: AccessChoice;
  folders: Folder[];
  onChange(choice: AccessChoice): void;
  idPrefix: string;
}) {
  const roles = assignableRoles(me);
  // A member's current role stays listed even when the picker would not offer it (an owner seen by an admin is not editable anyway).
  if (!roles.includes(choice.role)) roles.unshift(choice.role);
  const toggleFolder = (id: string, on: boolean) =>
    onChange({ ...choice, folderIds: on ? [...choice.folderIds, id] : choice.folderIds.filter((f) => f !== id) });
  return (
    <>
      <fieldset class="group role-choices">
        <legend>Role</legend>
        {roles.map((role) => (
          <div class="check role-choice" key={role}>
            <input
              id={`${idPrefix}-role-${role}`}
              type="radio"
              name="role"
              value={role}
              checked={choice.role === role}
              onChange={() => onChange({ ...choice, role })}
              aria-describedby={`${idPrefix}-role-${role}-hint`}
            />
            <label for={`${idPrefix}-role-${role}`}>
              <strong>{ROLE_LABELS[role]}</strong>
              <small id={`${idPrefix}-role-${role}-hint`}>{ROLE_HINTS[role]}</small>
            </label>
          </div>
        ))}
      </fieldset>
      {choice.role === 'client' && (
        <>
          <fieldset class="group">
            <legend>Client access</legend>
            {(['edit', 'view'] as const).map((access) => (
              <div class="check" key={access}>
                <input
                  id={`${idPrefix}-access-${access}`}
                  type="radio"
                  name="clientAccess"
                  value={access}
                  checked={choice.clientAccess === access}
                  onChange={() => onChange({ ...choice, clientAccess: access })}
                />
                <label for={`${idPrefix}-access-${access}`}>{access === 'edit' ? 'Can edit links in its folders' : 'Can only view'}</label>
              </div>
            ))}
          </fieldset>
          <fieldset class="group folder-picker">
            <legend>Folders</legend>
            {folders.length === 0 ? (
              <p class="hint">This account has no folders yet: make one on the Links page, then give it to the client.</p>
            ) : (
              folders.map((f) => (
                <div class="check" key={f.id}>
                  <input
                    id={`${idPrefix}-folder-${f.id}`}
                    type="checkbox"
                    checked={choice.folderIds.includes(f.id)}
                    onChange={(e) => toggleFolder(f.id, e.currentTarget.checked)}
                  />
                  <label for={`${idPrefix}-folder-${f.id}`}>{f.name}</label>
                </div>
              ))
            )}
          </fieldset>
        </>
      )}
    </>
  );
}
