/**
 * The designer's two template actions: apply one of the account's templates (it replaces the
 * design) and save the design as a new template. Each is off, with the reason, for a key without
 * the scope it needs.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { scopeBlock } from '../access.js';
import { Dialog } from '../screens/Dialog.js';
import { storedOptions, type QrOptions } from './design.js';

export type Template = paths['/api/v1/templates']['get']['responses'][200]['content']['application/json']['data'][number];

type Listing = { phase: 'loading' } | { phase: 'ready'; templates: Template[] } | { phase: 'error'; message: string };

/** The account's templates, newest first, or why they could not be read. */
export function useTemplates(reloads = 0): Listing {
  const [listing, setListing] = useState<Listing>({ phase: 'loading' });
  useEffect(() => {
    let current = true;
    signedInClient()
      .GET('/api/v1/templates')
      .then(
        ({ data, error, response }) =>
          current &&
          setListing(data ? { phase: 'ready', templates: data.data } : { phase: 'error', message: problemText(response.status, error) }),
      )
      .catch(() => current && setListing({ phase: 'error', message: UNREACHABLE }));
    return () => {
      current = false;
    };
  }, [reloads]);
  return listing;
}

export function ApplyTemplate({ me, onApply }: { me: Me; onApply(options: QrOptions): void }) {
  const block = scopeBlock(me, 'templates.read');
  return (
    <div class="qr-template-action">
      <label for="qr-apply-template">Apply a template</label>
      {block ? (
        <>
          <select id="qr-apply-template" disabled aria-describedby="qr-apply-blocked">
            <option>No templates</option>
          </select>
          <p class="hint" id="qr-apply-blocked">
            {block}
          </p>
        </>
      ) : (
        <TemplateSelect onApply={onApply} />
      )}
    </div>
  );
}

function TemplateSelect({ onApply }: { onApply(options: QrOptions): void }) {
  const listing = useTemplates();
  const [message, setMessage] = useState('');
  const templates = listing.phase === 'ready' ? listing.templates : [];
  const apply = (id: string) => {
    const template = templates.find((t) => t.id === id);
    if (!template) return;
    const options = storedOptions(template.qr_options);
    if (!options) return setMessage(`“${template.name}” holds options this version cannot use; open it on the Templates page.`);
    onApply(options);
    setMessage(`Applied “${template.name}”.`);
  };
  return (
    <>
      <select
        id="qr-apply-template"
        value=""
        disabled={templates.length === 0}
        aria-describedby="qr-apply-status"
        onChange={(e) => apply(e.currentTarget.value)}
      >
        <option value="">
          {listing.phase === 'loading'
            ? 'Loading templates…'
            : listing.phase === 'error'
              ? 'Templates could not be loaded'
              : templates.length === 0
                ? 'No templates yet'
                : 'Choose a template…'}
        </option>
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <p class="hint" id="qr-apply-status" role="status">
        {listing.phase === 'error' ? listing.message : message}
      </p>
    </>
  );
}

export function SaveAsTemplate({ me, value }: { me: Me; value: QrOptions }) {
  const block = scopeBlock(me, 'templates.create');
  const [asking, setAsking] = useState(false);
  const [message, setMessage] = useState('');
  const save = async (form: FormData) => {
    const name = String(form.get('name') ?? '').trim();
    if (!name) return setMessage('Give the template a name.');
    setAsking(false);
    setMessage('Saving…');
    try {
      const { data, error, response } = await signedInClient().POST('/api/v1/templates', { body: { name, qrOptions: value } });
      setMessage(data ? `Saved as the template “${data.name}”.` : `Not saved. ${problemText(response.status, error)}`);
    } catch {
      setMessage(`Not saved. ${UNREACHABLE}`);
    }
  };
  return (
    <div class="qr-template-action">
      <button
        type="button"
        disabled={block !== null}
        aria-describedby={block ? 'qr-save-blocked' : undefined}
        onClick={() => setAsking(true)}
      >
        Save as template
      </button>
      {block && (
        <p class="hint" id="qr-save-blocked">
          {block}
        </p>
      )}
      <p class="hint" role="status">
        {message}
      </p>
      {asking && (
        <Dialog
          title="Save the design as a template"
          submitLabel="Save template"
          onCancel={() => setAsking(false)}
          onSubmit={(form) => void save(form)}
        >
          <label for="qr-template-name">Template name</label>
          <input id="qr-template-name" name="name" required maxLength={255} />
        </Dialog>
      )}
    </div>
  );
}
