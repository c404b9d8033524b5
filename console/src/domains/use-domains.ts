/**
 * The account's domains for a picker (the link editor, the bulk page): read once per screen; an
 * answer that is not the list (a client, who sees no domains; the server away) is none, so the
 * picker stays hidden and the API decides the domain.
 */
import { useEffect, useState } from 'preact/hooks';
import { signedInClient } from '../api/signed-in.js';
import type { Domain } from './domains.js';

export function useDomains(): Domain[] | null {
  const [domains, setDomains] = useState<Domain[] | null>(null);
  useEffect(() => {
    let live = true;
    signedInClient()
      .GET('/api/v1/domains')
      .then(
        ({ data }) => live && setDomains(data?.data ?? []),
        () => live && setDomains([]),
      );
    return () => {
      live = false;
    };
  }, []);
  return domains;
}
