/** What the console asks of a new password before sending it; the server has the last word. */
export const MIN_PASSWORD_LENGTH = 10;

export const NEW_PASSWORD_HINT = `At least ${MIN_PASSWORD_LENGTH} characters. A few unrelated words make a strong one that is easy to type.`;

export function newPasswordProblem(password: string): string | null {
  if (!password) return 'Choose a password.';
  if ([...password].length < MIN_PASSWORD_LENGTH)
    return `Use at least ${MIN_PASSWORD_LENGTH} characters; this one has ${[...password].length}.`;
  return null;
}
