/** The pages outside the shell, by their path, and the one-time token their links carry (`#/join?token=…`). */
export type DoorName = 'setup' | 'join' | 'reset-password' | 'forgot-password';

const DOORS: readonly DoorName[] = ['setup', 'join', 'reset-password', 'forgot-password'];

export function doorOf(route: string): { door: DoorName; token: string } | null {
  const [path = '', query = ''] = route.split('?');
  const door = DOORS.find((d) => path === `/${d}`);
  if (!door) return null;
  return { door, token: new URLSearchParams(query).get('token')?.trim() ?? '' };
}
