/**
 * A saved link's placements, beside its QR designer: the named spots it is printed on ("Table
 * tent", "Window"), each with its own code (the link's short URL with `?q=<code>`), its scans of
 * the last 30 days, and its PNG and SVG from the api. Editors add, rename and remove them;
 * readers see the list only. A removed placement's printed codes keep leading to the link
 * (docs/decisions/0430-placements.md), which the confirm says.
 */
import { useEffect, useId, useMemo, useState } from 'preact/hooks';
import { scopeBlock } from '../access.js';
import type { Me } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { fieldErrorsOf } from '../fields/errors.js';
import { downloadName } from '../qr/download-name.js';
import { saveBlob } from '../save-file.js';
import { Dialog } from '../screens/Dialog.js';
import { showToast } from '../ui/toasts.js';
import { browserTimeZone } from './zones.js';

type Placement = paths['/api/v1/links/{id}/placements']['get']['responses'][200]['content']['application/json']['data'][number];

/** The size of a downloaded code, as the links list's download. */
const DOWNLOAD_PX = 1024;
/** A link holds at most 100 placements: one ranked read covers them all. */
const PLACEMENT_LIMIT = 100;

/** Why a name was refused: the name field's own message when the API names it (a name taken), else the answer in words. */
const nameProblem = (status: number, error: unknown) => fieldErrorsOf(error)['name'] ?? problemText(status, error);

type Listing = { phase: 'loading' } | { phase: 'error'; message: string } | { phase: 'ready'; placements: Placement[] };

interface Props {
  me: Me;
  /** The link's slug. */
  slug: string;
  /** The link's name, for naming downloads (`<link>-<placement>-1024.png`). */
  linkName: string;
}

export function Placements({ me, slug, linkName }: Props) {
  const client = useMemo(signedInClient, []);
  const [listing, setListing] = useState<Listing>({ phase: 'loading' });
  const [scans, setScans] = useState<ReadonlyMap<string, number> | null>(null);
  const [reloads, setReloads] = useState(0);
  const [removing, setRemoving] = useState<Placement | null>(null);
  const block = scopeBlock(me, 'links.update');

  useEffect(() => {
    let current = true;
    client
      .GET('/api/v1/links/{id}/placements', { params: { path: { id: slug } } })
      .then(({ data, error, response }) => {
        if (current)
          setListing(data ? { phase: 'ready', placements: data.data } : { phase: 'error', message: problemText(response.status, error) });
      })
      .catch(() => current && setListing({ phase: 'error', message: UNREACHABLE }));
    // The counts are a nicety: without them the list still shows, only without numbers.
    client
      .GET('/api/v1/links/{id}/analytics/placement', {
        params: { path: { id: slug }, query: { duration: '30_days', timezone: browserTimeZone(), limit: PLACEMENT_LIMIT } },
      })
      .then(({ data }) => {
        if (current && data) setScans(new Map(data.data.flatMap((row) => (row.placementId ? [[row.placementId, row.scans]] : []))));
      })
      .catch(() => {});
    return () => {
      current = false;
    };
  }, [client, slug, reloads]);

  const reload = () => setReloads((n) => n + 1);

  const download = async (placement: Placement, format: 'png' | 'svg', anchor: Element) => {
    try {
      // The image `qrImage` names: the link's design, encoding the placement's URL.
      const { data, error, response } = await client.GET('/api/v1/links/{id}/qr', {
        params: { path: { id: slug }, query: { placement: placement.id, format, size: DOWNLOAD_PX } },
        parseAs: 'blob',
      });
      if (!data) return showToast(`The code could not be made: ${problemText(response.status, error)}`, { anchor, tone: 'error' });
      saveBlob(data, downloadName(`${linkName} ${placement.name}`, DOWNLOAD_PX, format));
    } catch {
      showToast(UNREACHABLE, { anchor, tone: 'error' });
    }
  };

  return (
    <section class="placements" aria-labelledby="placements-title">
      <h2 id="placements-title">Placements</h2>
      <p class="hint">
        One code per printed spot (table tent, window, flyer), all leading to this link: analytics then tells the spots apart.
      </p>
      {block && <p class="hint">{block}</p>}
      {listing.phase === 'loading' && (
        <p class="loading" role="status">
          Loading the placements…
        </p>
      )}
      {listing.phase === 'error' && <p role="alert">The placements could not be loaded: {listing.message}</p>}
      {listing.phase === 'ready' && listing.placements.length === 0 && <p class="empty">No placements yet.</p>}
      {listing.phase === 'ready' && listing.placements.length > 0 && (
        <ul class="placement-list">
          {listing.placements.map((p) => (
            <PlacementRow
              key={p.id}
              placement={p}
              slug={slug}
              scans={scans ? (scans.get(p.id) ?? 0) : null}
              canEdit={block === null}
              onDownload={download}
              onRenamed={reload}
              onRemove={() => setRemoving(p)}
            />
          ))}
        </ul>
      )}
      {block === null && <AddPlacement slug={slug} onAdded={reload} />}
      {removing && (
        <RemoveDialog
          slug={slug}
          placement={removing}
          onClose={(removed) => {
            setRemoving(null);
            if (removed) {
              showToast(`Placement “${removing.name}” removed.`, { tone: 'success' });
              reload();
            }
          }}
        />
      )}
    </section>
  );
}

