/**
 * A person's session can end while the console is open (signed out in another tab, ended from
 * another device, expired, their membership removed). The first answer that says so sends the
 * console back to sign-in with a word about why, instead of every screen showing its own error.
 */
const listeners = new Set<() => void>();

export function onSessionEnded(listener: () => void): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Called with each answer made with the session cookie: a 401 `unauthorized` means the session is
 * gone (other 401 codes, a wrong current password say, are answers to the request itself).
 */
export function noticeSessionAnswer(status: number, code: unknown): void {
  if (status !== 401 || (code !== undefined && code !== 'unauthorized')) return;
  for (const listener of [...listeners]) listener();
}
