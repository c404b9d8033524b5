/**
 * The Templates page: the account's QR style templates (`#/templates`) with a small preview of
 * each, drawn in the browser; `#/templates/new` and `#/templates/<id>` edit one in the designer.
 * Loaded on demand (screens/index.ts), with the renderer, so the first screen stays small.
 */
import { markedShortUrl } from '#domain/links/source-marker.js';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Field } from '../fields/Field.js';
import { errorsUnder, fieldErrorsOf, NO_ERRORS, unplacedErrors, type FieldErrors } from '../fields/errors.js';
import { shortUrlOf } from '../links/settings.js';
import { scopeBlock } from '../access.js';
import { Dialog } from '../screens/Dialog.js';
import { renderDesign, storedOptions, type QrOptions } from './design.js';
import { DEFAULT_DESIGN } from './looks.js';
import { QrDesigner } from './QrDesigner.js';
import { goTo, useStillShown } from '../router.js';
import { useEdited, useUnsavedGuard } from '../unsaved.js';
import { useTemplates, type Template } from './template-actions.js';

/** What a template preview encodes, as the API's own template preview does: a short URL of a link's shape. */
/** What a template's preview encodes: a short URL of the account's kind, as the API's template preview does. */
/** What a template's code encodes in the designer: a link's marked short URL, as the api's preview does. */
const sampleData = (me: Me) => markedShortUrl(shortUrlOf(me.shortUrlBase, 'Preview'));