function PlacementRow({
  placement,
  slug,
  scans,
  canEdit,
  onDownload,
  onRenamed,
  onRemove,
}: {
  placement: Placement;
  slug: string;
  /** Its scans in the last 30 days; null while unknown. */
  scans: number | null;
  canEdit: boolean;
  onDownload(placement: Placement, format: 'png' | 'svg', anchor: Element): Promise<unknown>;
  onRenamed(): void;
  onRemove(): void;
}) {
  const [renaming, setRenaming] = useState(false);
  return (
    <li class="placement">
      {renaming ? (
        <NameForm
          label={`New name for ${placement.name}`}
          initial={placement.name}
          submitLabel="Save"
          onCancel={() => setRenaming(false)}
          save={async (name) => {
            const { data, error, response } = await signedInClient().PATCH('/api/v1/links/{id}/placements/{placementId}', {
              params: { path: { id: slug, placementId: placement.id } },
              body: { name },
            });
            if (!data) return nameProblem(response.status, error);
            setRenaming(false);
            showToast(`Placement renamed to “${data.data.name}”.`, { tone: 'success' });
            onRenamed();
            return null;
          }}
        />
      ) : (
        <p class="placement-name">
          <strong>{placement.name}</strong>
          {scans !== null && (
            <span class="hint">
              {scans.toLocaleString('en')} scan{scans === 1 ? '' : 's'} in the last 30 days
            </span>
          )}
        </p>
      )}
      <p class="placement-url">{placement.url.replace(/^https?:\/\//, '')}</p>
      <div class="placement-actions">
        {(['png', 'svg'] as const).map((format) => (
          <button
            key={format}
            type="button"
            class="small"
            aria-label={`Download ${format.toUpperCase()} of ${placement.name}`}
            onClick={(e) => void onDownload(placement, format, e.currentTarget)}
          >
            Download {format.toUpperCase()}
          </button>
        ))}
        {canEdit && !renaming && (
          <button type="button" class="small" aria-label={`Rename ${placement.name}`} onClick={() => setRenaming(true)}>
            Rename
          </button>
        )}
        {canEdit && (
          <button type="button" class="small" aria-label={`Remove ${placement.name}`} onClick={onRemove}>
            Remove
          </button>
        )}
      </div>
    </li>
  );
}

/** The inline form that adds a placement; it stays open for the next one. */
function AddPlacement({ slug, onAdded }: { slug: string; onAdded(): void }) {
  return (
    <NameForm
      label="New placement"
      hint="Where this code will be printed, e.g. Table tent"
      initial=""
      submitLabel="Add placement"
      clearOnSave
      save={async (name) => {
        const { data, error, response } = await signedInClient().POST('/api/v1/links/{id}/placements', {
          params: { path: { id: slug } },
          body: { name },
        });
        if (!data) return nameProblem(response.status, error);
        showToast(`Placement “${data.data.name}” added.`, { tone: 'success' });
        onAdded();
        return null;
      }}
    />
  );
}

/** A name in one field and its button; `save` answers why it failed in words, or null. */
function NameForm({
  label,
  hint,
  initial,
  submitLabel,
  clearOnSave = false,
  save,
  onCancel,
}: {
  label: string;
  hint?: string;
  initial: string;
  submitLabel: string;
  clearOnSave?: boolean;
  save(name: string): Promise<string | null>;
  onCancel?(): void;
}) {
  const [name, setName] = useState(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = `placement-name-${useId()}`;
  const submit = async () => {
    const trimmed = name.trim();
    if (!trimmed) return setProblem('Give it a name.');
    setBusy(true);
    setProblem(null);
    try {
      const failure = await save(trimmed);
      setProblem(failure);
      if (!failure && clearOnSave) setName('');
    } catch {
      setProblem(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="placement-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <label for={id}>{label}</label>
      <div class="placement-form-row">
        <input
          id={id}
          value={name}
          maxLength={100}
          autoFocus={onCancel !== undefined}
          aria-invalid={problem ? 'true' : undefined}
          aria-describedby={[hint && `${id}-hint`, problem && `${id}-error`].filter(Boolean).join(' ') || undefined}
          onInput={(e) => setName(e.currentTarget.value)}
          onKeyDown={(e) => e.key === 'Escape' && onCancel?.()}
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : submitLabel}
        </button>
        {onCancel && (
          <button type="button" class="ghost" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {problem && (
        <p id={`${id}-error`} class="field-error" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

function RemoveDialog({ slug, placement, onClose }: { slug: string; placement: Placement; onClose(removed: boolean): void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const remove = async () => {
    setBusy(true);
    try {
      const { error: failure, response } = await signedInClient().DELETE('/api/v1/links/{id}/placements/{placementId}', {
        params: { path: { id: slug, placementId: placement.id } },
      });
      if (response.ok) return onClose(true);
      setError(problemText(response.status, failure));
    } catch {
      setError(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={`Remove the placement “${placement.name}”?`}
      submitLabel="Remove placement"
      danger
      busy={busy}
      error={error}
      onSubmit={() => void remove()}
      onCancel={() => onClose(false)}
    >
      <p>
        Codes already printed for it keep working: they still lead to the link, and their scans count as QR scans of no placement. Past
        scans keep its name in analytics.
      </p>
    </Dialog>
  );
}
