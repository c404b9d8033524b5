import type { Me } from '../api/client.js';

/** What a screen is given: who is signed in, and the rest of the path beneath its page (`/new` of `/links/new`, '' on the page itself). */
export interface ScreenProps {
  me: Me;
  subpath: string;
  /** Who is signed in changed (their name, two-factor): the shell shows the new `me`. */
  onMe(me: Me): void;
}
