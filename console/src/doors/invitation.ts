/** An invitation in words. */
import type { Invitation } from '../api/people.js';

const ROLE_WORDS: Record<string, string> = {
  owner: 'an owner',
  admin: 'an admin',
  editor: 'an editor',
  viewer: 'a viewer',
  client: 'a client',
};

/** "Ana invited you to Aroma Lisboa as an editor". */
export function invitationSentence(invitation: Pick<Invitation, 'inviterName' | 'accountName' | 'role'>): string {
  const who = invitation.inviterName ? `${invitation.inviterName} invited you` : 'You are invited';
  return `${who} to ${invitation.accountName} as ${ROLE_WORDS[invitation.role] ?? invitation.role}`;
}
