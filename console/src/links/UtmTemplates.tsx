/**
 * The UTM templates page (`#/utm-templates`): the account's named UTM parameters, which the link
 * editor's UTM section fills a link from; `#/utm-templates/new` and `#/utm-templates/<id>` edit
 * one. A link keeps its own copy, so a change here changes no link.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { scopeBlock } from '../access.js';
import { Field } from '../fields/Field.js';
import { fieldErrorsOf, NO_ERRORS, unplacedErrors, type FieldErrors } from '../fields/errors.js';
import { Dialog } from '../screens/Dialog.js';
import { goTo, useStillShown } from '../router.js';
import { useEdited, useUnsavedGuard } from '../unsaved.js';
import { NO_UTM, UTM_FIELDS, UTM_HINTS, UTM_LABELS, utmOf, valuesOf, type UtmField } from './utm.js';
import { utmSummary, type UtmTemplate } from './utm-templates.js';
import './utm.css';

export function UtmTemplates({ me, subpath }: { me: Me; subpath: string }) {
  const id = subpath.replace(/^\//, '');
  return id ? <UtmTemplateEditor key={id} me={me} id={id === 'new' ? null : id} /> : <UtmTemplateList me={me} />;
}

type Listing = { phase: 'loading' } | { phase: 'ready'; templates: UtmTemplate[] } | { phase: 'error'; message: string };

function UtmTemplateList({ me }: { me: Me }) {
  const [reloads, setReloads] = useState(0);
  const [listing, setListing] = useState<Listing>({ phase: 'loading' });
  const [deleting, setDeleting] = useState<UtmTemplate | null>(null);
  const [notice, setNotice] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  const createBlock = scopeBlock(me, 'templates.create');
  const deleteBlock = scopeBlock(me, 'templates.delete');
  const blocked = [...new Set([createBlock, deleteBlock].filter((b): b is string => b !== null))];

  useEffect(() => {
    let current = true;
    signedInClient()
      .GET('/api/v1/utm-templates')
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

  const remove = async (template: UtmTemplate) => {
    setDeleting(null);
    try {
      const { error, response } = await signedInClient().DELETE('/api/v1/utm-templates/{id}', { params: { path: { id: template.id } } });
      setNotice(response.ok ? `Deleted “${template.name}”.` : `“${template.name}” was not deleted. ${problemText(response.status, error)}`);
    } catch {
      setNotice(`“${template.name}” was not deleted. ${UNREACHABLE}`);
    }
    heading.current?.focus();
    setReloads((n) => n + 1);
  };

  return (
    <section class="templates utm-templates" aria-labelledby="utm-templates-title">
      <div class="templates-head">
        <h1 id="utm-templates-title" ref={heading} tabIndex={-1}>
          UTM templates
        </h1>
        <button
          type="button"
          disabled={createBlock !== null}
          aria-describedby={createBlock ? 'utm-templates-blocked' : undefined}
          onClick={() => (location.hash = '#/utm-templates/new')}
        >
          New UTM template
        </button>
      </div>
      <p class="hint">
        A UTM template is a named set of UTM tags: fill a website link's UTM section from it. Links keep their own copy, so changing a
        template changes no link.
      </p>
      {blocked.length > 0 && (
        <p class="hint" id="utm-templates-blocked">
          Some actions are off for this key: {blocked.join(' ')}
        </p>
      )}
      <p role="status" class="hint">
        {notice}
      </p>
      {listing.phase === 'loading' ? (
        <p role="status">Loading UTM templates…</p>
      ) : listing.phase === 'error' ? (
        <p class="field-error" role="alert">
          The UTM templates could not be loaded. {listing.message}
        </p>
      ) : listing.templates.length === 0 ? (
        <p class="empty">No UTM templates yet. Make one for each campaign or channel you print codes for.</p>
      ) : (
        <ul class="utm-template-list">
          {listing.templates.map((t) => (
            <li key={t.id} class="utm-template-row">
              <div>
                <a href={`#/utm-templates/${t.id}`}>{t.name}</a>
                <p class="hint utm-summary">{utmSummary(t.utm)}</p>
              </div>
              <button
                type="button"
                class="small"
                disabled={deleteBlock !== null}
                aria-describedby={deleteBlock ? 'utm-templates-blocked' : undefined}
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
          title={`Delete the UTM template “${deleting.name}”?`}
          submitLabel="Delete"
          onCancel={() => setDeleting(null)}
          onSubmit={() => void remove(deleting)}
        >
          <p>Links filled from it keep their UTM tags; the template itself is removed for good.</p>
        </Dialog>
      )}
    </section>
  );
}

type Loaded = { phase: 'loading' } | { phase: 'ready'; name: string } | { phase: 'error'; message: string };

function UtmTemplateEditor({ me, id }: { me: Me; id: string | null }) {
  const [loaded, setLoaded] = useState<Loaded>(id ? { phase: 'loading' } : { phase: 'ready', name: '' });
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<UtmField, string>>(NO_UTM);
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const writeBlock = scopeBlock(me, id ? 'templates.update' : 'templates.create');
  const shown = useStillShown();
  useUnsavedGuard(useEdited({ name, values }, loaded) && !busy);

  useEffect(() => {
    if (!id) return;
    signedInClient()
      .GET('/api/v1/utm-templates/{id}', { params: { path: { id } } })
      .then(({ data, error, response }) => {
        if (!data) return setLoaded({ phase: 'error', message: problemText(response.status, error) });
        setName(data.data.name);
        setValues(valuesOf(data.data.utm));
        setLoaded({ phase: 'ready', name: data.data.name });
      })
      .catch(() => setLoaded({ phase: 'error', message: UNREACHABLE }));
  }, [id]);

  const save = async () => {
    setBusy(true);
    setStatus('');
    setErrors(NO_ERRORS);
    try {
      const client = signedInClient();
      const body = { name: name.trim(), utm: utmOf(values) ?? {} };
      const { error, response } = id
        ? await client.PATCH('/api/v1/utm-templates/{id}', { params: { path: { id } }, body })
        : await client.POST('/api/v1/utm-templates', { body });
      if (!shown.current) return;
      if (!response.ok) {
        setErrors(fieldErrorsOf(error));
        return setStatus(`Not saved. ${problemText(response.status, error)}`);
      }
      goTo('#/utm-templates');
    } catch {
      setStatus(`Not saved. ${UNREACHABLE}`);
    } finally {
      setBusy(false);
    }
  };

  if (loaded.phase === 'loading') return <p role="status">Loading the UTM template…</p>;
  if (loaded.phase === 'error') {
    return (
      <section class="templates">
        <h1>UTM template</h1>
        <p class="field-error" role="alert">
          The UTM template could not be loaded. {loaded.message}
        </p>
        <a href="#/utm-templates">Back to UTM templates</a>
      </section>
    );
  }
  const leftOver = unplacedErrors(errors, (path) => path === 'name' || path.startsWith('utm.'));
  return (
    <section class="templates utm-template-editor" aria-labelledby="utm-template-title">
      <p>
        <a href="#/utm-templates">← UTM templates</a>
      </p>
      <h1 id="utm-template-title">{id ? `Edit “${loaded.name}”` : 'New UTM template'}</h1>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <Field path="name" label="Template name" errors={errors}>
          {(input) => <input {...input} value={name} maxLength={255} required onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <div class="utm-fields">
          {UTM_FIELDS.map((field) => (
            <Field key={field} path={`utm.${field}`} label={UTM_LABELS[field]} errors={errors} hint={UTM_HINTS[field]}>
              {(input) => (
                <input
                  {...input}
                  type="text"
                  autocomplete="off"
                  spellcheck={false}
                  maxLength={200}
                  value={values[field]}
                  onInput={(e) => setValues({ ...values, [field]: e.currentTarget.value })}
                />
              )}
            </Field>
          ))}
        </div>
        {leftOver.length > 0 && (
          <p class="field-error" role="alert">
            {leftOver.join(' ')}
          </p>
        )}
        <div class="actions">
          <button
            type="submit"
            class="primary"
            disabled={busy || writeBlock !== null}
            aria-describedby={writeBlock ? 'utm-template-blocked' : undefined}
          >
            {busy ? 'Saving…' : id ? 'Save changes' : 'Create UTM template'}
          </button>
          {writeBlock && (
            <span class="hint" id="utm-template-blocked">
              {writeBlock}
            </span>
          )}
        </div>
        <p role="status" class="field-error">
          {status}
        </p>
      </form>
    </section>
  );
}
