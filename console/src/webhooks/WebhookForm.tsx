/**
 * Adding or editing a webhook: its address, a description, the events it gets (grouped, each with
 * a line on when it is sent), and optionally only some links and folders. A 400's messages land at
 * the fields they name. Leaving it with changes not saved asks first.
 */
import { useEffect, useState } from 'preact/hooks';
import type { paths } from '../api/schema.js';
import { problemText, signedInClient, UNREACHABLE } from '../api/signed-in.js';
import { Field, fieldId } from '../fields/Field.js';
import { fieldErrorsOf, NO_ERRORS, unplacedErrors, type FieldErrors } from '../fields/errors.js';
import { Icon } from '../ui/Icon.js';
import { useEdited, useUnsavedGuard } from '../unsaved.js';
import { bodyOf, EMPTY_FORM, EVENT_GROUPS, formOf, formPath, type Webhook, type WebhookForm as Values } from './webhooks.js';

type Folder = paths['/api/v1/folders']['get']['responses'][200]['content']['application/json']['data'][number];

/** Paths the form has a place for; any other error is listed above the buttons. */
const PLACED = new Set(['url', 'description', 'events', 'links', 'folders']);

export function WebhookForm({ webhook, onSaved }: { webhook?: Webhook; onSaved(saved: Webhook): void }) {
  const [values, setValues] = useState<Values>(() => (webhook ? formOf(webhook) : EMPTY_FORM));
  const [errors, setErrors] = useState<FieldErrors>(NO_ERRORS);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [folders, setFolders] = useState<Folder[] | string | null>(null);
  const set = (change: Partial<Values>) => setValues((v) => ({ ...v, ...change }));
  // Leaving with changes not saved asks first, as every editor does.
  useUnsavedGuard(useEdited(values, webhook?.updated_at ?? null) && !busy);

  useEffect(() => {
    signedInClient()
      .GET('/api/v1/folders')
      .then(
        ({ data, error, response }) =>
          setFolders(data ? data.data : `The folders could not be loaded. ${problemText(response.status, error)}`),
        () => setFolders(`The folders could not be loaded. ${UNREACHABLE}`),
      );
  }, []);

  const toggle = (type: string, on: boolean) => set({ events: on ? [...values.events, type] : values.events.filter((e) => e !== type) });

  const submit = async (event: Event) => {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (!values.url.trim()) local.url = 'Enter the address events are sent to, starting with https://.';
    if (values.events.length === 0) local.events = 'Choose at least one event.';
    setProblem(null);
    setErrors(local);
    if (Object.keys(local).length > 0) return focusFirst(local);
    setBusy(true);
    try {
      const body = bodyOf(values);
      const client = signedInClient();
      const answer = webhook
        ? await client.PATCH('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body })
        : await client.POST('/api/v1/webhooks', { body });
      if (answer.data) return onSaved('data' in answer.data ? answer.data.data : answer.data);
      const byPath: Record<string, string> = {};
      for (const [path, message] of Object.entries(fieldErrorsOf(answer.error))) byPath[formPath(path)] ??= message;
      setErrors(byPath);
      const rest = unplacedErrors(byPath, (p) => PLACED.has(p));
      if (Object.keys(byPath).length === 0 || rest.length > 0)
        setProblem(rest.length > 0 ? rest.join(' ') : problemText(answer.response.status, answer.error));
      focusFirst(byPath);
    } catch {
      setProblem(UNREACHABLE);
    } finally {
      setBusy(false);
    }
  };

  const limited = values.links.trim() !== '' || values.folders.length > 0;
  return (
    <form class="webhook-form" onSubmit={(e) => void submit(e)} noValidate>
      <a class="back-link" href={webhook ? `#/webhooks/${webhook.id}` : '#/webhooks'}>
        <Icon name="arrow-back-up" /> {webhook ? 'Back to the webhook' : 'All webhooks'}
      </a>
      <h1 id="webhooks-title">{webhook ? 'Edit webhook' : 'Add a webhook'}</h1>
      <Field
        path="url"
        label="Endpoint URL"
        errors={errors}
        hint="Where events are sent, as a POST with a JSON body. It must be reachable from the internet."
      >
        {(input) => (
          <input
            {...input}
            type="url"
            inputMode="url"
            autocomplete="off"
            spellcheck={false}
            placeholder="https://hooks.example.com/qrlinks"
            value={values.url}
            onInput={(e) => set({ url: e.currentTarget.value })}
          />
        )}
      </Field>
      <Field path="description" label="Description (optional)" errors={errors} hint="What it is, for whoever reads this list: “CRM sync”.">
        {(input) => (
          <input {...input} value={values.description} maxLength={500} onInput={(e) => set({ description: e.currentTarget.value })} />
        )}
      </Field>
      <fieldset
        class={errors.events ? 'group event-picker field-invalid' : 'group event-picker'}
        id={fieldId('events')}
        tabIndex={-1}
        aria-describedby={errors.events ? `${fieldId('events')}-error` : undefined}
      >
        <legend>Events to send</legend>
        {errors.events && (
          <p class="field-error" id={`${fieldId('events')}-error`}>
            {errors.events}
          </p>
        )}
        {EVENT_GROUPS.map((group) => {
          const all = group.events.every((e) => values.events.includes(e.type));
          const nameId = `events-${group.name.toLowerCase()}`;
          return (
            <div class="event-group" role="group" aria-labelledby={nameId} key={group.name}>
              <div class="event-group-head">
                <span class="event-group-name" id={nameId}>
                  {group.name}
                </span>
                <button
                  type="button"
                  class="ghost group-toggle"
                  onClick={() =>
                    set({
                      events: all
                        ? values.events.filter((t) => !group.events.some((e) => e.type === t))
                        : [...new Set([...values.events, ...group.events.map((e) => e.type)])],
                    })
                  }
                >
                  {all ? 'Clear' : 'Select all'}
                  <span class="visually-hidden"> {group.name.toLowerCase()} events</span>
                </button>
              </div>
              <div class="event-choices">
                {group.events.map((e) => (
                  <label class="event-choice" key={e.type}>
                    {/* Named by its label alone, described by its line: a long
                        accessible name would repeat another event's label. */}
                    <input
                      type="checkbox"
                      checked={values.events.includes(e.type)}
                      onChange={(ev) => toggle(e.type, ev.currentTarget.checked)}
                      aria-labelledby={`event-${e.type}-name`}
                      aria-describedby={`event-${e.type}-says`}
                    />
                    <span>
                      <span class="event-name" id={`event-${e.type}-name`}>
                        {e.label}
                      </span>{' '}
                      <code>{e.type}</code>
                      <span class="event-says" id={`event-${e.type}-says`}>
                        {e.says}
                      </span>
                    </span>
                  </label>
                ))}
              </div>
            </div>
          );
        })}
      </fieldset>
      <details class="webhook-limit" open={limited || !!errors.links || !!errors.folders}>
        <summary>Only for some links (optional)</summary>
        <p class="hint">Link events are then sent only for these links and the links in these folders. Other events are not affected.</p>
        <Field
          path="links"
          label="Links"
          errors={errors}
          hint="The part after the slash in their short URL (qr.example/menu → menu), separated by commas."
        >
          {(input) => (
            <input
              {...input}
              autocomplete="off"
              spellcheck={false}
              placeholder="menu, lisboa-flyer"
              value={values.links}
              onInput={(e) => set({ links: e.currentTarget.value })}
            />
          )}
        </Field>
        <fieldset class="group folder-picker" id={fieldId('folders')} tabIndex={-1}>
          <legend>Folders</legend>
          {errors.folders && <p class="field-error">{errors.folders}</p>}
          {folders === null ? (
            <p class="hint">Loading folders…</p>
          ) : typeof folders === 'string' ? (
            <p class="hint">{folders}</p>
          ) : folders.length === 0 ? (
            <p class="hint">This account has no folders yet.</p>
          ) : (
            <div class="folder-choices">
              {folders.map((f) => (
                <label class="check" key={f.id}>
                  <input
                    type="checkbox"
                    checked={values.folders.includes(f.id)}
                    onChange={(e) =>
                      set({ folders: e.currentTarget.checked ? [...values.folders, f.id] : values.folders.filter((id) => id !== f.id) })
                    }
                  />{' '}
                  <Icon name="folder" /> {f.name}
                </label>
              ))}
            </div>
          )}
        </fieldset>
      </details>
      {problem && (
        <p class="field-error" role="alert">
          {problem}
        </p>
      )}
      <div class="form-actions">
        <a class="button" href={webhook ? `#/webhooks/${webhook.id}` : '#/webhooks'}>
          Cancel
        </a>
        <button type="submit" class="primary" disabled={busy} aria-busy={busy ? 'true' : undefined}>
          {webhook ? (busy ? 'Saving…' : 'Save changes') : busy ? 'Adding…' : 'Add webhook'}
        </button>
      </div>
    </form>
  );
}

/** Focus goes to the first field with an error, in the form's order. */
function focusFirst(errors: Record<string, string>) {
  const first = [...PLACED].find((p) => errors[p]);
  if (first) requestAnimationFrame(() => document.getElementById(fieldId(first))?.focus());
}
