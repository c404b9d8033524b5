import type { Me } from '../api/client.js';

/** What a screen is given: who is signed in, and the rest of the path beneath its page (`/new` of `/links/new`, '' on the page itself). */
export interface ScreenProps {
  me: Me;
  subpath: string;
}