export function Templates({ me, subpath }: { me: Me; subpath: string }) {
  const id = subpath.replace(/^\//, '');
  return id ? <TemplateEditor key={id} me={me} id={id === 'new' ? null : id} /> : <TemplateList me={me} />;
}

function TemplateList({ me }: { me: Me }) {
  const [reloads, setReloads] = useState(0);
  const listing = useTemplates(reloads);
  const [deleting, setDeleting] = useState<Template | null>(null);
  const [notice, setNotice] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const createBlock = scopeBlock(me, 'templates.create');
  const deleteBlock = scopeBlock(me, 'templates.delete');
  const blocked = [...new Set([createBlock, deleteBlock].filter((b): b is string => b !== null))];

  const remove = async (template: Template) => {
    setDeleting(null);
    try {
      const { error, response } = await signedInClient().DELETE('/api/v1/templates/{id}', { params: { path: { id: template.id } } });
      setNotice(response.ok ? `Deleted “${template.name}”.` : `“${template.name}” was not deleted. ${problemText(response.status, error)}`);
    } catch {
      setNotice(`“${template.name}” was not deleted. ${UNREACHABLE}`);
    }
    heading.current?.focus();
    setReloads((n) => n + 1);
  };

  return (
    <section class="templates" aria-labelledby="templates-title">
      <div class="templates-head">
        <h1 id="templates-title" ref={heading} tabIndex={-1}>
          Templates
        </h1>
        <button
          type="button"
          disabled={createBlock !== null}
          aria-describedby={createBlock ? 'templates-blocked' : undefined}
          onClick={() => (location.hash = '#/templates/new')}
        >
          New template
        </button>
      </div>
      <p class="hint">A template is a saved QR design: apply it to any link's code, or start new codes from it.</p>
      {blocked.length > 0 && (
        <p class="hint" id="templates-blocked">
          Some actions are off for this key: {blocked.join(' ')}
        </p>
      )}
      <p role="status" class="hint">
        {notice}
      </p>
      {listing.phase === 'loading' ? (
        <p role="status">Loading templates…</p>
      ) : listing.phase === 'error' ? (
        <p class="field-error" role="alert">
          The templates could not be loaded. {listing.message}
        </p>
      ) : listing.templates.length === 0 ? (
        <p class="empty">No templates yet. Design a QR code once and save it as a template to reuse its look.</p>
      ) : (
        <ul class="template-list">
          {listing.templates.map((t) => (
            <li key={t.id} class="template-card">
              <TemplatePreview template={t} me={me} />
              <div>
                <a href={`#/templates/${t.id}`}>{t.name}</a>
                <p class="hint">
                  Updated <time dateTime={t.updated_at}>{new Date(t.updated_at).toLocaleDateString()}</time>
                </p>
              </div>
              <button
                type="button"
                class="small"
                disabled={deleteBlock !== null}
                aria-describedby={deleteBlock ? 'templates-blocked' : undefined}
                aria-label={`Delete ${t.name}`}
                onClick={() => setDeleting(t)}
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <Dialog
          title={`Delete the template “${deleting.name}”?`}
          submitLabel="Delete"
          onCancel={() => setDeleting(null)}
          onSubmit={() => void remove(deleting)}
        >
          <p>Links already styled with it keep their look; the template itself is removed for good.</p>
        </Dialog>
      )}
    </section>
  );
}

function TemplatePreview({ template, me }: { template: Template; me: Me }) {
  const svg = useMemo(() => {
    const options = storedOptions(template.qr_options);
    // At the design's own size, drawn smaller: its margin is in pixels of that size.
    const rendered = options && renderDesign({ ...options, image: null }, sampleData(me), null);
    return rendered?.ok ? rendered.svg : null;
  }, [template]);
  return svg ? (
    <img class="template-thumb" src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`} alt="" width={96} height={96} />
  ) : (
    <span class="template-thumb" aria-hidden="true" />
  );
}

/** `unreadable`: the stored options no longer pass the API's schema; the editor starts from the defaults and says so. */
type Loaded = { phase: 'loading' } | { phase: 'ready'; name: string; unreadable: boolean } | { phase: 'error'; message: string };

function TemplateEditor({ me, id }: { me: Me; id: string | null }) {
  const [loaded, setLoaded] = useState<Loaded>(id ? { phase: 'loading' } : { phase: 'ready', name: '', unreadable: false });
  const [name, setName] = useState('');
  const [options, setOptions] = useState<QrOptions>(DEFAULT_DESIGN);
  // The design as stored: the print files are the server's drawing of it, so they wait for a save.
  const [storedDesign, setStoredDesign] = useState<string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const writeBlock = scopeBlock(me, id ? 'templates.update' : 'templates.create');
  const shown = useStillShown();
  useUnsavedGuard(useEdited({ name, options }, loaded) && !busy);

  useEffect(() => {
    if (!id) return;
    signedInClient()
      .GET('/api/v1/templates/{id}', { params: { path: { id } } })
      .then(({ data, error, response }) => {
        if (!data) return setLoaded({ phase: 'error', message: problemText(response.status, error) });
        const stored = storedOptions(data.data.qr_options);
        setName(data.data.name);
        setOptions(stored ?? DEFAULT_DESIGN);
        setStoredDesign(stored ? JSON.stringify(stored) : null);
        setLoaded({ phase: 'ready', name: data.data.name, unreadable: stored === null });
      })
      .catch(() => setLoaded({ phase: 'error', message: UNREACHABLE }));
  }, [id]);

  const save = async () => {
    setBusy(true);
    setStatus('');
    setErrors(NO_ERRORS);
    try {
      const client = signedInClient();
      const body = { name: name.trim(), qrOptions: options };
      const { error, response } = id
        ? await client.PUT('/api/v1/templates/{id}', { params: { path: { id } }, body })
        : await client.POST('/api/v1/templates', { body });
      // The owner went to another page (another template's, say) before the answer: the tab stays there.
      if (!shown.current) return;
      if (!response.ok) {
        setErrors(fieldErrorsOf(error));
        return setStatus(`Not saved. ${problemText(response.status, error)}`);
      }
      goTo('#/templates');
    } catch {
      setStatus(`Not saved. ${UNREACHABLE}`);
    } finally {
      setBusy(false);
    }
  };

  if (loaded.phase === 'loading') return <p role="status">Loading the template…</p>;
  if (loaded.phase === 'error') {
    return (
      <section class="templates">
        <h1>Template</h1>
        <p class="field-error" role="alert">
          The template could not be loaded. {loaded.message}
        </p>
        <a href="#/templates">Back to templates</a>
      </section>
    );
  }
  const title = id ? `Edit “${loaded.name}”` : 'New template';
  const leftOver = unplacedErrors(errors, (path) => path === 'name' || path.startsWith('qrOptions.'));
  return (
    // Not a <form>: the designer's "Save as template" asks in a dialog with its own form.
    <section class="templates template-editor" aria-labelledby="template-title">
      <p>
        <a href="#/templates">← Templates</a>
      </p>
      <h1 id="template-title">{title}</h1>
      {loaded.unreadable && (
        <p class="field-error" role="alert">
          This template's stored design does not pass today's option rules, so the designer starts from the defaults; saving replaces the
          stored design.
        </p>
      )}
      <Field path="name" label="Template name" errors={errors}>
        {(input) => <input {...input} value={name} maxLength={255} required onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
      <QrDesigner
        value={options}
        onChange={setOptions}
        data={sampleData(me)}
        name={name || 'template'}
        me={me}
        errors={errorsUnder(errors, 'qrOptions')}
        printFiles={{
          of: { template: id ?? '' },
          block: !id
            ? 'Create the template to make its print files.'
            : JSON.stringify(options) === storedDesign
              ? undefined
              : 'Save the template first: the print files are drawn from the saved design.',
        }}
      />
      {leftOver.length > 0 && (
        <p class="field-error" role="alert">
          {leftOver.join(' ')}
        </p>
      )}
      <div class="actions">
        <button
          type="button"
          class="primary"
          onClick={() => void save()}
          disabled={busy || writeBlock !== null}
          aria-describedby={writeBlock ? 'template-blocked' : undefined}
        >
          {busy ? 'Saving…' : id ? 'Save changes' : 'Create template'}
        </button>
        {writeBlock && (
          <span class="hint" id="template-blocked">
            {writeBlock}
          </span>
        )}
      </div>
      <p role="status" class="field-error">
        {status}
      </p>
    </section>
  );
}
