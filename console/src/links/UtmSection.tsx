/**
 * The link editor's UTM section: five UTM fields (a template fills them), the destination they
 * make, and what happens to the query a visitor arrives with. Website and smart-url links only.
 */
import { useEffect, useState } from 'preact/hooks';
import type { Me } from '../api/client.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { scopeBlock } from '../access.js';
import { Field } from '../fields/Field.js';
import type { FieldErrors } from '../fields/errors.js';
import { previewOf, UTM_FIELDS, UTM_HINTS, UTM_LABELS, valuesOf, type UtmForm } from './utm.js';
import type { UtmTemplate } from './utm-templates.js';
import './utm.css';

interface Props {
  me: Me;
  value: UtmForm;
  onChange(next: UtmForm): void;
  errors: FieldErrors;
  /** The destination as typed (a website's url, a smart-url's default), for the preview. */
  destination: string;
}

export function UtmSection({ me, value, onChange, errors, destination }: Props) {
  const preview = previewOf(destination, value);
  return (
    <fieldset class="link-settings utm-section">
      <legend>UTM</legend>
      <p class="hint">Tags added to the destination, so its analytics can tell who came from this code.</p>
      <UtmTemplatePicker me={me} onPick={(utm) => onChange({ ...value, values: valuesOf(utm) })} />
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
                value={value.values[field]}
                onInput={(e) => onChange({ ...value, values: { ...value.values, [field]: e.currentTarget.value } })}
              />
            )}
          </Field>
        ))}
      </div>
      <div class="utm-preview">
        <p class="hint" id="utm-preview-label">
          Visitors go to
        </p>
        <output class="utm-preview-url" aria-labelledby="utm-preview-label" aria-live="polite">
          {preview ?? 'Enter the destination URL to see it here.'}
        </output>
      </div>
      <fieldset class="choice" aria-describedby="query-policy-hint">
        <legend>The visitor's own query (?…)</legend>
        <label class="check">
          <input
            type="radio"
            name="query-policy"
            checked={value.queryPolicy === 'drop'}
            onChange={() => onChange({ ...value, queryPolicy: 'drop' })}
          />
          Drop it
        </label>
        <label class="check">
          <input
            type="radio"
            name="query-policy"
            checked={value.queryPolicy === 'merge'}
            onChange={() => onChange({ ...value, queryPolicy: 'merge' })}
          />
          Pass the visitor's query on
        </label>
        <p class="hint" id="query-policy-hint">
          Passed on, parameters such as an ad's click id reach the destination; the destination's own and the UTM above win over the
          visitor's.
        </p>
      </fieldset>
    </fieldset>
  );
}

type Listing = { phase: 'loading' } | { phase: 'ready'; templates: UtmTemplate[] } | { phase: 'error'; message: string };

function UtmTemplatePicker({ me, onPick }: { me: Me; onPick(utm: UtmTemplate['utm']): void }) {
  const block = scopeBlock(me, 'templates.read');
  const [listing, setListing] = useState<Listing>({ phase: 'loading' });
  const [message, setMessage] = useState('');
  useEffect(() => {
    if (block) return;
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
  }, []);
  const templates = listing.phase === 'ready' ? listing.templates : [];
  const pick = (id: string) => {
    const template = templates.find((t) => t.id === id);
    if (!template) return;
    onPick(template.utm);
    setMessage(`Filled from “${template.name}”.`);
  };
  return (
    <div class="field">
      <label for="utm-template">Fill from a UTM template</label>
      <select
        id="utm-template"
        value=""
        disabled={block !== null || templates.length === 0}
        aria-describedby="utm-template-status"
        onChange={(e) => pick(e.currentTarget.value)}
      >
        <option value="">
          {block
            ? 'No templates'
            : listing.phase === 'loading'
              ? 'Loading templates…'
              : listing.phase === 'error'
                ? 'Templates could not be loaded'
                : templates.length === 0
                  ? 'No UTM templates yet'
                  : 'Choose a template…'}
        </option>
        {templates.map((t) => (
          <option key={t.id} value={t.id}>
            {t.name}
          </option>
        ))}
      </select>
      <p class="hint" id="utm-template-status" role="status">
        {block ?? (listing.phase === 'error' ? listing.message : message)} {!block && <a href="#/utm-templates">Manage UTM templates</a>}
      </p>
    </div>
  );
}
