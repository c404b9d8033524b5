/** The page outside the shell a route names. */
import type { Me } from '../api/client.js';
import { ForgotPassword } from './ForgotPassword.js';
import { Join } from './Join.js';
import { ResetPassword } from './ResetPassword.js';
import type { DoorName } from './routes.js';
import { Setup } from './Setup.js';

export function Door({ door, token, onSignedIn }: { door: DoorName; token: string; onSignedIn(me: Me): void }) {
  switch (door) {
    case 'setup':
      return <Setup token={token} onSignedIn={onSignedIn} />;
    case 'join':
      return <Join token={token} onSignedIn={onSignedIn} />;
    case 'reset-password':
      return <ResetPassword token={token} onSignedIn={onSignedIn} />;
    case 'forgot-password':
      return <ForgotPassword />;
  }
}
